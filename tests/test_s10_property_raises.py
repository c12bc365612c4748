"""Code that runs without a call written for it (issue 14): a method that reads a property
through ``self`` runs the getter, and constructing a dataclass runs its ``__post_init__``. A
raise there is in reach, so "raises `ValueError`" is not contradicted with "nothing it runs
raises anything", while an exception nothing in reach raises still is.
"""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict

from .conftest import review_written, verdict_starting

CODE = '''
"""Boxes."""

from dataclasses import dataclass


class Box:
    def __init__(self, size: int) -> None:
        self.size = size

    @property
    def area(self) -> int:
        if self.size < 0:
            raise ValueError("negative size")
        return self.size * self.size

    def doubled(self) -> int:
        return self.area * 2


@dataclass
class Point:
    x: int

    def __post_init__(self) -> None:
        if self.x < 0:
            raise ValueError("x must be >= 0")


def make_point(x: int) -> Point:
    return Point(x)
'''

GUIDE = """\
# Boxes

`Box.doubled()` raises `ValueError` when the size is negative.

`Box.doubled()` raises `KeyError` when the size is negative.

`make_point(-1)` raises `ValueError` when x is negative.
"""


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Claim, Verdict]]:
    root = tmp_path_factory.mktemp("boxes") / "proj"
    files = {
        "boxes/__init__.py": '"""Boxes."""\nfrom boxes.core import Box, Point, make_point\n',
        "boxes/core.py": CODE,
        "docs/guide.md": GUIDE,
        "README.md": "# boxes\n",
    }
    return review_written(root, files, ["docs/guide.md"])


def test_a_property_read_through_self_is_in_reach(reviewed) -> None:
    v = verdict_starting(reviewed, "`Box.doubled()` raises `ValueError`")
    assert v.verdict not in ("contradicted", "incomplete"), v.rationale
    assert "`Box.doubled` raises `ValueError`" in v.rationale


def test_an_exception_nothing_in_reach_raises_is_still_contradicted(reviewed) -> None:
    v = verdict_starting(reviewed, "`Box.doubled()` raises `KeyError`")
    assert v.verdict == "contradicted", v.rationale
    assert "ValueError" in v.rationale


def test_a_dataclass_post_init_is_in_reach(reviewed) -> None:
    v = verdict_starting(reviewed, "`make_point(-1)` raises `ValueError`")
    assert v.verdict not in ("contradicted", "incomplete"), v.rationale
    assert "`make_point` raises `ValueError`" in v.rationale, v.rationale
