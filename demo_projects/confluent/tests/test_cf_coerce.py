import math

import pytest

from confluent import CoercionError, UnknownKindError, coerce, register_coercer
from confluent.units import parse_duration, parse_size


def test_int_accepts_underscores_but_not_hex():
    assert coerce("1_000", "int") == 1000
    with pytest.raises(CoercionError):
        coerce("0x1F", "int")


def test_bool_words_and_empty_string():
    assert coerce("off", "bool") is False
    assert coerce(" Yes ", "bool") is True
    with pytest.raises(CoercionError):
        coerce("", "bool")


def test_float_accepts_nan_and_exponent():
    assert coerce("1e3", "float") == 1000.0
    assert math.isnan(coerce("nan", "float"))


def test_durations():
    assert coerce("5m", "duration") == 300.0
    assert coerce("1h30m", "duration") == 5400.0
    with pytest.raises(CoercionError):
        coerce("1h 30m", "duration")
    assert parse_duration("-5") == -5.0


def test_sizes_decimal_and_binary():
    assert coerce("10MiB", "size") == 10485760
    assert coerce("10MB", "size") == 10_000_000
    assert parse_size("1.5kib") == 1536


def test_lists_drop_empty_items():
    assert coerce("a, b,,c", "list") == ["a", "b", "c"]
    assert coerce("1,2", "list[int]") == [1, 2]


def test_unknown_kind_and_duplicate_registration():
    with pytest.raises(UnknownKindError):
        coerce("x", "nope")
    with pytest.raises(ValueError):
        register_coercer("int")(int)
