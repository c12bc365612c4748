import pytest
from mapgrid import GeohashError, LatLon, geohash


def test_known_value():
    assert geohash.encode(LatLon(57.64911, 10.40744), 11) == "u4pruydqqvj"


def test_default_precision_is_nine():
    assert len(geohash.encode(LatLon(1, 1))) == 9


def test_first_bit_is_longitude():
    # One character = 5 bits: lon, lat, lon, lat, lon. East half of the world starts with a 1 bit.
    assert geohash.encode(LatLon(-80, 10), 1) >= "h"
    assert geohash.encode(LatLon(80, -10), 1) < "h"


def test_decode_accepts_upper_case():
    a, b = geohash.decode("U4PRUYDQQVJ"), geohash.decode("u4pruydqqvj")
    assert a == b
    assert a.lat == pytest.approx(57.64911, abs=1e-5)


@pytest.mark.parametrize("bad", ["", "u4pa", "x" * 13])
def test_decode_raises_on_bad_codes(bad):
    with pytest.raises(GeohashError):
        geohash.decode(bad)
    with pytest.raises(ValueError):
        geohash.decode_bounds(bad)


def test_precision_bounds():
    with pytest.raises(GeohashError):
        geohash.encode(LatLon(0, 0), 13)
    with pytest.raises(GeohashError):
        geohash.cell_size(0)


def test_neighbours():
    n = geohash.neighbours("u4pru")
    assert n["e"] == "u4prv" and n["n"] == "u4r2h"
    with pytest.raises(KeyError):
        geohash.neighbour("u4pru", "up")


def test_cell_size_precision_five():
    width, height = geohash.cell_size(5)
    assert width == pytest.approx(4_890, rel=0.01) and height == pytest.approx(4_890, rel=0.01)
