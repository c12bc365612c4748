import pytest
from mapgrid import BBox, GridSettings, LatLon, Tile, TileCache, TileGrid, ZoomError


def test_cache_get_returns_none_and_fetch_raises(clock):
    cache = TileCache(clock=clock)
    assert cache.get(Tile(0, 0, 0)) is None
    with pytest.raises(KeyError):
        cache.fetch(Tile(0, 0, 0))
    with pytest.raises(LookupError):
        cache.fetch(Tile(0, 0, 0))


def test_cache_ttl_is_seconds(clock):
    cache = TileCache(ttl=300, clock=clock)
    cache.put(Tile(0, 0, 0), b"png")
    clock.now += 299
    assert cache.get(Tile(0, 0, 0)) == b"png"
    clock.now += 2
    assert cache.get(Tile(0, 0, 0)) is None
    assert len(cache) == 0


def test_cache_defaults():
    cache = TileCache()
    assert cache.ttl == 300.0 and cache.max_items == 512


def test_cache_lru(clock):
    cache = TileCache(max_items=2, clock=clock)
    a, b, c = Tile(0, 0, 1), Tile(1, 0, 1), Tile(0, 1, 1)
    cache.put(a, b"a")
    cache.put(b, b"b")
    cache.get(a)
    cache.put(c, b"c")
    assert a in cache and b not in cache and c in cache
    with pytest.raises(ValueError):
        TileCache(max_items=0)


def test_evict_expired(clock):
    cache = TileCache(ttl=10, clock=clock)
    cache.put(Tile(0, 0, 0), b"x")
    clock.now += 11
    assert cache.evict_expired() == 1


def test_settings_defaults():
    s = GridSettings()
    assert s.max_zoom == 19 and s.timeout == 2.5 and s.buffer == 50.0
    with pytest.raises(ValueError):
        GridSettings(min_zoom=5, max_zoom=3)


def test_grid_rejects_zoom_outside_range(london):
    grid = TileGrid()
    with pytest.raises(ZoomError):
        grid.snap(london, 20)
    assert grid.snap(london, 10) == Tile(511, 340, 10)


def test_zoom_for_resolution_clamps():
    grid = TileGrid(GridSettings(min_zoom=2, max_zoom=10))
    assert grid.zoom_for_resolution(1e-6) == 10
    assert grid.zoom_for_resolution(1e9) == 2
    assert TileGrid().zoom_for_resolution(1.0) == 18


def test_cover_buffers_by_default():
    grid = TileGrid()
    edge = BBox(0.0002, 0.0002, 0.01, 0.01)
    assert Tile(1023, 1023, 11) in grid.cover(edge, 11)
    assert Tile(1023, 1023, 11) not in grid.cover(edge, 11, buffered=False)
    assert grid.tile_count(edge, 11) == len(grid.cover(edge, 11))


def test_fetch_uses_cache_and_timeout_seconds(clock):
    calls = []

    def loader(url, timeout):
        calls.append((url, timeout))
        return b"img"

    grid = TileGrid(cache=TileCache(clock=clock))
    tile = Tile(1, 1, 1)
    assert grid.fetch(tile, loader) == b"img"
    assert grid.fetch(tile, loader) == b"img"
    assert calls == [("https://tile.openstreetmap.org/1/1/1.png", 2.5)]


def test_latlon_is_hashable_for_sets():
    assert len({LatLon(1, 2), LatLon(1, 2)}) == 1
