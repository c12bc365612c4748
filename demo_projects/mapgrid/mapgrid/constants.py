"""Numeric conventions shared by every mapgrid module.

All distances are in metres and all angles in degrees unless a name says
otherwise; the few radian values carry ``_RAD`` in their name.
"""

from __future__ import annotations

#: IUGG mean Earth radius (R1), the usual choice for spherical formulas.
EARTH_RADIUS_M = 6_371_008.8

#: WGS 84 semi-major axis; Web Mercator (EPSG:3857) projects onto a sphere of this radius.
WGS84_SEMI_MAJOR_M = 6_378_137.0

#: Latitude at which the square Web Mercator world ends (atan(sinh(pi)) in degrees).
MAX_MERCATOR_LATITUDE = 85.05112877980659

#: Edge length of one raster tile, in pixels.
TILE_SIZE_PX = 256

#: Deepest zoom level the tile functions accept.
MAX_ZOOM = 24

#: Characters in a geohash when the caller does not choose.
DEFAULT_GEOHASH_PRECISION = 9

#: Longest geohash mapgrid encodes; 12 characters is finer than a centimetre.
MAX_GEOHASH_PRECISION = 12

#: Seconds a cached tile stays fresh.
DEFAULT_CACHE_TTL_S = 300.0

#: Tiles a :class:`mapgrid.cache.TileCache` holds before evicting the least recently used.
DEFAULT_CACHE_ITEMS = 512

#: Margin, in metres, that :meth:`mapgrid.bbox.BBox.expand` adds when none is given.
DEFAULT_BUFFER_M = 50.0

#: Decimal places kept when coordinates are rounded for output (about 1 cm).
COORD_DECIMALS = 7

METRES_PER_KM = 1000.0
METRES_PER_MILE = 1609.344
METRES_PER_NAUTICAL_MILE = 1852.0
