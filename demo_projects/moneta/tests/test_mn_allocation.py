from decimal import Decimal
from fractions import Fraction

import pytest
from moneta import Money, allocate, split
from moneta.defaults import MAX_SPLIT_PARTS
from moneta.errors import AllocationError


def amounts(parts):
    return [p.amount for p in parts]


def test_split_remainder():
    assert amounts(split(Money("10.00", "USD"), 3)) == [Decimal("3.34"), Decimal("3.33"), Decimal("3.33")]
    assert amounts(split(Money("100.00", "USD"), 6))[:4] == [Decimal("16.67")] * 4


def test_split_tiny_amount():
    assert amounts(split(Money("0.02", "USD"), 3)) == [Decimal("0.01"), Decimal("0.01"), Decimal("0.00")]


def test_parts_add_up_to_the_rounded_amount():
    parts = allocate(Money("99.995", "EUR"), [3, 2, 2])
    assert sum(parts) == Money("100.00", "EUR")


def test_largest_remainder_wins():
    assert amounts(allocate(Money("1.00", "USD"), [1, 2])) == [Decimal("0.33"), Decimal("0.67")]


def test_ratios_may_be_decimal_or_fraction():
    assert amounts(allocate(Money("10", "JPY"), [Decimal("0.5"), Fraction(1, 2)])) == [Decimal(5), Decimal(5)]


def test_negative_amounts():
    assert amounts(split(Money("-10.00", "USD"), 3)) == [Decimal("-3.34"), Decimal("-3.33"), Decimal("-3.33")]


@pytest.mark.parametrize("ratios", [[], [1, -1], [0, 0], [1.5, 1]])
def test_bad_ratios(ratios):
    with pytest.raises(AllocationError):
        allocate(Money("1", "USD"), ratios)


def test_allocation_error_is_a_value_error():
    with pytest.raises(ValueError):
        allocate(Money("1", "USD"), [1, -1])


def test_allocate_method_zero_ratios():
    with pytest.raises(AllocationError):
        Money("1", "USD").allocate([0, 0])


def test_split_bounds():
    with pytest.raises(AllocationError):
        split(Money("1", "USD"), 0)
    with pytest.raises(AllocationError):
        split(Money("1", "USD"), MAX_SPLIT_PARTS + 1)
    assert len(Money("1", "USD").split(4)) == 4
