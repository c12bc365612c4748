"""Exception hierarchy.

Every exception mapgrid raises on purpose derives from :class:`MapgridError`.
Errors about a bad number (a coordinate, zoom level, geohash, box edge or
distance) also derive from :class:`ValueError`, so code that already catches
``ValueError`` keeps working.
"""

from __future__ import annotations


class MapgridError(Exception):
    """Base class of every mapgrid error."""


class CoordinateError(MapgridError, ValueError):
    """A latitude or longitude is out of range or not a finite number."""


class UnitError(MapgridError, ValueError):
    """A distance string could not be parsed."""


class ZoomError(MapgridError, ValueError):
    """A zoom level is outside ``0..MAX_ZOOM``."""


class TileError(MapgridError):
    """A tile address does not exist at its zoom level, or a quadkey is malformed."""


class BBoxError(MapgridError, ValueError):
    """A bounding box is empty or has its south edge above its north edge."""


class GeohashError(MapgridError, ValueError):
    """A geohash contains a character outside the alphabet, or a precision is out of range."""


class GeoJSONError(MapgridError):
    """A mapping is not the GeoJSON object the caller asked for."""


class CacheMiss(MapgridError, KeyError):
    """The tile is not in the cache, or its entry has expired."""
