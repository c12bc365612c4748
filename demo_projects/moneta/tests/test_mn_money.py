from decimal import Decimal, DivisionByZero
from fractions import Fraction

import pytest
from moneta import Money, get_currency
from moneta.errors import CurrencyMismatchError, InvalidAmountError, UnknownCurrencyError


def test_amount_is_kept_exactly():
    assert Money("1.005", "USD").amount == Decimal("1.005")
    assert str(Money("1.005", "USD").amount) == "1.005"


def test_float_amount():
    with pytest.raises(TypeError):
        Money(19.99, "USD")


def test_bad_strings_and_non_finite_values():
    with pytest.raises(InvalidAmountError):
        Money("12,50", "EUR")
    with pytest.raises(InvalidAmountError):
        Money("NaN", "USD")
    with pytest.raises(InvalidAmountError):
        Money("Infinity", "USD")


def test_decimal_string_syntax():
    assert Money(" 12.50 ", "USD").amount == Decimal("12.50")
    assert Money("1_000", "USD").amount == Decimal(1000)


def test_fraction_amount():
    third = Money(Fraction(1, 3), "USD")
    assert third.amount == Decimal("0.3333333333333333333333333333")
    assert third * 3 != Money(1, "USD")


def test_unknown_currency():
    with pytest.raises(UnknownCurrencyError):
        Money(1, "XXX")


def test_from_float():
    assert Money.from_float(2.675, "USD").amount == Decimal("2.67")
    assert Money.from_float(0.1, "USD").amount == Decimal("0.10")
    assert Money.from_float(2.5, "JPY").amount == Decimal("2")


def test_from_minor_and_to_minor():
    assert Money.from_minor(1234, "KWD") == Money("1.234", "KWD")
    assert Money.from_minor(500, "JPY").amount == Decimal(500)
    assert Money("0.125", "USD").to_minor() == 12
    assert Money("0.135", "USD").to_minor() == 14
    assert Money("1.005", "USD").to_minor("half_up") == 101


def test_zero_has_minor_units():
    assert str(Money.zero("EUR")) == "0.00 EUR"
    assert str(Money.zero("JPY")) == "0 JPY"


def test_round_defaults_to_half_even():
    assert Money("2.345", "USD").round() == Money("2.34", "USD")
    assert Money("2.345", "USD").round("half_up") == Money("2.35", "USD")
    assert Money("2.3456", "USD").round(places=3).amount == Decimal("2.346")


def test_arithmetic_same_currency():
    total = Money("10.10", "USD") + Money("2.205", "USD")
    assert total.amount == Decimal("12.305")
    assert (Money("10", "USD") - Money("2.5", "USD")).amount == Decimal("7.5")
    assert (Money("2.50", "USD") * 3).amount == Decimal("7.50")
    assert (3 * Money("2.50", "USD")).amount == Decimal("7.50")


def test_sum_starts_from_zero():
    assert sum([Money(1, "EUR"), Money(2, "EUR")]) == Money(3, "EUR")


def test_mixing_currencies_raises():
    with pytest.raises(CurrencyMismatchError):
        Money(1, "EUR") + Money(1, "USD")
    with pytest.raises(CurrencyMismatchError):
        assert Money(1, "EUR") < Money(1, "USD")


def test_equality_across_currencies():
    assert Money(1, "EUR") != Money(1, "USD")


def test_equal_values_with_different_exponents():
    assert Money("1.0", "USD") == Money("1.00", "USD")
    assert len({Money("1.0", "USD"), Money("1.00", "USD")}) == 1


def test_multiplying_by_float_is_a_type_error():
    with pytest.raises(TypeError):
        Money(1, "USD") * 1.5


def test_division_by_zero():
    with pytest.raises(DivisionByZero):
        Money(1, "USD") / 0
    assert issubclass(DivisionByZero, ZeroDivisionError)


def test_repr_and_str():
    assert repr(Money("5", "JPY")) == "Money('5', 'JPY')"
    assert str(Money("5", "JPY")) == "5 JPY"


def test_currency_object_is_accepted():
    eur = get_currency("eur")
    assert Money(1, eur).currency is eur
