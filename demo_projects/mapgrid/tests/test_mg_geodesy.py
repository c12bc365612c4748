import pytest
from mapgrid import (
    CoordinateError,
    LatLon,
    destination,
    final_bearing,
    haversine,
    initial_bearing,
    midpoint,
    path_length,
)
from mapgrid.constants import EARTH_RADIUS_M
from mapgrid.geodesy import cross_track_distance


def test_latlon_validates_both_axes():
    with pytest.raises(CoordinateError):
        LatLon(91, 0)
    with pytest.raises(CoordinateError):
        LatLon(0, 181)
    with pytest.raises(ValueError):
        LatLon(float("nan"), 0)


def test_from_pair_orders():
    assert LatLon.from_pair([10, 20]) == LatLon(10, 20)
    assert LatLon.from_pair([20, 10], order="lonlat") == LatLon(10, 20)
    with pytest.raises(ValueError):
        LatLon.from_pair([1, 2, 3])


def test_rounded_uses_round_half_even_on_binary_floats():
    assert LatLon(0.125, 0.375).rounded(2) == LatLon(0.12, 0.38)


def test_haversine_london_paris_in_metres(london, paris):
    assert haversine(london, paris) == pytest.approx(343_556, rel=2e-3)
    assert london.distance_to(paris) == haversine(london, paris)


def test_radius_sets_the_unit(london, paris):
    km = haversine(london, paris, radius=EARTH_RADIUS_M / 1000)
    assert km == pytest.approx(haversine(london, paris) / 1000)


def test_bearings():
    assert initial_bearing(LatLon(0, 0), LatLon(0, 10)) == pytest.approx(90)
    assert initial_bearing(LatLon(0, 0), LatLon(-10, 0)) == pytest.approx(180)
    assert initial_bearing(LatLon(0, 10), LatLon(0, 0)) == pytest.approx(270)
    assert initial_bearing(LatLon(5, 5), LatLon(5, 5)) == 0.0
    assert final_bearing(LatLon(0, 0), LatLon(0, 10)) == pytest.approx(90)


def test_destination_round_trip(london):
    there = destination(london, 10_000, 45)
    assert haversine(london, there) == pytest.approx(10_000, rel=1e-9)
    assert initial_bearing(london, there) == pytest.approx(45, abs=1e-6)


def test_destination_wraps_longitude():
    east = destination(LatLon(0, 179.5), 111_195, 90)
    assert -180 <= east.lon < -179


def test_midpoint_on_equator():
    mid = midpoint(LatLon(0, 0), LatLon(0, 90))
    assert mid.lat == pytest.approx(0, abs=1e-9) and mid.lon == pytest.approx(45)


def test_cross_track_sign():
    start, end = LatLon(0, 0), LatLon(0, 10)
    assert cross_track_distance(LatLon(1, 5), start, end) < 0
    assert cross_track_distance(LatLon(-1, 5), start, end) > 0


def test_path_length():
    assert path_length([]) == 0.0 and isinstance(path_length([LatLon(0, 0)]), float)
    pts = [LatLon(0, 0), LatLon(0, 1), LatLon(0, 2)]
    assert path_length(pts) == pytest.approx(2 * haversine(pts[0], pts[1]))
