import pytest
from mapgrid import BBox, LatLon, Tile, TileError, ZoomError, from_quadkey, mercator, tile_for, tiles_covering
from mapgrid.constants import MAX_MERCATOR_LATITUDE, MAX_ZOOM
from mapgrid.tiles import tile_url


def test_tile_validation():
    with pytest.raises(TileError):
        Tile(2, 0, 1)
    with pytest.raises(ZoomError):
        Tile(0, 0, MAX_ZOOM + 1)
    assert not issubclass(TileError, ValueError)


def test_row_zero_is_north():
    nw = Tile(0, 0, 1).bounds()
    assert nw.north == pytest.approx(MAX_MERCATOR_LATITUDE)
    assert nw.south == pytest.approx(0) and nw.west == -180 and nw.east == 0


def test_parent_and_children():
    assert Tile(0, 0, 0).parent() is None
    assert Tile(5, 3, 3).parent() == Tile(2, 1, 2)
    assert Tile(1, 1, 1).children() == (Tile(2, 2, 2), Tile(3, 2, 2), Tile(2, 3, 2), Tile(3, 3, 2))
    with pytest.raises(ZoomError):
        Tile(0, 0, MAX_ZOOM).children()


def test_quadkey_round_trip():
    tile = Tile(3, 5, 3)
    assert tile.quadkey() == "213"
    assert len(tile.quadkey()) == tile.z
    assert from_quadkey("213") == tile
    assert from_quadkey("") == Tile(0, 0, 0)
    with pytest.raises(TileError):
        from_quadkey("124")


def test_tile_for(london):
    assert tile_for(london, 10) == Tile(511, 340, 10)
    assert tile_for(LatLon(89.9, 0), 3).y == 0
    assert tile_for(LatLon(-89.9, 0), 3).y == 7
    with pytest.raises(ZoomError):
        tile_for(london, 25)


def test_tiles_covering_is_a_row_major_list():
    tiles = tiles_covering(BBox(-10, -10, 10, 10), 2)
    assert isinstance(tiles, list)
    assert tiles == [Tile(1, 1, 2), Tile(2, 1, 2), Tile(1, 2, 2), Tile(2, 2, 2)]


def test_tiles_covering_across_antimeridian():
    tiles = tiles_covering(BBox(170, -10, -170, 10), 3)
    assert {t.x for t in tiles} == {0, 7}


def test_tile_url():
    assert tile_url(Tile(1, 2, 3)) == "https://tile.openstreetmap.org/3/1/2.png"
    assert tile_url(Tile(1, 2, 3), "https://t/{q}.jpeg") == "https://t/021.jpeg"
    with pytest.raises(KeyError):
        tile_url(Tile(0, 0, 0), "https://t/{zoom}/{x}/{y}")


def test_project_clamps_instead_of_raising():
    assert mercator.project(LatLon(89, 0)) == mercator.project(LatLon(MAX_MERCATOR_LATITUDE, 0))
    x, y = mercator.project(LatLon(0, 180))
    assert x == pytest.approx(mercator.ORIGIN_SHIFT_M) and y == pytest.approx(0, abs=1e-6)


def test_unproject_round_trip(london):
    back = mercator.unproject(*mercator.project(london))
    assert back.lat == pytest.approx(london.lat) and back.lon == pytest.approx(london.lon)


def test_ground_resolution_and_scale():
    assert mercator.ground_resolution(0, 0) == pytest.approx(156_543.034, rel=1e-6)
    assert mercator.ground_resolution(60, 1) == pytest.approx(156_543.034 / 4, rel=1e-6)
    assert mercator.scale_denominator(0, 0) == pytest.approx(156_543.034 * 96 / 0.0254, rel=1e-6)


def test_pixel_origin_is_north_west():
    assert mercator.pixel_xy(LatLon(MAX_MERCATOR_LATITUDE, -180), 0) == pytest.approx((0, 0), abs=1e-6)
