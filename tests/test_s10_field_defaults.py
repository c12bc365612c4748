"""Defaults of fields a guide names as ``Config.verify`` (issue 14): an on/off statement about
a dataclass field is about the constructor's parameter of that name, and "an empty list" is a
default stated in words. Each defect is flagged and its correct twin is green; "when the list
is empty" stays a condition.
"""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict

from .conftest import review_written, verdict_starting

CODE = '''
"""Settings."""

from dataclasses import dataclass, field


@dataclass
class Config:
    verify: bool = True
    cache: bool = False
    tags: list[str] = field(default_factory=list)
    name: str = ""
'''

GUIDE = """\
# Settings

`Config.verify` is off by default.

`Config.verify` is on by default.

`Config.cache` is disabled by default.

`Config.tags` defaults to an empty list.

`Config.tags` defaults to an empty dict.

`Config.name` defaults to an empty string.
"""


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Claim, Verdict]]:
    root = tmp_path_factory.mktemp("settings") / "proj"
    files = {
        "settings/__init__.py": '"""Settings."""\nfrom settings.core import Config\n',
        "settings/core.py": CODE,
        "docs/guide.md": GUIDE,
        "README.md": "# settings\n",
    }
    return review_written(root, files, ["docs/guide.md"])


def test_an_on_off_statement_about_a_field(reviewed) -> None:
    wrong = verdict_starting(reviewed, "`Config.verify` is off")
    assert wrong.verdict == "contradicted" and "True" in wrong.rationale, wrong.rationale
    assert verdict_starting(reviewed, "`Config.verify` is on").verdict == "consistent"
    assert verdict_starting(reviewed, "`Config.cache` is disabled").verdict == "consistent"


def test_an_empty_container_stated_in_words(reviewed) -> None:
    assert verdict_starting(reviewed, "`Config.tags` defaults to an empty list").verdict == "consistent"
    wrong = verdict_starting(reviewed, "`Config.tags` defaults to an empty dict")
    assert wrong.verdict == "contradicted", wrong.rationale
    assert verdict_starting(reviewed, "`Config.name` defaults to an empty string").verdict == "consistent"
