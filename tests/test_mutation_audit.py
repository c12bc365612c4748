"""The coverage holes the mutation audit (``bench/mutations.py``) found, one cell each: the
mutated claim (made false against the code) must not be ``consistent``, and the original claim
must keep its label. Plus the audit's own generator: it makes the claim false the way each
kind says, and it refuses held-out projects.

The project (a tiny shipping API) is written for these cells, not taken from any manifest.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer

from .conftest import REPO, verdict_containing, write

PACKAGE = {
    "ship/__init__.py": '"""Shipping."""\n',
    "ship/errors.py": '''
        class ShipError(Exception):
            """Base."""


        class NoRoute(ShipError):
            """No route between two ports."""


        class Overweight(ShipError):
            """Too heavy."""
        ''',
    "ship/routes.py": '''
        """Routes."""
        from ship.errors import NoRoute, Overweight

        MAX_LEGS = 12


        def plan(origin: str, dest: str, legs: int = 3, *, fast: bool = False) -> list[str]:
            """Plan a route.

            Args:
                origin: Port the route starts at.
                dest: Port the route ends at.
                legs: Number of legs, from 1 to ``MAX_LEGS``.
                fast: Prefer speed over cost.
            """
            if not 1 <= legs <= MAX_LEGS:
                raise ValueError("legs")
            if origin == dest:
                raise NoRoute(origin)
            return [origin, dest]


        def plan_bad(origin: str, dest: str, legs: int = 3, *, fast: bool = False) -> list[str]:
            """Plan a route.

            Args:
                origin: Port the route starts at.
                origin: Port the route ends at.
                legs: Number of legs, from 2 to ``MAX_LEGS``.
                fast: Prefer speed over cost.
            """
            if not 1 <= legs <= MAX_LEGS:
                raise ValueError("legs")
            if origin == dest:
                raise NoRoute(origin)
            return [origin, dest]


        def window(items: list, *args: int) -> list:
            """The items between ``start`` and ``stop``, as ``slice`` takes them."""
            return items[slice(*args)]


        def load(weight: float) -> float:
            """Load cargo."""
            if weight > 1000:
                raise Overweight(weight)
            return weight


        class Ship:
            def __init__(self, name: str, *crew: str, speed: float = 12.5, berth: int = 4) -> None:
                self.name = name

            def dock(self) -> None:
                """Tie up at the berth."""


        class Port:
            def open(self) -> None:
                """Open the port."""
        ''',
}

DOCS = {
    "docs/reference.md": '''
        # Reference

        | call | returns | raises |
        |---|---|---|
        | `plan(origin, dest, legs=3)` | `list` | `NoRoute` |
        | `load(weight)` | `float` | `Overweight` |
        | `load(weight)` | `float` | `NoRoute` |
        | `Ship(name, *crew, speed=12.5, berth=4)` | `Ship` | |
        | `Ship(name, *crew, speed=25.0, berth=4)` | `Ship` | |

        ## Legs

        | function | parameters | returns |
        |---|---|---|
        | `plan(origin, dest)` | `legs`: `int`, 1 to 12 | `list` |
        | `plan(origin, dest, fast=False)` | `legs`: `int`, 1 to 24 | `list` |
        ''',
    "docs/reference.rst": '''
        Reference
        =========

        .. class:: ship.routes.Ship(name, *crew, speed=12.5, berth=4)

           A ship.

        .. class:: ship.routes.Ship(name, *crew, speed=12.5, berth=8)

           Another ship.

        .. class:: ship.routes.Ship(name, speed=12.5, *crew, berth=4)

           A third one.

        .. function:: ship.routes.load(weight)

           Load it.

        .. function:: ship.routes.load(cargo)

           Load it again.

        .. function:: ship.routes.window(items, stop)

           A window, as ``slice(stop)``.

        .. function:: ship.routes.window(things, stop)

           A window of things.
        ''',
}


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[Claim, Verdict]]]:
    root = tmp_path_factory.mktemp("mutation-holes") / "proj"
    for rel, text in {**PACKAGE, **DOCS}.items():
        write(root, rel, text)
    eng = Engine.open(root)
    try:
        return {doc: review_doc(eng, doc, StaticReviewer()).pairs()
                for doc in ("ship/routes.py", "docs/reference.md", "docs/reference.rst")}
    finally:
        eng.close()


def _in(pairs: list[tuple[Claim, Verdict]], section: str, part: str) -> Verdict:
    hits = [v for c, v in pairs if part in c.text and (c.section or "").endswith(section)]
    assert len(hits) == 1, (section, part, [(c.section, c.text) for c, _ in pairs])
    return hits[0]


def _flagged(v: Verdict) -> bool:
    return v.verdict in ("contradicted", "incomplete")


# -- hole 1: a parameter entry naming another entry's parameter (param-swap in fields) --------
def test_repeated_entry_is_flagged_and_the_original_stays(reviewed: dict[str, list[tuple[Claim, Verdict]]]) -> None:
    pairs = reviewed["ship/routes.py"]
    bad = _in(pairs, "plan_bad", "origin: Port the route ends at.")
    assert bad.verdict == "contradicted", bad.rationale
    assert "`dest`" in bad.rationale and bad.fix is not None
    first = _in(pairs, "plan_bad", "origin: Port the route starts at.")
    assert not _flagged(first), first.rationale  # the entry in its signature place is right
    assert _in(pairs, "routes.plan", "dest: Port the route ends at.").verdict == "consistent"


# -- hole 2: a stated range that no check read ------------------------------------------------
def test_stated_range_is_checked(reviewed: dict[str, list[tuple[Claim, Verdict]]]) -> None:
    pairs = reviewed["ship/routes.py"]
    good = _in(pairs, "routes.plan", "legs: Number of legs")
    assert good.verdict == "consistent" and "value:checked" in good.coverage, (good.verdict, good.rationale)
    bad = _in(pairs, "plan_bad", "legs: Number of legs")
    assert bad.verdict == "contradicted", bad.rationale


def test_table_parameter_ranges_are_checked(reviewed: dict[str, list[tuple[Claim, Verdict]]]) -> None:
    pairs = reviewed["docs/reference.md"]
    good = verdict_containing(pairs, "1 to 12")
    assert good.verdict == "consistent" and "value:checked" in good.coverage, (good.verdict, good.rationale)
    assert verdict_containing(pairs, "1 to 24").verdict == "contradicted"


# -- hole 3: a table's raises column ----------------------------------------------------------
def test_table_raises_column_is_checked(reviewed: dict[str, list[tuple[Claim, Verdict]]]) -> None:
    pairs = reviewed["docs/reference.md"]
    assert verdict_containing(pairs, "`plan(origin, dest, legs=3)`").verdict == "consistent"
    rows = [v for c, v in pairs if c.text.startswith("`load(weight)`")]
    assert [v.verdict for v in rows][0] == "consistent", [v.rationale for v in rows]
    assert rows[1].verdict != "consistent", rows[1].rationale  # `load` never raises `NoRoute`


# -- hole 4: a signature shown as an entry's title (reST directive, a table's first cell) -----
def test_signature_titles_check_defaults(reviewed: dict[str, list[tuple[Claim, Verdict]]]) -> None:
    md = [v for c, v in reviewed["docs/reference.md"] if c.text.startswith("`Ship(")]
    assert md[0].verdict == "consistent", md[0].rationale
    assert md[1].verdict == "contradicted", md[1].rationale
    rst = [v for c, v in reviewed["docs/reference.rst"] if c.text.startswith("``ship.routes.Ship(")]
    assert rst[0].verdict == "consistent", rst[0].rationale  # ``*crew`` makes what follows keyword-only
    assert rst[1].verdict == "contradicted", rst[1].rationale
    assert rst[2].verdict == "contradicted", rst[2].rationale  # `speed` shown before `*crew`


def test_signature_titles_check_positional_names(reviewed: dict[str, list[tuple[Claim, Verdict]]]) -> None:
    """A bare name in a signature is a parameter (``callable-swap`` kept the old names)."""
    rst = reviewed["docs/reference.rst"]
    assert verdict_containing(rst, "load(weight)").verdict == "consistent"
    bad = verdict_containing(rst, "load(cargo)")
    assert bad.verdict == "contradicted" and "`cargo`" in bad.rationale, bad.rationale


def test_signature_title_names_past_star_args_are_not_parameters(reviewed: dict[str, list[tuple[Claim, Verdict]]]) -> None:
    """``*args`` takes what comes after the named slots: a doc naming it ``stop`` there (as ``islice``'s two
    signatures do) is not wrong, while a name in a named slot still has to be that slot's."""
    rst = reviewed["docs/reference.rst"]
    good = verdict_containing(rst, "window(items, stop)")
    assert good.verdict not in ("contradicted", "incomplete"), good.rationale
    bad = verdict_containing(rst, "window(things, stop)")
    assert bad.verdict == "contradicted" and "`things`" in bad.rationale, bad.rationale


# -- hole 5: a stated value or result in reST spelling (double backticks) ---------------------
@pytest.mark.parametrize("text", ["The ``berth`` of a new ship is ``4``.", "``load(10.0)`` is ``10.0``."])
def test_rest_spelled_values_are_asserted(text: str) -> None:
    from caas_tui.review.static.wording.assertions import text_kinds

    md = text.replace("``", "`")
    assert text_kinds(text) & {"value", "returns"} == text_kinds(md) & {"value", "returns"} != set()


# -- the generator --------------------------------------------------------------------------------
def _bench() -> object:
    spec = importlib.util.spec_from_file_location("bench_mutations", REPO / "bench" / "mutations.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["bench_mutations"] = mod
    spec.loader.exec_module(mod)
    return mod


def _claim(text: str, kind: str = "prose", section: str | None = None) -> Claim:
    return Claim("x", "docs/a.md", 1, 1, text, kind, section=section)


def test_generator_makes_each_kind(tmp_path: Path) -> None:
    bench = _bench()
    root = tmp_path / "proj"
    for rel, text in PACKAGE.items():
        write(root, rel, text)
    facts = bench.read_facts(root)  # type: ignore[attr-defined]
    cases = {
        "exception": "`load` raises `Overweight` above a tonne.",
        "none-raise": "`load` returns None for an empty hold.",
        "number-x2": "Plans take 3 legs.",
        "unit": "Loading takes 250 ms.",
        "negate": "`load` never sinks.",
        "method-move": "`Ship.dock` ties it up.",
    }
    for kind, text in cases.items():
        muts = [m for m in bench.mutations(_claim(text), text, facts) if m.kind == kind]  # type: ignore[attr-defined]
        assert muts, (kind, text)
        assert muts[0].apply(text) != text, (kind, text)
    field = "Args: origin: Port the route starts at."
    swap = [m for m in bench.mutations(_claim(field, "field", "ship.routes.plan"), field, facts)  # type: ignore[attr-defined]
            if m.kind == "param-swap"]
    assert swap and swap[0].apply(field) == "Args: dest: Port the route starts at."
    exc = [m for m in bench.mutations(_claim(cases["exception"]), cases["exception"], facts)  # type: ignore[attr-defined]
           if m.kind == "exception"][0]
    assert exc.new not in ("ShipError",), exc  # never a base of the stated class: that would stay true


def test_numbers_in_example_calls_and_standards_are_left_alone(tmp_path: Path) -> None:
    bench = _bench()
    facts = bench.Facts()  # type: ignore[attr-defined]
    for text in ("Use `Ship(speed=12.5)` for a ferry.", "Codes follow ISO 4217."):
        assert not [m for m in bench.mutations(_claim(text), text, facts) if m.kind.startswith("number")], text  # type: ignore[attr-defined]


def test_held_out_projects_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    assert bench.main(["--root", str(REPO / "demo_projects" / "httpkit"), "--out", "/dev/null"]) == 2  # type: ignore[attr-defined]
    assert "refused" in capsys.readouterr().err
