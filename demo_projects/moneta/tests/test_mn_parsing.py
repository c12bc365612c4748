from decimal import Decimal

import pytest
from moneta import Money, parse_amount, parse_money
from moneta.errors import CurrencyMismatchError, ParseError
from moneta.formatting import group_digits


def test_amounts_per_locale():
    assert parse_amount("1,234.50") == Decimal("1234.50")
    assert parse_amount("1.234,50", "de_DE") == Decimal("1234.50")
    assert parse_amount("1\u202f234,5", "fr_FR") == Decimal("1234.5")
    assert parse_amount(group_digits("1234567", ",", (3, 2)), "en_IN") == Decimal(1234567)
    assert parse_amount("-3") == Decimal(-3)


@pytest.mark.parametrize("text", ["", "1.2.3", "abc", "1e5", "12.", "NaN"])
def test_rejected_amounts(text):
    with pytest.raises(ParseError):
        parse_amount(text)


def test_symbols_and_codes():
    assert parse_money("$1,234.50") == Money("1234.50", "USD")
    assert parse_money("12,50 €", locale="de_DE") == Money("12.50", "EUR")
    assert parse_money("USD 7") == Money(7, "USD")
    assert parse_money("7 JPY") == Money(7, "JPY")
    assert parse_money("CA$5") == Money(5, "CAD")


def test_symbol_with_default_locale():
    assert parse_money("€12,50") == Money(1250, "EUR")


def test_negative_forms():
    assert parse_money("(12.50) USD") == Money("-12.50", "USD")
    assert parse_money("-$5") == Money(-5, "USD")
    assert parse_money("($5.00)") == Money(-5, "USD")


def test_currency_argument():
    assert parse_money("12.00", "EUR") == Money(12, "EUR")
    with pytest.raises(ParseError):
        parse_money("12.00")
    with pytest.raises(CurrencyMismatchError):
        parse_money("$12", "EUR")


def test_strict_mode():
    assert parse_money("$1.005").amount == Decimal("1.005")
    with pytest.raises(ParseError):
        parse_money("$1.005", strict=True)
    assert parse_money("1.234 KWD", strict=True).amount == Decimal("1.234")


def test_returns_money():
    assert isinstance(parse_money("$1"), Money)
