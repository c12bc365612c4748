"""Issue 14, the static reviewer's open items: each a defect and its correct twin.

- A ``Raises`` entry's continuation sentence ("Also raised when the rate has expired.") claims
  the same exception under the new condition (Google, NumPy and Sphinx fields).
- A default written in a table as a constructor call of a stdlib value type
  (``Decimal("0.01")``, ``timedelta(seconds=30)``, ``Fraction(1, 3)``, ``Path("out")``) is
  compared by value.
- Percent scale: a parameter documented in percent against a ``0 <= x <= 1`` range check, and a
  "fraction between 0 and 1" against ``0 <= x <= 100`` (whatever the parameter is called).
The project (a fare calculator) is written for these cells, not taken from any manifest.
"""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer

from .conftest import verdict_containing, write

PACKAGE = {
    "fares/__init__.py": '"""Fares."""\n',
    "fares/errors.py": '''
        class ExpiredFare(Exception):
            """Not a KeyError."""


        class ExpiredKey(KeyError):
            """A KeyError."""
        ''',
    "fares/book.py": '''
        """Fare books."""
        from fares.errors import ExpiredFare, ExpiredKey


        class GoogleBook:
            def get(self, key: str) -> float:
                """A fare.

                Raises:
                    KeyError: If the fare is missing.
                        Also raised when the fare has expired.
                """
                if key not in self._fares:
                    raise KeyError(key)
                if self._expired(key):
                    raise ExpiredFare(key)
                return self._fares[key]

            def peek(self, key: str) -> float:
                """A fare.

                Raises:
                    KeyError: If the fare is missing.
                        Also raised when the fare has expired.
                """
                if key not in self._fares:
                    raise KeyError(key)
                if self._expired(key):
                    raise ExpiredKey(key)
                return self._fares[key]


        class NumpyBook:
            def get(self, key: str) -> float:
                """A fare.

                Raises
                ------
                KeyError
                    If the fare is missing.
                    Also raised when the fare has expired.
                """
                if key not in self._fares:
                    raise KeyError(key)
                if self._expired(key):
                    raise ExpiredFare(key)
                return self._fares[key]

            def peek(self, key: str) -> float:
                """A fare.

                Raises
                ------
                KeyError
                    If the fare is missing.
                    Also raised when the fare has expired.
                """
                if key not in self._fares:
                    raise KeyError(key)
                if self._expired(key):
                    raise ExpiredKey(key)
                return self._fares[key]


        class SphinxBook:
            def get(self, key: str) -> float:
                """A fare.

                :raises KeyError: if the fare is missing.
                    Also raised when the fare has expired.
                """
                if key not in self._fares:
                    raise KeyError(key)
                if self._expired(key):
                    raise ExpiredFare(key)
                return self._fares[key]

            def peek(self, key: str) -> float:
                """A fare.

                :raises KeyError: if the fare is missing.
                    Also raised when the fare has expired.
                """
                if key not in self._fares:
                    raise KeyError(key)
                if self._expired(key):
                    raise ExpiredKey(key)
                return self._fares[key]
        ''',
    "fares/pricing.py": '''
        """Pricing."""
        from datetime import timedelta
        from decimal import Decimal
        from fractions import Fraction
        from pathlib import Path


        class Pricer:
            def __init__(self, fee: Decimal = Decimal("0.01"), hold: timedelta = timedelta(seconds=30),
                         share: Fraction = Fraction(1, 3), out: Path = Path("out")) -> None:
                self.fee = fee


        def throttle(load: float) -> None:
            """Throttle traffic.

            Args:
                load: Share of traffic, in percent.
            """
            if not 0 <= load <= 1:
                raise ValueError("load must be between 0 and 1")


        def damp(load: float) -> None:
            """Damp traffic.

            Args:
                load: Share of traffic, a fraction between 0 and 1.
            """
            if not 0 <= load <= 1:
                raise ValueError("load must be between 0 and 1")


        def boost(level: float) -> None:
            """Boost traffic.

            Args:
                level: How much to boost, a fraction between 0 and 1.
            """
            if level < 0 or level > 100:
                raise ValueError("level must be between 0 and 100")


        def lift(level: float) -> None:
            """Lift traffic.

            Args:
                level: How much to lift, a percentage from 0 to 100.
            """
            if level < 0 or level > 100:
                raise ValueError("level must be between 0 and 100")
        ''',
}

DOCS = {
    "docs/pricing.md": '''
        # Pricing

        ## `Pricer`

        | name | default |
        |---|---|
        | `fee` | `Decimal("0.05")` |
        | `hold` | `timedelta(seconds=60)` |
        | `share` | `Fraction(1, 2)` |
        | `out` | `Path("build")` |

        ## `fares.pricing.Pricer`

        | parameter | default |
        |---|---|
        | `fee` | `Decimal("0.01")` |
        | `hold` | `timedelta(seconds=30)` |
        | `share` | `Fraction(1, 3)` |
        | `out` | `Path("out")` |
        ''',
}

DEFECT, TWIN = "defect", "twin"
CELLS = [
    # (cell, doc, the claim's distinguishing text, defect or twin)
    ("raises continuation, Google", "fares/book.py", ("GoogleBook.get", "Also raised"), DEFECT),
    ("raises continuation, Google", "fares/book.py", ("GoogleBook.peek", "Also raised"), TWIN),
    ("raises continuation, NumPy", "fares/book.py", ("NumpyBook.get", "Also raised"), DEFECT),
    ("raises continuation, NumPy", "fares/book.py", ("NumpyBook.peek", "Also raised"), TWIN),
    ("raises continuation, Sphinx", "fares/book.py", ("SphinxBook.get", "Also raised"), DEFECT),
    ("raises continuation, Sphinx", "fares/book.py", ("SphinxBook.peek", "Also raised"), TWIN),
    ("table default Decimal", "docs/pricing.md", ("", 'Decimal("0.05")'), DEFECT),
    ("table default Decimal", "docs/pricing.md", ("", 'Decimal("0.01")'), TWIN),
    ("table default timedelta", "docs/pricing.md", ("", "timedelta(seconds=60)"), DEFECT),
    ("table default timedelta", "docs/pricing.md", ("", "timedelta(seconds=30)"), TWIN),
    ("table default Fraction", "docs/pricing.md", ("", "Fraction(1, 2)"), DEFECT),
    ("table default Fraction", "docs/pricing.md", ("", "Fraction(1, 3)"), TWIN),
    ("table default Path", "docs/pricing.md", ("", 'Path("build")'), DEFECT),
    ("table default Path", "docs/pricing.md", ("", 'Path("out")'), TWIN),
    ("percent doc, fraction check", "fares/pricing.py", ("pricing.throttle", "in percent"), DEFECT),
    ("percent doc, fraction check", "fares/pricing.py", ("pricing.damp", "a fraction between"), TWIN),
    ("fraction doc, percent check", "fares/pricing.py", ("pricing.boost", "a fraction between"), DEFECT),
    ("fraction doc, percent check", "fares/pricing.py", ("pricing.lift", "a percentage from"), TWIN),
]


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[Claim, Verdict]]]:
    root = tmp_path_factory.mktemp("open-items") / "proj"
    for rel, text in {**PACKAGE, **DOCS}.items():
        write(root, rel, text)
    eng = Engine.open(root)
    try:
        return {doc: review_doc(eng, doc, StaticReviewer()).pairs() for doc in sorted({c[1] for c in CELLS})}
    finally:
        eng.close()


def _verdict(pairs: list[tuple[Claim, Verdict]], section: str, part: str) -> Verdict:
    if not section:
        return verdict_containing(pairs, part)
    hits = [v for c, v in pairs if part in c.text and (c.section or "").endswith(section)]
    assert len(hits) == 1, (section, part, [(c.section, c.text) for c, _ in pairs])
    return hits[0]


@pytest.mark.parametrize(("cell", "doc", "where", "expect"), CELLS, ids=[f"{c[0]}-{c[3]}" for c in CELLS])
def test_open_item_cell(reviewed: dict[str, list[tuple[Claim, Verdict]]], cell: str, doc: str,
                        where: tuple[str, str], expect: str) -> None:
    v = _verdict(reviewed[doc], *where)
    flagged = v.verdict in ("contradicted", "incomplete")
    if expect == DEFECT:
        assert flagged, (cell, v.verdict, v.rationale)
    else:
        assert not flagged, (cell, v.verdict, v.rationale)


def test_table_default_twins_are_checked(reviewed: dict[str, list[tuple[Claim, Verdict]]]) -> None:
    """A value-type default that matches is a checked default, not an unchecked one."""
    for part in ('Decimal("0.01")', "timedelta(seconds=30)", "Fraction(1, 3)", 'Path("out")'):
        v = verdict_containing(reviewed["docs/pricing.md"], part)
        assert v.verdict == "consistent", (part, v.verdict, v.rationale)
        assert "default:checked" in v.coverage, (part, v.coverage)


def test_fraction_twin_range_is_checked(reviewed: dict[str, list[tuple[Claim, Verdict]]]) -> None:
    v = _verdict(reviewed["fares/pricing.py"], "pricing.damp", "a fraction between")
    assert v.verdict == "consistent", (v.verdict, v.rationale)
    assert "value:checked" in v.coverage, v.coverage
