"""Defaults of fields a guide names as ``Config.verify`` (issue 14): an on/off statement about
a dataclass field is about the constructor's parameter of that name, and "an empty list" is a
default stated in words. Each defect is flagged and its correct twin is green; "when the list
is empty" stays a condition.
"""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer

from .conftest import write

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
    for rel, text in {"settings/__init__.py": '"""Settings."""\nfrom settings.core import Config\n',
                      "settings/core.py": CODE, "docs/guide.md": GUIDE, "README.md": "# settings\n"}.items():
        write(root, rel, text)
    eng = Engine.open(root)
    try:
        return review_doc(eng, "docs/guide.md", StaticReviewer()).pairs()
    finally:
        eng.close()


def _verdict(reviewed: list[tuple[Claim, Verdict]], part: str) -> Verdict:
    hits = [v for c, v in reviewed if c.text.strip().startswith(part)]
    assert len(hits) == 1, (part, [c.text for c, _ in reviewed])
    return hits[0]


def test_an_on_off_statement_about_a_field(reviewed) -> None:
    wrong = _verdict(reviewed, "`Config.verify` is off")
    assert wrong.verdict == "contradicted" and "True" in wrong.rationale, wrong.rationale
    assert _verdict(reviewed, "`Config.verify` is on").verdict == "consistent"
    assert _verdict(reviewed, "`Config.cache` is disabled").verdict == "consistent"


def test_an_empty_container_stated_in_words(reviewed) -> None:
    assert _verdict(reviewed, "`Config.tags` defaults to an empty list").verdict == "consistent"
    wrong = _verdict(reviewed, "`Config.tags` defaults to an empty dict")
    assert wrong.verdict == "contradicted", wrong.rationale
    assert _verdict(reviewed, "`Config.name` defaults to an empty string").verdict == "consistent"
