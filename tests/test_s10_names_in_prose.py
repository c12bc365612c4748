"""Names a guide writes without saying whose they are (issue 14): ``pass `wrap=True` to
`Board.put``` names a keyword of that callable; ``b.occupied(3)`` with ``b`` bound nowhere
is the project's one method of that name; a function listed in ``__all__`` is a symbol, not
a settings key. Each defect is flagged, each correct twin is not, and a call on a string,
list, file or path method stays unresolved.
"""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict

from .conftest import review_written, verdict_starting

FLAGS = ("contradicted", "incomplete")

CODE = '''
"""Boards."""

__all__ = ["Board", "load_boards"]


class Board:
    def __init__(self, size: int = 8, *, wrap: bool = False) -> None:
        self.size = size

    def put(self, key: int, value: str) -> None:
        print(key, value)

    def occupied(self) -> int:
        return 0

    def write(self, text: str, extra: str) -> None:
        print(text, extra)


def load_boards(path: str, limit: int = 100) -> list[Board]:
    """Load boards."""
    if not path:
        raise ValueError("empty path")
    return []
'''

GUIDE = """\
# Boards

Pass `wrap=True` to `Board.put` to wrap the board.

Pass `wrap=True` to `Board` to wrap the board.

Pass `limits=10` to `load_boards` to read fewer boards.

Call `b.occupied(3)` to count.

Call `b.occupied()` to count.

Call `f.write(data)` to save it.

`load_boards` raises `KeyError` when the path is empty.

`load_boards` raises `ValueError` when the path is empty.

The loader to use is `load_boards`.
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
    return review_written(root, files, ["docs/guide.md"])


def test_a_keyword_passed_to_a_callable_must_be_its_parameter(reviewed) -> None:
    v = verdict_starting(reviewed, "Pass `wrap=True` to `Board.put`")
    assert v.verdict == "contradicted" and "no parameter `wrap`" in v.rationale, v.rationale
    assert verdict_starting(reviewed, "Pass `wrap=True` to `Board` ").verdict not in FLAGS
    near = verdict_starting(reviewed, "Pass `limits=10`")
    assert near.verdict == "contradicted" and "did you mean `limit`" in near.rationale, near.rationale


def test_an_unbound_instance_call_is_the_projects_one_method_of_that_name(reviewed) -> None:
    v = verdict_starting(reviewed, "Call `b.occupied(3)`")
    assert v.verdict == "contradicted", v.rationale
    assert "Board.occupied" in v.rationale
    assert verdict_starting(reviewed, "Call `b.occupied()`").verdict not in FLAGS


def test_a_common_method_name_says_nothing_about_the_project(reviewed) -> None:
    v = verdict_starting(reviewed, "Call `f.write(data)`")
    assert v.verdict not in FLAGS, v.rationale
    assert "Board" not in v.rationale


def test_a_name_listed_in_all_is_a_symbol_not_a_key(reviewed) -> None:
    v = verdict_starting(reviewed, "`load_boards` raises `KeyError`")
    assert v.verdict == "contradicted", v.rationale
    assert verdict_starting(reviewed, "`load_boards` raises `ValueError`").verdict == "consistent"
    named = verdict_starting(reviewed, "The loader to use is")
    assert "`load_boards` exists" in named.rationale, named.rationale
