from decimal import Decimal

import pytest
from moneta.errors import InvalidRoundingError
from moneta.rounding import DEFAULT_ROUNDING, Rounding, quantize, resolve_rounding

D = Decimal


def test_default_is_half_even():
    assert DEFAULT_ROUNDING is Rounding.HALF_EVEN
    assert quantize(D("0.125"), 2) == D("0.12")
    assert quantize(D("0.135"), 2) == D("0.14")


@pytest.mark.parametrize(
    ("mode", "positive", "negative"),
    [
        (Rounding.UP, D("3"), D("-3")),
        (Rounding.DOWN, D("2"), D("-2")),
        (Rounding.CEILING, D("3"), D("-2")),
        (Rounding.FLOOR, D("2"), D("-3")),
        (Rounding.HALF_UP, D("3"), D("-3")),
        (Rounding.HALF_DOWN, D("2"), D("-2")),
        (Rounding.HALF_EVEN, D("2"), D("-2")),
    ],
)
def test_modes_on_a_tie(mode, positive, negative):
    assert quantize(D("2.5"), 0, mode) == positive
    assert quantize(D("-2.5"), 0, mode) == negative


def test_half_down_only_affects_ties():
    assert quantize(D("2.6"), 0, Rounding.HALF_DOWN) == D("3")


def test_names_are_resolved():
    assert resolve_rounding("half-up") is Rounding.HALF_UP
    assert resolve_rounding("ROUND_CEILING") is Rounding.CEILING
    with pytest.raises(InvalidRoundingError):
        resolve_rounding("bankers")


def test_quantize_sets_the_exponent():
    assert str(quantize(D("2"), 2)) == "2.00"
