"""Unit tests for the session 8 pieces of issue 14: numbers a default can be (Decimal, Fraction,
timedelta), counts and fractions in words, sentence-final bare numbers, constants named in
capitals, and omission cues as default cues."""

from __future__ import annotations

import ast
from datetime import timedelta
from decimal import Decimal
from fractions import Fraction

import pytest

from caas_tui.review.static.defaults.numbers import is_quantity, plain_number, quantity_matches, restate_value
from caas_tui.review.static.defaults.symdefaults import names_symbol
from caas_tui.review.static.defaults.worddefaults import default_clauses
from caas_tui.review.static.wording.facts import StatedValue, stated_defaults
from caas_tui.review.static.wording.units import bare_numbers, quantities


def _q(text: str):  # noqa: ANN202 - the one quantity of ``text``
    qs = quantities(text)
    assert len(qs) == 1, (text, qs)
    return qs[0]


@pytest.mark.parametrize(("value", "number"), [
    (3, 3.0), (0.5, 0.5), (Decimal("0.25"), 0.25), (Fraction(1, 4), 0.25), (True, None), ("3", None),
    (Decimal("NaN"), None), (None, None),
])
def test_plain_number(value: object, number: float | None) -> None:
    assert plain_number(value) == number


def test_timedelta_is_a_quantity_with_its_own_unit() -> None:
    assert is_quantity(timedelta(minutes=5))
    assert quantity_matches(_q("five minutes"), "hold", timedelta(minutes=5)) is True
    assert quantity_matches(_q("300 s"), "hold_ms", timedelta(minutes=5)) is True  # its unit, not the name's
    assert quantity_matches(_q("ten minutes"), "hold", timedelta(minutes=5)) is False
    assert quantity_matches(_q("90 degrees"), "hold", timedelta(minutes=5)) is None
    assert restate_value(_q("ten minutes"), "hold", timedelta(minutes=5)) == "5 minutes"


def test_decimal_against_percent_and_fraction_words() -> None:
    assert quantity_matches(_q("25 %"), "max_jump", Decimal("0.25")) is True
    assert quantity_matches(_q("10 %"), "max_jump", Decimal("0.25")) is False
    assert quantity_matches(_q("a quarter"), "max_jump", Decimal("0.25")) is True
    assert quantity_matches(_q("a tenth"), "max_jump", Decimal("0.25")) is False


@pytest.mark.parametrize(("text", "number"), [
    ("retries twice by default", 2.0), ("By default it tries thrice.", 3.0),
    ("defaults to a quarter", 0.25), ("three quarters by default", 0.75), ("defaults to one third.", 1 / 3),
])
def test_counts_and_fractions_in_words(text: str, number: float) -> None:
    assert _q(text).number == pytest.approx(number)


@pytest.mark.parametrize("text", [
    "waits twice as long", "twice the delay", "a quarter of an hour later",  # a factor; a time (below)
    "`twice`", "at most twice",
])
def test_not_a_count_or_fraction(text: str) -> None:
    qs = quantities(text)
    assert all(q.family == "time" for q in qs), qs


def test_a_quarter_of_an_hour_stays_a_time() -> None:
    assert _q("a quarter of an hour").family == "time"


@pytest.mark.parametrize(("text", "numbers"), [
    ("The ``batch`` defaults to 64.", [64.0]),
    ("It defaults to 1.5.", [1.5]),
    ("Needs version 3.x of the API", []),
    ("See section 2.1.3 for the rest", []),
])
def test_sentence_final_bare_number(text: str, numbers: list[float]) -> None:
    assert [n for n, _ in bare_numbers(text)] == numbers


def test_constant_named_in_capitals_is_a_symbol() -> None:
    sv = next(v for v in stated_defaults("float, default TTL_SECONDS") if v.text == "TTL_SECONDS")
    assert sv.symbol and not sv.literal
    assert not [v for v in stated_defaults("the default is to raise")]
    name = ast.parse("LEASE", mode="eval").body
    assert names_symbol(StatedValue("`TTL_SECONDS`", "TTL_SECONDS", False, 0), name) is False  # ticks kept
    assert names_symbol(StatedValue("TTL_SECONDS", "TTL_SECONDS", False, 0), name)
    assert not names_symbol(StatedValue("ttl", "ttl", False, 0), name)


@pytest.mark.parametrize(("text", "value"), [
    ("defaults to the value of `RATE_TTL`", "RATE_TTL"),
    (':param errors: if omitted, ``"strict"`` is used.', "strict"),
    ('When not given, ``"utf-8"`` is assumed.', "utf-8"),
])
def test_default_phrasings(text: str, value: object) -> None:
    assert value in [v.value for v in stated_defaults(text)]


@pytest.mark.parametrize(("text", "state"), [
    ("If omitted, `max_items` means no limit.", "unbounded"),
    ("When not given, there is no timeout.", "unbounded"),
    ("If omitted, `max_items` means no limit, but only for reads.", None),
])
def test_omission_is_a_default_cue(text: str, state: str | None) -> None:
    found = default_clauses(text)
    assert (found[0].state if found else None) == state
