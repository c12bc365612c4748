"""Names a doc tells the reader to set (issue 14): an environment variable in prose or in a
shell block's ``export`` against the names ``os.environ`` / ``os.getenv`` read, a
configuration key against the project's string literals, and a call written in prose with the
signature's own names in another order. Near-misses are flagged with the name the code uses;
a variable the code never reads nor nearly reads (a library's), a project that builds its
environment names at run time, and a correct order stay unflagged.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.review.static.naming.settingnames import near_miss

from .conftest import review_written, verdict_containing

FLAGS = ("contradicted", "incomplete")

CODE = '''
"""Shop."""

import os

TOKEN = os.environ.get("SHOP_API_TOKEN", "")


def log_level() -> str:
    return os.getenv("SHOP_LOG_LEVEL", "info")


def copy(src: str, dst: str) -> None:
    """Copy a file."""


def load(config: dict) -> float:
    return config.get("request_timeout", 30.0)
'''

GUIDE = """\
# Shop

Set the `SHOP_TOKEN` environment variable to authenticate.

Set the `SHOP_API_TOKEN` environment variable to authenticate.

The `HTTPS_PROXY` environment variable is honoured by the transport.

```bash
export SHOP_LOGLEVEL=debug
```

```bash
export SHOP_LOG_LEVEL=debug
```

The `request_timout` key sets the timeout.

The `request_timeout` key sets the timeout.

Call `copy(dst, src)` to copy a file.

Call `copy(src, dst)` to copy a file.
"""


def _review(root: Path, code: str) -> list[tuple[Claim, Verdict]]:
    files = {
        "shop/__init__.py": '"""Shop."""\nfrom shop.core import copy, load\n',
        "shop/core.py": code,
        "docs/guide.md": GUIDE,
        "README.md": "# shop\n",
    }
    return review_written(root, files, ["docs/guide.md"])


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Claim, Verdict]]:
    return _review(tmp_path_factory.mktemp("shop") / "proj", CODE)


def test_environment_variables_against_what_the_code_reads(reviewed) -> None:
    wrong = verdict_containing(reviewed, "`SHOP_TOKEN`")
    assert wrong.verdict == "contradicted" and "SHOP_API_TOKEN" in wrong.rationale, wrong.rationale
    assert wrong.evidence and wrong.evidence[0].path == "shop/core.py"
    assert verdict_containing(reviewed, "`SHOP_API_TOKEN`").verdict == "consistent"
    assert verdict_containing(reviewed, "`HTTPS_PROXY`").verdict not in FLAGS  # no near-miss: maybe a library's


def test_shell_exports(reviewed) -> None:
    wrong = verdict_containing(reviewed, "export SHOP_LOGLEVEL=")
    assert wrong.verdict == "contradicted" and "SHOP_LOG_LEVEL" in wrong.rationale, wrong.rationale
    assert verdict_containing(reviewed, "export SHOP_LOG_LEVEL=").verdict not in FLAGS


def test_configuration_keys(reviewed) -> None:
    wrong = verdict_containing(reviewed, "The `request_timout` key")
    assert wrong.verdict == "contradicted" and "request_timeout" in wrong.rationale, wrong.rationale
    assert verdict_containing(reviewed, "The `request_timeout` key").verdict not in FLAGS


def test_arguments_in_another_order(reviewed) -> None:
    wrong = verdict_containing(reviewed, "`copy(dst, src)`")
    assert wrong.verdict == "contradicted" and "`src`, `dst` in that order" in wrong.rationale, wrong.rationale
    assert wrong.fix is not None
    assert verdict_containing(reviewed, "`copy(src, dst)`").verdict not in FLAGS


def test_names_built_at_run_time_give_no_answer(tmp_path: Path) -> None:
    built = CODE.replace('os.getenv("SHOP_LOG_LEVEL", "info")', 'os.getenv(PREFIX + "LOG_LEVEL", "info")')
    built = built.replace('import os\n', 'import os\n\nPREFIX = "SHOP_"\n')
    pairs = _review(tmp_path / "proj", built)
    assert verdict_containing(pairs, "`SHOP_TOKEN`").verdict not in FLAGS


def test_near_miss() -> None:
    assert near_miss("SHOP_TOKEN", "SHOP_API_TOKEN")
    assert near_miss("request_timout", "request_timeout")
    assert near_miss("timeout.request", "request.timeout")
    assert not near_miss("DATABASE_URL", "DATABASE_HOST")
    assert not near_miss("HOME", "HOST")
