"""Argument checks shared by the public modules.

Each function returns its (normalised) argument or raises; none of them clamps.
"""

from __future__ import annotations

import math

from .constants import MAX_GEOHASH_PRECISION, MAX_ZOOM
from .errors import CoordinateError, GeohashError, TileError, ZoomError

GEOHASH_ALPHABET = "0123456789bcdefghjkmnpqrstuvwxyz"


def check_latitude(lat: float) -> float:
    """Return ``lat`` as a float.

    Raises:
        CoordinateError: if ``lat`` is not finite or lies outside [-90, 90].
    """
    lat = float(lat)
    if not math.isfinite(lat) or not -90.0 <= lat <= 90.0:
        raise CoordinateError(f"latitude {lat!r} is outside [-90, 90]")
    return lat


def check_longitude(lon: float) -> float:
    """Return ``lon`` as a float.

    Raises:
        CoordinateError: if ``lon`` is not finite or lies outside [-180, 180].
    """
    lon = float(lon)
    if not math.isfinite(lon) or not -180.0 <= lon <= 180.0:
        raise CoordinateError(f"longitude {lon!r} is outside [-180, 180]")
    return lon


def check_zoom(zoom: int) -> int:
    """Return ``zoom`` unchanged.

    Raises:
        ZoomError: if ``zoom`` is not an int in ``0..MAX_ZOOM``.
    """
    if isinstance(zoom, bool) or not isinstance(zoom, int) or not 0 <= zoom <= MAX_ZOOM:
        raise ZoomError(f"zoom {zoom!r} is outside 0..{MAX_ZOOM}")
    return zoom


def check_tile_index(x: int, y: int, zoom: int) -> None:
    """Check that column ``x`` and row ``y`` exist at ``zoom``.

    Raises:
        ZoomError: from :func:`check_zoom`.
        TileError: if ``x`` or ``y`` is outside ``0..2**zoom - 1``.
    """
    n = 1 << check_zoom(zoom)
    if not (0 <= x < n and 0 <= y < n):
        raise TileError(f"tile ({x}, {y}) does not exist at zoom {zoom} (0..{n - 1})")


def check_geohash(code: str) -> str:
    """Return ``code`` lower-cased.

    Raises:
        GeohashError: if ``code`` is empty, too long or has a character outside the base-32 alphabet.
    """
    code = code.lower()
    if not 1 <= len(code) <= MAX_GEOHASH_PRECISION:
        raise GeohashError(f"geohash {code!r} must have 1..{MAX_GEOHASH_PRECISION} characters")
    bad = sorted({c for c in code if c not in GEOHASH_ALPHABET})
    if bad:
        raise GeohashError(f"geohash {code!r} has characters outside the alphabet: {''.join(bad)}")
    return code


def check_precision(precision: int) -> int:
    """Return ``precision`` unchanged.

    Raises:
        GeohashError: if ``precision`` is outside ``1..MAX_GEOHASH_PRECISION``.
    """
    if not 1 <= precision <= MAX_GEOHASH_PRECISION:
        raise GeohashError(f"precision {precision!r} is outside 1..{MAX_GEOHASH_PRECISION}")
    return precision
