"""One-sided bounds stated for a parameter (issue 14): "`rate` > 0" in a table, "`ttl` must be
non-negative", "must be at least 2" in a docstring field, against the raising guard on that side
(``if rate <= 0: raise``). Strictness counts, an ``int``'s "> 0" is its ">= 1", and a side the
function does not guard itself is no answer.
"""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict

from .conftest import review_written, verdict_starting

FLAGS = ("contradicted", "incomplete")

CODE = '''
"""Rates."""


def _check(level: int) -> None:
    if level < 0:
        raise ValueError(level)


class Book:
    def add(self, rate: float, ttl: int = 60, retries: int = 3, level: int = 0) -> None:
        """Add a rate.

        Args:
            rate: The rate. Must be positive.
            ttl: Kept this long; must be non-negative.
            retries: How often to retry. Must be at least 2.
            level: The level. Must be non-negative.
        """
        if rate <= 0:
            raise ValueError("rate must be > 0")
        if ttl < 0:
            raise ValueError("ttl must be >= 0")
        if retries < 1 or retries > 10:
            raise ValueError("retries out of range")
        _check(level)
'''

GUIDE = """\
# Rates

| call | constraint |
|---|---|
| `Book.add(rate)` | `rate` > 0 |
| `Book.add(rate)` | `rate` > 1 |

`Book.add`: `ttl` must be positive.

`Book.add`: `retries` must be greater than 0.

`Book.add`: `retries` must be at most 5.
"""


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Claim, Verdict]]:
    files = {
        "rates/__init__.py": '"""Rates."""\nfrom rates.core import Book\n',
        "rates/core.py": CODE,
        "docs/guide.md": GUIDE,
        "README.md": "# rates\n",
    }
    return review_written(tmp_path_factory.mktemp("rates") / "proj", files, ["docs/guide.md", "rates/core.py"])


def test_a_table_constraint(reviewed) -> None:
    assert verdict_starting(reviewed, "`Book.add(rate)` | `rate` > 0").verdict == "consistent"
    wrong = verdict_starting(reviewed, "`Book.add(rate)` | `rate` > 1")
    assert wrong.verdict == "contradicted" and "> 0" in wrong.rationale, wrong.rationale


def test_words_and_strictness(reviewed) -> None:
    wrong = verdict_starting(reviewed, "`Book.add`: `ttl` must be positive")
    assert wrong.verdict == "contradicted" and ">= 0" in wrong.rationale, wrong.rationale
    same = verdict_starting(reviewed, "`Book.add`: `retries` must be greater than 0")
    assert same.verdict == "consistent", same.rationale  # an int's > 0 is its >= 1
    upper = verdict_starting(reviewed, "`Book.add`: `retries` must be at most 5")
    assert upper.verdict == "contradicted" and "<= 10" in upper.rationale, upper.rationale


def test_docstring_fields(reviewed) -> None:
    assert verdict_starting(reviewed, "Args: rate:").verdict == "consistent"
    wrong = verdict_starting(reviewed, "Args: retries:")
    assert wrong.verdict == "contradicted" and ">= 1" in wrong.rationale, wrong.rationale


def test_a_check_in_a_helper_is_no_answer(reviewed) -> None:
    assert verdict_starting(reviewed, "Args: level:").verdict not in FLAGS
