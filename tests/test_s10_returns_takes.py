"""Return and parameter claims a signature decides (issue 14): "returns the grid" of a
method that hands back nothing, "returns the number of ..." of a ``-> bool``, "returns
whether ..." of a ``-> int``, "takes the tile" of a method with no parameter and "takes no
arguments" of one with a required parameter. Each defect has a correct twin that stays
unflagged, and the readings that only look alike (a stub, an override, a conditional, an
idiom such as "takes a moment") are left alone.
"""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict

from .conftest import review_written, verdict_starting

FLAGS = ("contradicted", "incomplete")

CODE = '''
"""Boards of cells."""

import abc


class Cell:
    """A cell."""


class Board:
    """A board."""

    def __init__(self, size: int = 8) -> None:
        self._cells: dict[int, str] = {}

    def put(self, key: int, value: str) -> None:
        self._cells[key] = value

    def place(self, key: int, value: str) -> "Board":
        self._cells[key] = value
        return self

    def clear(self):
        self._cells.clear()

    def occupied(self) -> int:
        return len(self._cells)

    def has_cells(self) -> bool:
        return bool(self._cells)

    def width(self) -> int:
        return 8

    def cells(self) -> list[Cell]:
        return []

    def by_name(self) -> dict[str, Cell]:
        return {}

    def loose(self) -> list:
        return []

    def cell(self, key: int) -> str:
        return self._cells[key]

    def hook(self, key: int) -> None:
        """Subclasses decide."""

    def render(self) -> None:
        print(self._cells)

    async def flush(self) -> None:
        self._cells.clear()


class Fancy(Board):
    def render(self) -> None:
        print("fancy")


class Base(abc.ABC):
    @abc.abstractmethod
    def build(self) -> None:
        ...


def reset_all() -> None:
    """Reset every board.

    Returns:
        The boards that were reset.
    """
    print("reset")
'''

GUIDE = """\
# Boards

`Board.put(key, value)` returns the board, so calls can be chained.

`Board.place(key, value)` returns the board, so calls can be chained.

`Board.clear()` returns the emptied board.

`Board.has_cells()` returns the number of occupied cells.

`Board.occupied()` returns the number of occupied cells.

`Board.width()` returns whether the board is wide.

`Board.has_cells()` returns whether any cell is set.

`Board.hook(key)` returns the new value.

`Board.render()` returns the text it printed.

`Base.build()` returns the built board.

Calling `Board.flush()` returns a coroutine object.

`Board.put(key, value)` never returns a value.

Check what `Board.put` returns: if it returns the board, chain calls.

`Board.cells()` returns a list of `Board` objects.

`Board.cells()` returns a list of `Cell` objects.

`Board.by_name()` returns a dict mapping names to `Board` objects.

`Board.loose()` returns a list of `Cell` objects.

`Board.occupied` takes the cell to count.

`Board.width` takes no arguments.

`Board.cell` takes no arguments.

`Board.cell` takes the key of the cell.

`Board.occupied` takes a moment on large boards.
"""


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Claim, Verdict]]:
    root = tmp_path_factory.mktemp("boards") / "proj"
    files = {
        "boards/__init__.py": '"""Boards."""\n',
        "boards/core.py": CODE,
        "docs/guide.md": GUIDE,
        "README.md": "# boards\n",
    }
    return review_written(root, files, ["docs/guide.md", "boards/core.py"])


def test_a_value_returned_by_a_method_that_returns_nothing_is_contradicted(reviewed) -> None:
    v = verdict_starting(reviewed, "`Board.put(key, value)` returns the board")
    assert v.verdict == "contradicted", v.rationale
    assert "returns nothing" in v.rationale and "-> None" in v.rationale
    unannotated = verdict_starting(reviewed, "`Board.clear()` returns")
    assert unannotated.verdict == "contradicted", unannotated.rationale
    assert "no `return`" in unannotated.rationale


def test_a_method_that_returns_self_is_not_flagged(reviewed) -> None:
    assert verdict_starting(reviewed, "`Board.place(key, value)` returns the board").verdict not in FLAGS


def test_hooks_overrides_abstract_methods_negations_and_conditions_are_left_alone(reviewed) -> None:
    for part in ("`Board.hook(key)` returns", "`Board.render()` returns", "`Base.build()` returns",
                 "Calling `Board.flush()` returns", "`Board.put(key, value)` never returns",
                 "Check what `Board.put` returns"):
        assert verdict_starting(reviewed, part).verdict not in FLAGS, part


def test_a_count_is_not_a_truth_value(reviewed) -> None:
    v = verdict_starting(reviewed, "`Board.has_cells()` returns the number")
    assert v.verdict == "contradicted", v.rationale
    assert "bool" in v.rationale
    assert verdict_starting(reviewed, "`Board.occupied()` returns the number").verdict not in FLAGS


def test_whether_is_a_truth_value(reviewed) -> None:
    v = verdict_starting(reviewed, "`Board.width()` returns whether")
    assert v.verdict == "contradicted", v.rationale
    ok = verdict_starting(reviewed, "`Board.has_cells()` returns whether")
    assert ok.verdict == "consistent", ok.rationale


def test_a_returns_field_of_a_function_that_returns_nothing(reviewed) -> None:
    v = verdict_starting(reviewed, "Returns:")
    assert v.verdict == "contradicted", v.rationale
    assert "reset_all" in v.rationale


def test_what_a_callable_takes_against_its_signature(reviewed) -> None:
    v = verdict_starting(reviewed, "`Board.occupied` takes the cell")
    assert v.verdict == "contradicted", v.rationale
    assert "no parameter" in v.rationale
    assert verdict_starting(reviewed, "`Board.width` takes no arguments").verdict == "consistent"
    required = verdict_starting(reviewed, "`Board.cell` takes no arguments")
    assert required.verdict == "contradicted" and "`key`" in required.rationale


def test_which_argument_is_meant_is_not_claimed_checked(reviewed) -> None:
    v = verdict_starting(reviewed, "`Board.cell` takes the key")
    assert v.verdict == "unverified", v.rationale
    assert "parameter names were not" in v.rationale
    idiom = verdict_starting(reviewed, "`Board.occupied` takes a moment")
    assert idiom.verdict == "unverified", idiom.rationale  # what it does, not what it is passed
    assert "what `Board.occupied` does" in idiom.rationale


def test_the_element_a_container_names(reviewed) -> None:
    wrong = verdict_starting(reviewed, "`Board.cells()` returns a list of `Board`")
    assert wrong.verdict == "contradicted" and "Cell" in wrong.rationale, wrong.rationale
    assert verdict_starting(reviewed, "`Board.cells()` returns a list of `Cell`").verdict == "consistent"
    mapping = verdict_starting(reviewed, "`Board.by_name()` returns a dict")
    assert mapping.verdict == "contradicted", mapping.rationale
    loose = verdict_starting(reviewed, "`Board.loose()` returns a list of `Cell`")
    assert loose.verdict == "unverified" and "element type" in loose.rationale, loose.rationale
