from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from moneta import Money, MoneyBag, RateBook
from moneta.errors import InvalidAmountError, RateJumpError, RateNotFoundError, StaleRateError


def test_default_ttl_is_fifteen_minutes(book):
    assert book.ttl == timedelta(minutes=15)
    assert RateBook(ttl=60).ttl == timedelta(seconds=60)


def test_add_returns_the_stored_rate(book, clock):
    rate = book.add("EUR", "USD", "1.10")
    assert rate.rate == Decimal("1.10")
    assert rate.fetched_at == clock.now
    assert ("EUR", "USD") in book


def test_rate_must_be_positive(book):
    with pytest.raises(InvalidAmountError):
        book.add("EUR", "USD", 0)


def test_naive_timestamps_are_rejected(book):
    with pytest.raises(ValueError):
        book.add("EUR", "USD", "1.1", fetched_at=datetime(2026, 3, 1, 12, 0))


def test_expiry_is_inclusive(book, clock):
    rate = book.add("EUR", "USD", "1.10")
    assert not rate.is_expired(clock.now + timedelta(seconds=899))
    assert rate.is_expired(rate.expires_at)


def test_direct_inverse_and_pivot(book):
    book.add("EUR", "USD", "1.25")
    book.add("USD", "JPY", "150")
    assert book.get("EUR", "USD").rate == Decimal("1.25")
    assert book.get("USD", "EUR").rate == Decimal("0.8")
    assert book.get("EUR", "JPY").rate == Decimal("187.50")


def test_missing_rate(book):
    with pytest.raises(RateNotFoundError):
        book.get("EUR", "GBP")
    with pytest.raises(RateNotFoundError):
        RateBook(pivot=None).get("EUR", "GBP")


def test_stale_direct_rate(book, clock):
    book.add("EUR", "USD", "1.25")
    clock.advance(600)
    book.add("USD", "EUR", "0.8")
    clock.advance(600)
    with pytest.raises(StaleRateError):
        book.get("EUR", "USD")
    assert not issubclass(StaleRateError, RateNotFoundError)


def test_stale_leg_through_the_pivot(book, clock):
    book.add("EUR", "USD", "1.25")
    clock.advance(600)
    book.add("USD", "JPY", "150")
    clock.advance(600)
    with pytest.raises(StaleRateError):
        book.get("EUR", "JPY")


def test_convert_rounds_to_the_target(book):
    book.add("USD", "JPY", "151.237")
    assert book.convert(Money("10.01", "USD"), "JPY") == Money("1514", "JPY")
    book.add("EUR", "USD", "1.0825")
    assert book.convert(Money("10", "EUR"), "USD").amount == Decimal("10.82")


def test_money_convert_stale(book, clock):
    book.add("EUR", "USD", "1.1")
    clock.advance(900)
    with pytest.raises(StaleRateError):
        Money("1", "EUR").convert("USD", book)


def test_rate_jumps(book):
    book.add("EUR", "USD", "1.00")
    book.add("EUR", "USD", "1.25")
    with pytest.raises(RateJumpError):
        book.add("EUR", "USD", "1.60")
    assert book.add("EUR", "USD", "1.60", force=True).rate == Decimal("1.60")


def test_bag_total_rounding(book):
    book.add("USD", "EUR", "0.5")
    book.add("GBP", "EUR", "0.5")
    bag = MoneyBag(Money("0.01", "USD"), Money("0.01", "GBP"))
    assert bag.total("EUR", book) == Money("0.00", "EUR")


def test_bag_total_with_stale_rate(book, clock):
    book.add("USD", "EUR", "0.9")
    clock.advance(1000)
    with pytest.raises(StaleRateError):
        MoneyBag(Money(1, "USD")).total("EUR", book)


def test_bag_subtotals():
    bag = MoneyBag(Money("5", "EUR"), Money("2.50", "USD"), Money("1", "EUR"))
    assert bag.subtotal("EUR") == Money(6, "EUR")
    assert bag.subtotal("JPY") == Money.zero("JPY")
    assert bag.currencies() == ["EUR", "USD"]
    assert len(bag) == 2


def test_clock_is_used_when_at_is_omitted(clock):
    book = RateBook(clock=clock, ttl=timedelta(seconds=10))
    book.add("EUR", "USD", "1.1")
    clock.advance(10)
    with pytest.raises(StaleRateError):
        book.get("EUR", "USD")
    assert book.get("EUR", "USD", at=datetime(2026, 3, 1, 12, 0, 5, tzinfo=UTC)).rate == Decimal("1.1")
