import pytest
from moneta import Money, format_money
from moneta.errors import UnknownLocaleError
from moneta.formatting import group_digits
from moneta.locales import NARROW_NBSP, NBSP


def test_us_default():
    assert format_money(Money("1234.5", "USD")) == "$1,234.50"
    assert Money("1234.5", "USD").format() == "$1,234.50"


def test_display_rounding_is_half_even():
    assert format_money(Money("2.345", "USD")) == "$2.34"
    assert format_money(Money("2.355", "USD")) == "$2.36"


def test_negative_and_accounting():
    assert format_money(Money("-5", "USD")) == "-$5.00"
    assert format_money(Money("-5", "USD"), accounting=True) == "($5.00)"
    assert format_money(Money("-0.001", "USD")) == "$0.00"


def test_code_instead_of_symbol():
    assert format_money(Money("12", "USD"), symbol=False) == "USD" + NBSP + "12.00"
    assert format_money(Money("12", "ISK")) == "ISK" + NBSP + "12"


def test_european_locales():
    assert format_money(Money("1234.5", "EUR"), "de_DE") == "1.234,50" + NBSP + "€"
    assert format_money(Money("1234.5", "EUR"), "fr-FR") == "1" + NARROW_NBSP + "234,50" + NBSP + "€"
    assert format_money(Money("1234.5", "CHF"), "de_CH") == "CHF" + NBSP + "1\u2019234.50"


def test_indian_grouping():
    assert format_money(Money("1234567.5", "INR"), "en_IN") == "₹12,34,567.50"
    assert group_digits("123", ",", (3, 2)) == "123"


def test_places_and_kwd():
    assert format_money(Money("1.2345", "KWD")) == "KD1.234"
    assert format_money(Money("1", "JPY"), "ja_JP") == "¥1"
    assert format_money(Money("1.2345", "USD"), places=3) == "$1.234"


def test_unknown_locale():
    with pytest.raises(UnknownLocaleError):
        format_money(Money(1, "USD"), "de_AT")


def test_default_locale(monkeypatch):
    import locale

    monkeypatch.setattr(locale, "getlocale", lambda *a: ("de_DE", "UTF-8"))
    assert format_money(Money("1", "EUR")) == "€1.00"
