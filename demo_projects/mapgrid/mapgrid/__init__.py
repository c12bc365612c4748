"""mapgrid: points, distances, bounding boxes, geohashes and web-map tiles.

The names most programs need are importable from the package itself::

    from mapgrid import LatLon, haversine, tile_for

Everything works in degrees and metres; see :mod:`mapgrid.units` for conversions.
"""

from __future__ import annotations

from .bbox import BBox
from .cache import TileCache
from .config import GridSettings
from .errors import (
    BBoxError,
    CacheMiss,
    CoordinateError,
    GeohashError,
    GeoJSONError,
    MapgridError,
    TileError,
    UnitError,
    ZoomError,
)
from .geodesy import destination, final_bearing, haversine, initial_bearing, midpoint, path_length
from .grid import TileGrid
from .point import LatLon
from .tiles import Tile, from_quadkey, tile_for, tiles_covering

__version__ = "2.1.0"

__all__ = [
    "BBox", "BBoxError", "CacheMiss", "CoordinateError", "GeoJSONError", "GeohashError", "GridSettings",
    "LatLon", "MapgridError", "Tile", "TileCache", "TileError", "TileGrid", "UnitError", "ZoomError",
    "destination", "final_bearing", "from_quadkey", "haversine", "initial_bearing", "midpoint",
    "path_length", "tile_for", "tiles_covering",
]
