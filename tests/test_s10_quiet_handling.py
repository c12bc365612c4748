"""Out-of-range arguments, both directions (issue 14): "a negative `zoom` is clamped" where
the code raises on ``zoom < 0``; "`zoom` above 20 raises `ValueError`" where the code clamps
that side with ``min``. The sides are read from the words and from the comparison, so the
correct twins (the side the code really clamps, the side it really raises on) stay
unflagged, as do negations and a check handed to a helper. Also: attributes bound by tuple
assignment (``self.x, self.zoom = ...``) exist.
"""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict

from .conftest import review_written, verdict_starting

FLAGS = ("contradicted", "incomplete")

CODE = '''
"""Tiles."""


def _check(level: int) -> None:
    if level < 0:
        raise ValueError(level)


class Tile:
    def __init__(self, x: int, zoom: int = 12) -> None:
        if zoom < 0:
            raise ValueError("zoom must be >= 0")
        self.x, self.zoom = x, min(zoom, 20)


class Layer:
    def __init__(self, level: int = 0) -> None:
        _check(level)
        self.level = level


class Range:
    def __init__(self, percent: float) -> None:
        if not 0 <= percent <= 100:
            raise ValueError("percent out of range")
        self.percent = percent
'''

GUIDE = """\
# Tiles

A negative `zoom` is clamped to 0 by `Tile`.

A `zoom` above 20 is clamped to 20 by `Tile`.

`Tile` does not clamp a negative `zoom`.

A `zoom` above 20 raises `ValueError` in `Tile`.

A `zoom` below 0 raises `ValueError` in `Tile`.

A negative `level` is clamped to 0 by `Layer`.

A `percent` outside the range is ignored by `Range`.

`Tile.zoom` defaults to 10.

`Tile.zoom` defaults to 12.
"""


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Claim, Verdict]]:
    root = tmp_path_factory.mktemp("tiles") / "proj"
    files = {
        "tiles/__init__.py": '"""Tiles."""\nfrom tiles.core import Layer, Range, Tile\n',
        "tiles/core.py": CODE,
        "docs/guide.md": GUIDE,
        "README.md": "# tiles\n",
    }
    return review_written(root, files, ["docs/guide.md"])


def test_clamping_claimed_where_the_code_raises(reviewed) -> None:
    v = verdict_starting(reviewed, "A negative `zoom` is clamped")
    assert v.verdict == "contradicted", v.rationale
    assert "ValueError" in v.rationale and "zoom < 0" in v.rationale
    both = verdict_starting(reviewed, "A `percent` outside the range is ignored")
    assert both.verdict == "contradicted", both.rationale


def test_the_side_the_code_clamps_and_negations_are_left_alone(reviewed) -> None:
    for part in ("A `zoom` above 20 is clamped", "`Tile` does not clamp", "A `zoom` below 0 raises"):
        assert verdict_starting(reviewed, part).verdict not in FLAGS, part


def test_raising_claimed_where_the_code_clamps(reviewed) -> None:
    v = verdict_starting(reviewed, "A `zoom` above 20 raises")
    assert v.verdict == "contradicted", v.rationale
    assert "min(" in v.rationale


def test_a_check_in_a_helper_is_no_answer(reviewed) -> None:
    assert verdict_starting(reviewed, "A negative `level` is clamped").verdict not in FLAGS


def test_attributes_bound_by_tuple_assignment_exist(reviewed) -> None:
    wrong = verdict_starting(reviewed, "`Tile.zoom` defaults to 10")
    assert wrong.verdict == "contradicted" and "does not exist" not in wrong.rationale, wrong.rationale
    assert verdict_starting(reviewed, "`Tile.zoom` defaults to 12").verdict not in FLAGS
