from decimal import Decimal

import pytest
from moneta import Currency, all_currencies, get_currency, register_currency
from moneta.errors import UnknownCurrencyError


def test_lookup_ignores_case_and_spaces():
    assert get_currency("usd") is get_currency(" USD ")


def test_minor_units_follow_iso_4217():
    units = {c.code: c.minor_units for c in all_currencies()}
    assert units["JPY"] == 0
    assert units["ISK"] == 0
    assert units["KWD"] == 3
    assert units["BHD"] == 3
    assert units["CLF"] == 4
    assert units["EUR"] == 2


def test_smallest_unit():
    assert get_currency("KWD").smallest_unit == Decimal("0.001")
    assert get_currency("JPY").smallest_unit == Decimal(1)


def test_unknown_code():
    with pytest.raises(KeyError):
        get_currency("ZZZ")
    assert not issubclass(UnknownCurrencyError, ValueError)


def test_register_refuses_duplicates_unless_replacing():
    with pytest.raises(ValueError):
        register_currency(Currency("USD", 840, 2, "US Dollar", "$"))
    original = get_currency("SEK")
    try:
        register_currency(Currency("SEK", 752, 2, "Swedish Krona", "SEK"), replace=True)
        assert get_currency("SEK").symbol == "SEK"
    finally:
        register_currency(original, replace=True)


def test_codes_are_validated():
    with pytest.raises(ValueError):
        Currency("usd", 840, 2, "US Dollar")
