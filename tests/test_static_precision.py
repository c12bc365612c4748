"""Precision of the static reviewer on things that look like drift but are not: names in
test-kind modules, history notes, file names and data strings, raise claims about a class's
members, and variable bindings from another section (real Engine on a tiny project)."""

from __future__ import annotations

import ast

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims.nonpython import classified_as_non_python, looks_like_file, written_as_data
from caas_tui.review.claims.tense import past_reason, speaks_of_past
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer
from caas_tui.review.static.model.scope import DocScopes, bound_names

from .conftest import write as _write

FILES = {
    "shop/__init__.py": '''
        """A tiny shop."""
        from shop.cart import Cart
        ''',
    "shop/cart.py": '''
        class NotReady(Exception):
            """The stream is not open yet."""


        class Cart:
            def __init__(self) -> None:
                self.items: list[str] = []

            def add(self, item: str) -> None:
                self.items.append(item)

            def checkout(self) -> int:
                return len(self.items)


        class Stream:
            def __init__(self, name: str) -> None:
                self.name = name
                self.ready = False

            def read(self) -> bytes:
                if not self.ready:
                    raise NotReady(self.name)
                return b""
        ''',
    "shop/test_helpers.py": '''
        from shop.cart import Cart


        class FakeCart(Cart):
            """A cart for tests."""
        ''',
    "tests/test_cart.py": '''
        from shop.cart import Cart


        def test_add():
            Cart().add("a")
        ''',
    "docs/helpers.md": """
        The helpers are importable from `shop.test_helpers`.

        `shop.test_helpers.FakeCart` stands in for a cart.

        `shop.test_helpers.MissingHelper` builds carts.

        ```python
        from shop.test_helpers import FakeCart
        ```
        """,
    "docs/extensions.rst": """
        History
        =======

        ``shop.ext.legacy`` was extracted to `shop-legacy <https://example.org/legacy>`_.

        ``shop.ext.csrf`` was integrated into the shop core.

        .. versionchanged:: 2.0
           Carts take ``shop.cart.Cart.basket`` now.

        ``shop.ext.payments`` handles payments.
        """,
    "docs/files.md": """
        # Files

        ```python
        from shop import Cart
        cart = Cart()
        url_for('cart.summary')
        ```

        If the file is named `cart.py`, it is found on its own.

        This links to `cart.summary` from every page.

        Register the plugin in the entry point group `shop.plugins`.

        Then call `cart.summary_now()` to print it.
        """,
    "docs/stream.rst": """
        Streams
        =======

        Some methods on :class:`shop.cart.Stream` raise :exc:`shop.cart.NotReady` if called before it is ready.

        Creating a :class:`shop.cart.Stream` raises :exc:`shop.cart.NotReady`.
        """,
    "docs/sections.md": """
        # Guide

        ## One

        ```python
        from shop import cart as shelf
        box = shelf.Cart()
        box.add("a")
        ```

        ## Two

        ```python
        from shop import cart as shelf
        box = shelf.Cart()
        box.nope()
        ```

        ## Three

        ```python
        box.loads("x")
        ```

        ## Four

        ```python
        shelf.Basket()
        ```
        """,
    "docs/tutorial.md": """
        # Tutorial

        ## Step 1

        ```python
        from shop import Cart
        basket = Cart()
        ```

        ## Step 2

        ```python
        basket.nope()
        ```
        """,
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("precision") / "proj"
    for rel, text in FILES.items():
        _write(root, rel, text)
    eng = Engine.open(root)
    yield eng
    eng.close()


def _reviewed(engine: Engine, doc: str) -> list[tuple[Claim, Verdict]]:
    return review_doc(engine, doc, StaticReviewer()).pairs()


def _one(pairs: list[tuple[Claim, Verdict]], needle: str) -> Verdict:
    hits = [v for c, v in pairs if needle in c.text]
    assert len(hits) == 1, [c.text for c, _ in pairs]
    return hits[0]


def test_names_in_a_test_kind_module_of_a_package_exist(engine: Engine) -> None:
    pairs = _reviewed(engine, "docs/helpers.md")
    assert _one(pairs, "importable from").verdict != "contradicted"
    fake = _one(pairs, "stands in")
    assert fake.verdict != "contradicted" and "`shop.test_helpers.FakeCart` exists" in fake.checks
    assert _one(pairs, "from shop.test_helpers import FakeCart").verdict != "contradicted"
    # resolution now sees the module, so a name it lacks is still drift
    missing = _one(pairs, "MissingHelper")
    assert missing.verdict == "contradicted" and "`shop.test_helpers.MissingHelper` does not exist" in missing.rationale


def test_history_notes_are_unverified_with_a_reason(engine: Engine) -> None:
    pairs = _reviewed(engine, "docs/extensions.rst")
    for needle in ("was extracted to", "was integrated into", "Carts take"):
        v = _one(pairs, needle)
        assert v.verdict == "unverified" and "past" in v.rationale, (needle, v.rationale)
    present = _one(pairs, "handles payments")
    assert present.verdict == "contradicted" and "`shop.ext` does not exist" in present.rationale


def test_file_names_and_data_strings_are_not_symbols(engine: Engine) -> None:
    pairs = _reviewed(engine, "docs/files.md")
    for needle in ("`cart.py`", "This links to", "entry point group"):
        v = _one(pairs, needle)
        assert v.verdict != "contradicted", (needle, v.rationale)
    called = _one(pairs, "summary_now")
    assert called.verdict == "contradicted" and "`cart.summary_now` does not exist" in called.rationale


def test_raise_claim_about_members_is_not_judged_on_the_constructor(engine: Engine) -> None:
    pairs = _reviewed(engine, "docs/stream.rst")
    members = _one(pairs, "Some methods on")
    assert members.verdict != "contradicted" and "__init__" not in members.rationale, members.rationale
    creating = _one(pairs, "Creating a")
    assert creating.verdict == "contradicted" and "`Stream.__init__` never raises" in creating.rationale


def test_a_name_rebound_in_several_sections_is_section_local(engine: Engine) -> None:
    pairs = _reviewed(engine, "docs/sections.md")
    assert _one(pairs, "box.nope()").verdict == "contradicted"  # its own section's binding holds
    assert _one(pairs, 'box.loads("x")').verdict == "unverified"  # bound in two other sections: unknown here
    # an import names the same module in every section, so it carries over
    moved = _one(pairs, "shelf.Basket()")
    assert moved.verdict == "contradicted" and "`shop.cart` has no `Basket`" in moved.rationale


def test_a_tutorial_binding_made_once_carries_over(engine: Engine) -> None:
    v = _one(_reviewed(engine, "docs/tutorial.md"), "basket.nope()")
    assert v.verdict == "contradicted" and "`Cart.nope` does not exist" in v.rationale


def test_past_tense_cues_are_grammatical() -> None:
    assert speaks_of_past("``a.b`` was extracted to another package")
    assert speaks_of_past("``a.b`` has been merged into ``a.c``")
    assert speaks_of_past("`x` moved to `y` in 2.0")
    assert speaks_of_past("`x` is no longer needed")
    assert not speaks_of_past("The entry is moved to the front of the list.")
    assert not speaks_of_past("`Cache.delete` removes the key from the cache.")
    assert not speaks_of_past("Returns the merged mapping.")
    assert past_reason("Takes ``a.b``.", "versionchanged 2.0: Takes") is not None
    assert past_reason("Takes ``a.b``.", "versionadded 2.0: Takes") is None


def test_non_python_words() -> None:
    assert looks_like_file("app.py") and looks_like_file("markdown.pl") and looks_like_file("setup.cfg")
    assert not looks_like_file("pkg.mod") and not looks_like_file("py")
    text = "add it to the entry point group ``x.y`` now"
    assert classified_as_non_python(text, text.index("``x.y``"))
    assert not classified_as_non_python("use the class ``x.y``", 14)
    doc = "url_for('admin.index')\n[babel.extractors]\n"
    assert written_as_data("admin.index", doc) and written_as_data("babel.extractors", doc, quoted=False)
    assert not written_as_data("admin.index", doc, quoted=False)


def test_bound_names_are_the_block_top_level() -> None:
    tree = ast.parse("import a.b\nfrom c import d as e\nx = 1\nfor i in y: pass\ndef f(p):\n    q = 2\n[z for z in y]\n")
    assert bound_names(tree) == {"a", "e", "x", "i", "f"}
    scopes: DocScopes[str] = DocScopes()
    scopes.record("doc", "A", {"v": "one"}, {"v"})
    assert scopes.visible("doc", "B") == {"v": "one"}
    scopes.record("doc", "B", {"v": "two"}, {"v"})
    assert scopes.visible("doc", "B") == {"v": "two"} and scopes.visible("doc", "C") == {"v": None}
    defs: DocScopes[str] = DocScopes(lambda v: v if v.startswith("mod:") else None)
    for section, obj in (("A", "obj1"), ("B", "obj2")):
        defs.record("doc", section, {"m": "mod:x", "o": obj}, {"m", "o"})
    assert defs.visible("doc", "C") == {"m": "mod:x", "o": None}
    defs.record("doc", "C", {"m": "mod:y"}, {"m"})
    assert defs.visible("doc", "D") == {"m": None, "o": None}  # two sections disagree: ambiguous
