"""A parameter's type stated in prose as code (issue 14): "`item` must be a `Tag`", "the
`item` argument of `Store.add` is a `Tag`", "`Store.add(item)` accepts a `Tag`" against
``item: Item``. Correct twins are green; a callable with several parameters gives "accepts a
`Tag`" no answer, and such sentences are no longer green on names alone.
"""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict

from .conftest import review_written, verdict_starting

FLAGS = ("contradicted", "incomplete")

CODE = '''
"""Store."""


class Item:
    """An item."""


class Tag:
    """A tag."""


class Store:
    def add(self, item: Item) -> None:
        print(item)

    def link(self, item: Item, tag: Tag) -> None:
        print(item, tag)
'''

GUIDE = """\
# Store

`Store.add(item)` accepts a `Tag`.

`Store.add(item)` accepts an `Item`.

The `item` argument of `Store.add` is a `Tag`.

The `item` argument of `Store.add` is an `Item`.

`Store.link(item, tag)`: `tag` must be a `Item`.

`Store.link(item, tag)` accepts a `Tag`.
"""


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Claim, Verdict]]:
    files = {
        "store/__init__.py": '"""Store."""\nfrom store.core import Item, Store, Tag\n',
        "store/core.py": CODE,
        "docs/guide.md": GUIDE,
        "README.md": "# store\n",
    }
    return review_written(tmp_path_factory.mktemp("store") / "proj", files, ["docs/guide.md"])


def test_accepts_a_type_of_a_one_parameter_callable(reviewed) -> None:
    wrong = verdict_starting(reviewed, "`Store.add(item)` accepts a `Tag`")
    assert wrong.verdict == "contradicted" and "annotated `Item`" in wrong.rationale, wrong.rationale
    assert verdict_starting(reviewed, "`Store.add(item)` accepts an `Item`").verdict == "consistent"


def test_a_named_parameter_is_a_type(reviewed) -> None:
    wrong = verdict_starting(reviewed, "The `item` argument of `Store.add` is a `Tag`")
    assert wrong.verdict == "contradicted", wrong.rationale
    assert verdict_starting(reviewed, "The `item` argument of `Store.add` is an `Item`").verdict == "consistent"
    must = verdict_starting(reviewed, "`Store.link(item, tag)`: `tag` must be")
    assert must.verdict == "contradicted" and "annotated `Tag`" in must.rationale, must.rationale


def test_several_parameters_give_accepts_no_answer(reviewed) -> None:
    v = verdict_starting(reviewed, "`Store.link(item, tag)` accepts a `Tag`")
    assert v.verdict == "unverified", v.rationale
