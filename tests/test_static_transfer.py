"""Reading that carries over to unseen projects: a variable named after a class with no block
binding it (``kettle.boil(a, b)``), a return type after an adjective ("returns the brewed
:class:`Pot`"), a call to a plain-valued attribute (```Kettle.full()``` where ``full`` is a
``bool`` field) and "read-only" on an upstream page, which limits nothing. A small brewery
package (real Engine, real index)."""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer
from caas_tui.review.static.wording.assertions import text_kinds
from caas_tui.review.static.wording.facts import stated_returns
from tests.conftest import verdict_containing as by_text

from .conftest import write

FLAGS = ("contradicted", "incomplete")

FILES = {
    "brew/__init__.py": '''
        """Brewing."""
        from brew.kettle import Kettle, Pot, TeaKettle
        ''',
    "brew/kettle.py": '''
        from dataclasses import dataclass


        @dataclass
        class Pot:
            size: int = 1
            full: bool = False

            def full_again(self) -> "Pot":
                return Pot(self.size, True)


        class Kettle:
            """A kettle."""

            def __init__(self, litres: float = 1.5) -> None:
                self.litres = litres

            def boil(self, water: float) -> Pot:
                return Pot()

            def pour(self, cups: int = 1) -> int:
                return cups


        class TeaKettle(Kettle):
            pass


        class IronPan:
            def heat(self, degrees: int) -> None:
                pass


        class CopperPan:
            def heat(self, degrees: int) -> None:
                pass


        class Timer:
            def __init__(self, tick: float = 10.0) -> None:
                self.tick = tick


        class Gauge:
            def __init__(self, limit: float = 1.0) -> None:
                self.limit = max(limit, 0.5)


        class Dial:
            def __init__(self, step: int = 1) -> None:
                if step < 1:
                    raise ValueError(step)
                self.step = step


        class Stove:
            def __init__(self, kettle: Kettle, maker: type[Kettle] = Kettle) -> None:
                self.kettle = kettle
                self.maker = maker


        def brew_count(pot: Pot) -> int:
            """Count the cups."""
            return pot.size
        ''',
    "upstream/steam.md": """
        # Steam valves

        A valve is read-only while hot: opening it raises `ValveError`, a subclass of `OSError`.
        """,
    "docs/stove.rst": """
        Stoves
        ======

        .. module:: brew.kettle

        .. class:: Stove(kettle, maker=Kettle)

           :param kettle: the kettle class to heat, e.g. :class:`Kettle`.
           :param maker: the kettle class new kettles are made from.
        """,
    "docs/kettle.md": """
        # Kettles

        `kettle.boil(water, salt)` heats the water.

        `kettle.boil(water)` heats the water.

        `water.boil(salt)` heats the salt.

        `pan.heat(1, 2, 3)` heats a pan.

        `copper_pan.heat(1, 2, 3)` heats the copper pan.

        `Pot.full()` fills the pot.

        `Pot.full_again()` fills the pot again.

        `brew_count` returns the brewed :class:`~brew.kettle.Pot`.

        `Kettle.boil` returns the boiled :class:`~brew.kettle.Pot`.

        ## Timing

        The timer ticks every 5 seconds unless you pass `tick=`.

        The timer ticks every 10 seconds unless you set `tick`.

        The timer ticks every 5 seconds unless the kettle is cold.

        ## Gauges

        `Gauge` raises `ValueError` if `limit` is below 0.5.

        `Dial` raises `ValueError` if `step` is below 1.

        ## Steam valves

        Opening a hot steam valve raises `ValveError`, which is an `OSError`.
        """,
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("transfer") / "proj"
    for rel, text in FILES.items():
        write(root, rel, text)
    write(root, "caas.toml", '[index]\nupstream = ["upstream"]\n')
    eng = Engine.open(root)
    yield eng
    eng.close()


@pytest.fixture(scope="module")
def guide(engine: Engine) -> list[tuple[Claim, Verdict]]:
    return review_doc(engine, "docs/kettle.md", StaticReviewer()).pairs()


def test_variable_named_after_its_class(guide: list[tuple[Claim, Verdict]]) -> None:
    extra = by_text(guide, "`kettle.boil(water, salt)`")
    assert extra.verdict == "contradicted" and "Kettle.boil" in extra.rationale, extra.rationale
    fits = by_text(guide, "`kettle.boil(water)`")
    assert fits.verdict not in FLAGS, fits.rationale
    assert "Kettle.boil" in fits.rationale, fits.rationale
    # no class is called Water: nothing is inferred
    unknown = by_text(guide, "`water.boil(salt)`")
    assert unknown.verdict not in FLAGS, unknown.rationale


def test_two_classes_ending_in_the_word_are_ambiguous(guide: list[tuple[Claim, Verdict]]) -> None:
    # ``pan`` ends both IronPan and CopperPan: which one is meant is unknown, so nothing is judged
    shared = by_text(guide, "`pan.heat(1, 2, 3)`")
    assert shared.verdict not in FLAGS and "heat" not in shared.rationale, shared.rationale
    # ``copper_pan`` spells the whole of one of them
    whole = by_text(guide, "`copper_pan.heat(1, 2, 3)`")
    assert whole.verdict == "contradicted" and "CopperPan.heat" in whole.rationale, whole.rationale


def test_call_to_a_plain_valued_attribute(guide: list[tuple[Claim, Verdict]]) -> None:
    called = by_text(guide, "`Pot.full()` fills")
    assert called.verdict == "contradicted" and "bool" in called.rationale, called.rationale
    assert "Pot.full_again" in called.rationale, called.rationale
    method = by_text(guide, "`Pot.full_again()` fills")
    assert method.verdict not in FLAGS, method.rationale


def test_return_type_after_an_adjective(guide: list[tuple[Claim, Verdict]]) -> None:
    stated = stated_returns("It returns the chosen :class:`~pkg.Item`.")
    assert [s.name for s in stated] == ["pkg.Item"]
    assert stated_returns("It returns the value of :class:`Item`.") == []  # two words: a description
    wrong = by_text(guide, "`brew_count` returns the brewed")
    assert wrong.verdict == "contradicted" and "int" in wrong.rationale, wrong.rationale
    right = by_text(guide, "`Kettle.boil` returns the boiled")
    assert right.verdict not in FLAGS, right.rationale


def test_hyphenated_read_only_is_no_limit(guide: list[tuple[Claim, Verdict]]) -> None:
    valve = by_text(guide, "Opening a hot steam valve raises")
    assert valve.verdict not in FLAGS, valve.rationale


def test_value_that_holds_unless_the_caller_sets_it(guide: list[tuple[Claim, Verdict]]) -> None:
    wrong = by_text(guide, "ticks every 5 seconds unless you pass")
    assert wrong.verdict == "contradicted" and "tick" in wrong.rationale and "10" in wrong.rationale, wrong.rationale
    right = by_text(guide, "ticks every 10 seconds unless you set")
    assert right.verdict not in FLAGS, right.rationale
    condition = by_text(guide, "unless the kettle is cold")  # a condition, not the caller's setting
    assert condition.verdict not in FLAGS, condition.rationale


def test_rejected_with_an_error_is_a_raise_claim() -> None:
    assert "raises" in text_kinds("A file that repeats a key is rejected with `ParseError`.")
    assert "raises" in text_kinds("Reading it fails with :exc:`KeyError`.")
    assert "raises" not in text_kinds("The file is loaded with `ParseOptions`.")


def test_class_raising_on_a_constructor_parameter(guide: list[tuple[Claim, Verdict]]) -> None:
    clamped = by_text(guide, "`Gauge` raises `ValueError`")
    assert clamped.verdict == "contradicted" and "Gauge.__init__" in clamped.rationale, clamped.rationale
    raised = by_text(guide, "`Dial` raises `ValueError`")
    assert raised.verdict not in FLAGS, raised.rationale


def test_field_under_a_hand_written_description_is_read_like_a_docstring_field(engine: Engine) -> None:
    found = review_doc(engine, "docs/stove.rst", StaticReviewer()).pairs()
    instance = by_text(found, ":param kettle:")
    assert instance.verdict == "contradicted" and "type[...]" in instance.rationale, instance.rationale
    cls = by_text(found, ":param maker:")
    assert cls.verdict not in FLAGS, cls.rationale


def test_a_stdlib_module_name_is_not_an_instance_and_weeks_are_time(tmp_path_factory: pytest.TempPathFactory) -> None:
    root = tmp_path_factory.mktemp("modnames") / "proj"
    write(root, "web/__init__.py", '"""Web."""\n')
    write(root, "web/render.py", '''
        class Json:
            """The JSON renderer."""

            def render(self, value: object) -> str:
                return str(value)


        class Cookie:
            def __init__(self, max_age: int = 14 * 24 * 60 * 60) -> None:
                """A cookie.

                Args:
                    max_age: Lifetime in seconds. Defaults to 2 weeks.
                """
                self.max_age = max_age


        class Token:
            def __init__(self, max_age: int = 7 * 24 * 60 * 60) -> None:
                """A token.

                Args:
                    max_age: Lifetime in seconds. Defaults to 2 weeks.
                """
                self.max_age = max_age
        ''')
    write(root, "docs/render.md", '''
        # Rendering

        The `Json` renderer calls `json.dumps(value, indent=2)`, the standard library function.
        ''')
    eng = Engine.open(root)
    try:
        guide = review_doc(eng, "docs/render.md", StaticReviewer()).pairs()
        module = review_doc(eng, "web/render.py", StaticReviewer()).pairs()
    finally:
        eng.close()
    stdlib = by_text(guide, "The `Json` renderer calls")
    assert stdlib.verdict not in FLAGS and "Json.dumps" not in stdlib.rationale, stdlib.rationale
    weeks = [v for c, v in module if "Defaults to 2 weeks" in c.text]
    assert len(weeks) == 2, [v.rationale for v in weeks]
    held, wrong = weeks  # Cookie (two weeks in seconds), then Token (one week)
    assert held.verdict not in FLAGS, held.rationale
    assert wrong.verdict == "contradicted" and "max_age" in wrong.rationale, wrong.rationale


def test_monotonic_clock_written_with_its_module_is_not_wall_time(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The platform rule "`time.monotonic()` is no wall-clock time" fires for ``import time`` code:
    naming the module ``time`` is not a call of ``time.time()``."""
    root = tmp_path_factory.mktemp("clocks") / "proj"
    write(root, "lease/__init__.py", '"""Leases."""\n')
    write(root, "lease/stamp.py", '''
        import time


        def stamp_mono() -> float:
            """The lease's stamp."""
            return time.monotonic()


        def stamp_wall() -> float:
            """The lease's stamp."""
            return time.time()
        ''')
    write(root, "docs/leases.md", '''
        # Leases

        `stamp_mono()` returns the current Unix timestamp.

        `stamp_wall()` returns the current Unix timestamp.
        ''')
    eng = Engine.open(root)
    try:
        guide = review_doc(eng, "docs/leases.md", StaticReviewer()).pairs()
    finally:
        eng.close()
    mono = by_text(guide, "`stamp_mono()` returns")
    wall = by_text(guide, "`stamp_wall()` returns")
    assert mono.verdict == "contradicted" and "reference point" in mono.rationale, mono.rationale
    assert wall.verdict not in FLAGS, wall.rationale
