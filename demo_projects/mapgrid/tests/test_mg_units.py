import math

import pytest
from mapgrid import UnitError, units


def test_degree_radian_round_trip():
    assert units.to_radians(180) == pytest.approx(math.pi)
    assert units.to_degrees(math.pi / 2) == pytest.approx(90.0)


def test_nan_degrees_pass_through_without_error():
    assert math.isnan(units.to_radians(float("nan")))


def test_distance_factors():
    assert units.km_to_m(1.5) == 1500.0
    assert units.m_to_km(250) == 0.25
    assert units.nm_to_m(1) == 1852.0
    assert units.miles_to_m(1) == pytest.approx(1609.344)


@pytest.mark.parametrize(("lon", "expected"), [(190, -170), (-190, 170), (180, -180), (0, 0), (540, -180)])
def test_normalize_longitude(lon, expected):
    assert units.normalize_longitude(lon) == pytest.approx(expected)


@pytest.mark.parametrize(("bearing", "expected"), [(-90, 270), (360, 0), (725, 5), (0, 0)])
def test_normalize_bearing(bearing, expected):
    assert units.normalize_bearing(bearing) == pytest.approx(expected)


def test_clamp_latitude_keeps_values_inside():
    assert units.clamp_latitude(95) == 90
    assert units.clamp_latitude(-87, 85) == -85
    assert units.clamp_latitude(12.5) == 12.5


@pytest.mark.parametrize(("text", "metres"), [("250 m", 250), ("1.5 km", 1500), ("2", 2), ("12 NM", 22224)])
def test_parse_distance(text, metres):
    assert units.parse_distance(text) == pytest.approx(metres)


def test_parse_distance_rejects_unknown_unit():
    with pytest.raises(UnitError):
        units.parse_distance("3 furlongs")
    with pytest.raises(ValueError):
        units.parse_distance("")
