"""A configured tile grid: which zooms are served, from where, with what cache.

:class:`TileGrid` ties :mod:`mapgrid.tiles`, :mod:`mapgrid.mercator` and
:class:`~mapgrid.cache.TileCache` together behind one object configured by
:class:`~mapgrid.config.GridSettings`.
"""

from __future__ import annotations

from collections.abc import Callable

from .bbox import BBox
from .cache import TileCache
from .config import GridSettings
from .errors import ZoomError
from .mercator import ground_resolution
from .point import LatLon
from .tiles import Tile, tile_for, tile_url, tiles_covering

Loader = Callable[[str, float], bytes]


class TileGrid:
    """Tiles of one map layer.

    Args:
        settings: The layer's settings; ``None`` uses ``GridSettings()``.
        cache: Where downloaded tiles are kept; ``None`` builds one from the settings.
    """

    def __init__(self, settings: GridSettings | None = None, cache: TileCache | None = None) -> None:
        self.settings = settings if settings is not None else GridSettings()
        self.cache = cache if cache is not None else TileCache(self.settings.cache_items, self.settings.cache_ttl)

    def _served(self, zoom: int) -> int:
        s = self.settings
        if not s.min_zoom <= zoom <= s.max_zoom:
            raise ZoomError(f"zoom {zoom} is outside this grid's range {s.min_zoom}..{s.max_zoom}")
        return zoom

    def snap(self, point: LatLon, zoom: int) -> Tile:
        """The tile under ``point``.

        Raises:
            ZoomError: if ``zoom`` is outside the grid's range.
        """
        return tile_for(point, self._served(zoom))

    def cover(self, bbox: BBox, zoom: int, *, buffered: bool = True) -> list[Tile]:
        """Tiles needed to draw ``bbox`` at ``zoom``.

        Args:
            bbox: The area to draw.
            zoom: Zoom level; must be inside the grid's range.
            buffered: Grow the area by ``settings.buffer`` metres first, so labels at the edge are not cut.

        Returns:
            The tiles, row by row from the north-west.
        """
        area = bbox.expand(self.settings.buffer) if buffered else bbox
        return tiles_covering(area, self._served(zoom))

    def url(self, tile: Tile) -> str:
        """Download URL of ``tile`` from the settings' template."""
        return tile_url(tile, self.settings.url_template)

    def zoom_for_resolution(self, metres_per_pixel: float, lat: float = 0.0) -> int:
        """Shallowest served zoom whose pixels are at most ``metres_per_pixel`` wide at ``lat``.

        Args:
            metres_per_pixel: Wanted ground resolution.
            lat: Latitude in degrees where the resolution matters.

        Returns:
            A zoom level, limited to the grid's range: a resolution finer than the deepest
            zoom gives ``max_zoom``, a coarser one than zoom ``min_zoom`` gives ``min_zoom``.
        """
        s = self.settings
        for zoom in range(s.min_zoom, s.max_zoom + 1):
            if ground_resolution(lat, zoom, tile_size=s.tile_size) <= metres_per_pixel:
                return zoom
        return s.max_zoom

    def fetch(self, tile: Tile, loader: Loader) -> bytes:
        """Tile bytes from the cache, or from ``loader(url, timeout)`` on a miss.

        Args:
            tile: The tile.
            loader: Called with the URL and ``settings.timeout`` (seconds); returns the bytes.

        Returns:
            The tile image bytes.

        Raises:
            ZoomError: if the tile's zoom is outside the grid's range.
        """
        self._served(tile.z)
        cached = self.cache.get(tile)
        if cached is not None:
            return cached
        data = loader(self.url(tile), self.settings.timeout)
        self.cache.put(tile, data)
        return data

    def tile_count(self, bbox: BBox, zoom: int) -> int:
        """Number of tiles :meth:`cover` returns for the same arguments."""
        return len(self.cover(bbox, zoom))
