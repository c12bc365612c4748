"""Names of removed or moved objects, wherever a guide writes them: autodoc directive targets,
names under a module whose ``__getattr__`` answers a fixed list, dotted names in prose and
``from pkg.mod import name`` lines. A small shop package (real Engine, real index)."""

from __future__ import annotations

import ast

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer
from caas_tui.review.static.model.modgetattr import closed_names
from caas_tui.review.static.model.project import ModuleSource, scope_bindings
from tests.conftest import verdict_containing as by_text

from .conftest import write

PACKAGE = {
    "shop/__init__.py": '''
        """A shop."""
        from shop.cart import Cart

        __all__ = ["Cart", "pricing"]


        def __getattr__(name):
            if name == "__version__":
                return "1.0"
            raise AttributeError(name)
        ''',
    "shop/cart.py": '''
        class Cart:
            """A cart."""

            def add(self, item: str, qty: int = 1) -> None:
                """Add ``qty`` of ``item``."""


        class Pricing:
            def __init__(self, currency: str = "EUR") -> None:
                self.currency = currency

            def quote(self, cart: Cart, qty: int = 1) -> float:
                return 0.0
        ''',
    "shop/pricing.py": '''
        def total(cart, *, tax: float = 0.0) -> float:
            """The total."""
            return 0.0


        def discount(cart) -> float:
            return 0.0
        ''',
    "shop/helpers/__init__.py": '''
        """Helpers."""
        from shop.helpers.rounding import round_price, rounding
        ''',
    "shop/helpers/rounding.py": '''
        def round_price(value: float) -> float:
            return round(value, 2)


        def rounding(value: float) -> float:
            return round(value)
        ''',
    "shop/helpers/sort_items.py": '''
        """Sorting helpers (the function of this name was removed)."""
        ''',
    "shop/widgets.py": '''
        class Base:
            def __init__(self, *, label: str = "", width: int = 0) -> None:
                self.label = label


        class Button(Base):
            def __init__(self, text: str, **kwargs) -> None:
                super().__init__(**kwargs)


        class Loose:
            def __init__(self, **options) -> None:
                self.options = options


        def make(kind: str, **kw) -> Button:
            strict = kw.pop("strict", False)
            return Button(kind, **kw)
        ''',
    "shop/memo.py": '''
        def memoize(fn):
            def wrapper(*args):
                return fn(*args)
            wrapper.cache_clear = lambda: None
            return wrapper
        ''',
    "shop/lazy.py": '''
        import importlib

        def __getattr__(name):
            return importlib.import_module("shop." + name)
        ''',
}

DOCS = {
    "docs/api.rst": """
        API
        ===

        .. module:: shop

        .. autoclass:: Cart
           :members:

           .. automethod:: add

           .. automethod:: remove

        .. autoclass:: Basket

        .. autofunction:: shop.pricing.discount

        .. autofunction:: shop.total

        .. autofunction:: shop.lazy.anything

        .. module:: shop.helpers

        .. autofunction:: round_price

        .. autofunction:: sort_items

        See :func:`shop.helpers.sort_items`; :func:`shop.helpers.rounding` rounds (it is the module's name too).
        """,
    "docs/reference.rst": """
        Reference
        =========

        .. currentmodule:: shop.cart

        .. class:: Cart

           .. method:: add(item, qty=1)

              Adds ``qty`` of ``item``.

        .. class:: Pricing

           .. method:: quote(cart, qty=1)

           Quotes a price.

           :param int qty: How many.
           :param str colour: A colour.

        .. class:: Basket(items)

           .. attribute:: size

              The number of items in this :class:`Basket`.

        See :meth:`Cart.remove` and :meth:`Cart.add`.

        .. currentmodule:: shop.memo

        A memoized function gets a :func:`cache_clear()` function; see :func:`memoise`.

        Each cart runs on an :class:`asyncio.Runner` and is written with :func:`json.dumps`.

        :meth:`Cart.add` takes a deprecated :class:`Basket` object too.

        It returns a :class:`~.Cart` (or a deprecated :class:`~.Basket`).
        """,
    "docs/widgets.md": """
        # Widgets

        ```python
        from shop.widgets import Button, Loose, make

        ok = Button("ok", label="OK")
        ```

        ```python
        from shop.widgets import Button

        red = Button("ok", colour="red")
        ```

        ```python
        from shop.widgets import Loose

        loose = Loose(colour="red")
        ```

        ```python
        from shop.widgets import make

        strict = make("button", strict=True, width=3)
        ```

        ```python
        from shop.widgets import make

        odd = make("button", colour="red")
        ```
        """,
    "docs/guide.rst": """
        Guide
        =====

        Call ``shop.total(cart)`` for the price.

        Read ``shop.__version__`` for the version.

        ``shop.lazy.whatever`` is loaded on first use.

        .. code-block:: python

            from shop.cart import Cart
            from shop.lazy import thing

        .. code-block:: python

            from shop.cart import Cart
            from shop.pricing import total
        """,
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("names") / "proj"
    for rel, text in {**PACKAGE, **DOCS}.items():
        write(root, rel, text)
    eng = Engine.open(root)
    yield eng
    eng.close()


@pytest.fixture(scope="module")
def api(engine: Engine) -> list[tuple[Claim, Verdict]]:
    return review_doc(engine, "docs/api.rst", StaticReviewer()).pairs()


@pytest.fixture(scope="module")
def reference(engine: Engine) -> list[tuple[Claim, Verdict]]:
    return review_doc(engine, "docs/reference.rst", StaticReviewer()).pairs()


@pytest.fixture(scope="module")
def widgets(engine: Engine) -> list[tuple[Claim, Verdict]]:
    return review_doc(engine, "docs/widgets.md", StaticReviewer()).pairs()


@pytest.fixture(scope="module")
def guide(engine: Engine) -> list[tuple[Claim, Verdict]]:
    return review_doc(engine, "docs/guide.rst", StaticReviewer()).pairs()


def test_autodoc_targets_are_claims_that_the_object_exists(api: list[tuple[Claim, Verdict]]) -> None:
    assert by_text(api, "`Cart`").verdict == "consistent"
    assert by_text(api, "`Cart.add`").verdict == "consistent"
    assert by_text(api, "`shop.pricing.discount`").verdict == "consistent"
    basket = by_text(api, "`Basket`")
    assert basket.verdict == "contradicted" and "shop.Basket" in basket.rationale


def test_autodoc_member_is_looked_up_on_the_enclosing_class(api: list[tuple[Claim, Verdict]]) -> None:
    v = by_text(api, "`Cart.remove`")
    assert v.verdict == "contradicted" and "remove" in v.rationale


def test_moved_name_offers_the_qualified_name_first(api: list[tuple[Claim, Verdict]]) -> None:
    v = by_text(api, "`shop.total`")
    assert v.verdict == "contradicted"
    assert "shop.pricing.total" in v.rationale


def test_module_getattr_with_a_fixed_list_does_not_hide_a_missing_name(guide: list[tuple[Claim, Verdict]]) -> None:
    v = by_text(guide, "shop.total(cart)")
    assert v.verdict == "contradicted" and "shop.pricing.total" in v.rationale
    assert by_text(guide, "shop.__version__").verdict not in ("contradicted", "incomplete")


def test_module_getattr_that_answers_anything_stays_open(
        api: list[tuple[Claim, Verdict]], guide: list[tuple[Claim, Verdict]]) -> None:
    assert by_text(api, "`shop.lazy.anything`").verdict not in ("contradicted", "incomplete", "consistent")
    assert by_text(guide, "shop.lazy.whatever").verdict not in ("contradicted", "incomplete", "consistent")


def _module(code: str) -> ModuleSource:
    tree = ast.parse(code)
    return ModuleSource("m", "m.py", code.splitlines(), tree, scope_bindings(tree.body, "m"))


@pytest.mark.parametrize(("code", "names"), [
    ('__all__ = ["a", "b"]\ndef __getattr__(name):\n    if name in __all__:\n        return 1\n'
     '    raise AttributeError(name)\n', {"a", "b"}),
    ('def __getattr__(name):\n    known = {"__version__": "x"}\n    if name not in known:\n'
     '        raise AttributeError(name)\n    return known[name]\n', {"__version__"}),
    ('def __getattr__(name):\n    if name == "x" or name == "y":\n        return 1\n    raise AttributeError(name)\n',
     {"x", "y"}),
    # a list that grows elsewhere, a hook that answers anything, a hook next to ``globals()`` writes
    ('__all__ = ["a"]\n__all__ += ["b"]\ndef __getattr__(name):\n    if name in __all__:\n        return 1\n'
     '    raise AttributeError(name)\n', None),
    ('def __getattr__(name):\n    return name\n', None),
    ('globals()["z"] = 1\ndef __getattr__(name):\n    if name == "x":\n        return 1\n'
     '    raise AttributeError(name)\n', None),
    ('def __getattr__(name):\n    try:\n        return LAZY[name]\n    except KeyError:\n'
     '        raise AttributeError(name) from None\n', None),
])
def test_closed_names_reads_only_hooks_it_can_follow(code: str, names: set[str] | None) -> None:
    got = closed_names(_module(code))
    assert (None if got is None else set(got)) == names


def test_an_import_nothing_resolves_keeps_a_block_from_consistent(guide: list[tuple[Claim, Verdict]]) -> None:
    v = by_text(guide, "from shop.lazy import thing")
    assert v.verdict == "unverified" and "shop.lazy.thing" in v.rationale
    assert by_text(guide, "from shop.pricing import total").verdict != "unverified"


def test_hand_written_descriptions_are_read_in_the_current_module(reference: list[tuple[Claim, Verdict]]) -> None:
    assert by_text(reference, "``Cart.add(item, qty=1)``").verdict == "consistent"
    basket = by_text(reference, "``Basket(items)``")
    assert basket.verdict == "contradicted" and "`shop.cart` has no `Basket`" in basket.rationale
    assert by_text(reference, "``Basket.size``").verdict == "contradicted"


def test_roles_to_a_described_name_the_module_lacks_are_flagged(reference: list[tuple[Claim, Verdict]]) -> None:
    assert by_text(reference, "The number of items in this").verdict == "contradicted"
    v = by_text(reference, "See :meth:`Cart.remove`")
    assert v.verdict == "contradicted" and "remove" in v.rationale
    # a role falls back to the name as written: another library's dotted name is not the module's
    assert by_text(reference, "Each cart runs on").verdict not in ("contradicted", "incomplete")


def test_a_deprecated_name_that_is_gone_is_flagged(reference: list[tuple[Claim, Verdict]]) -> None:
    v = by_text(reference, "a deprecated :class:`Basket` object")
    assert v.verdict == "contradicted" and "already gone" in v.rationale


def test_an_object_role_that_reaches_only_a_module_is_broken(api: list[tuple[Claim, Verdict]]) -> None:
    assert by_text(api, ":func:`round_price`").verdict == "consistent"
    v = by_text(api, ":func:`sort_items`")
    assert v.verdict == "contradicted" and "module `shop.helpers.sort_items`" in v.rationale
    v = by_text(api, "See :func:`shop.helpers.sort_items`")
    assert v.verdict == "contradicted" and "rounding" not in v.rationale


def test_a_field_after_a_bodiless_description_is_that_descriptions(reference: list[tuple[Claim, Verdict]]) -> None:
    assert by_text(reference, ":param int qty:").verdict not in ("contradicted", "incomplete")
    assert by_text(reference, ":param str colour:").verdict == "contradicted"


def test_a_leading_dot_role_is_looked_up_anywhere(reference: list[tuple[Claim, Verdict]]) -> None:
    v = by_text(reference, "It returns a :class:`~.Cart`")
    assert v.verdict == "contradicted" and "Basket" in v.rationale and "Cart`" not in v.rationale


def test_keywords_are_followed_through_kwargs(widgets: list[tuple[Claim, Verdict]]) -> None:
    assert by_text(widgets, 'Button("ok", label="OK")').verdict not in ("contradicted", "incomplete")
    red = by_text(widgets, 'Button("ok", colour="red")')
    assert red.verdict == "contradicted" and "shop.widgets.Base.__init__" in red.rationale
    assert by_text(widgets, 'make("button", strict=True, width=3)').verdict not in ("contradicted", "incomplete")
    odd = by_text(widgets, 'make("button", colour="red")')
    assert odd.verdict == "contradicted" and "colour" in odd.rationale


def test_kwargs_kept_whole_stay_undecided(widgets: list[tuple[Claim, Verdict]]) -> None:
    assert by_text(widgets, 'Loose(colour="red")').verdict == "unverified"


def test_a_role_to_a_name_bound_as_an_attribute_is_not_judged(reference: list[tuple[Claim, Verdict]]) -> None:
    v = by_text(reference, "A memoized function gets")
    assert v.verdict == "contradicted" and "memoise" in v.rationale and "cache_clear" not in v.rationale
