"""Spherical (Web) Mercator, EPSG:3857.

Projected coordinates are metres on a sphere of radius
:data:`mapgrid.constants.WGS84_SEMI_MAJOR_M`, with x growing east and y
growing north from (0, 0) at the equator and the prime meridian. Pixel
coordinates, by contrast, start at the north-west corner of the world and
grow east and south, like the tile rows built on them in :mod:`mapgrid.tiles`.
"""

from __future__ import annotations

import math

from .constants import MAX_MERCATOR_LATITUDE, TILE_SIZE_PX, WGS84_SEMI_MAJOR_M
from .point import LatLon
from .units import clamp_latitude
from .validation import check_zoom

#: Half the projected world's width: x and y lie in [-ORIGIN_SHIFT_M, ORIGIN_SHIFT_M].
ORIGIN_SHIFT_M = math.pi * WGS84_SEMI_MAJOR_M


def project(point: LatLon) -> tuple[float, float]:
    """Project a point to Web Mercator metres.

    Latitudes beyond ±:data:`~mapgrid.constants.MAX_MERCATOR_LATITUDE` have no
    place on the square map; they are clamped to the limit first.

    Args:
        point: The point to project.

    Returns:
        ``(x, y)`` in metres.
    """
    lat = clamp_latitude(point.lat, MAX_MERCATOR_LATITUDE)
    x = WGS84_SEMI_MAJOR_M * math.radians(point.lon)
    y = WGS84_SEMI_MAJOR_M * math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))
    return x, y


def unproject(x: float, y: float) -> LatLon:
    """Turn Web Mercator metres back into a point.

    Args:
        x: Easting in metres.
        y: Northing in metres.

    Returns:
        The point; ``x`` beyond the world's edge wraps around.
    """
    from .units import normalize_longitude

    lon = normalize_longitude(math.degrees(x / WGS84_SEMI_MAJOR_M))
    lat = math.degrees(2 * math.atan(math.exp(y / WGS84_SEMI_MAJOR_M)) - math.pi / 2)
    return LatLon(lat, lon)


def world_size(zoom: int, tile_size: int = TILE_SIZE_PX) -> int:
    """Width (and height) of the whole world in pixels at ``zoom``."""
    return tile_size << check_zoom(zoom)


def pixel_xy(point: LatLon, zoom: int, *, tile_size: int = TILE_SIZE_PX) -> tuple[float, float]:
    """Global pixel coordinates of ``point`` at ``zoom``.

    Args:
        point: The point.
        zoom: Zoom level, ``0..MAX_ZOOM``.
        tile_size: Tile edge in pixels.

    Returns:
        ``(px, py)`` measured from the north-west corner of the world, y growing south.

    Raises:
        ZoomError: if ``zoom`` is out of range.
    """
    size = world_size(zoom, tile_size)
    x, y = project(point)
    px = (x + ORIGIN_SHIFT_M) / (2 * ORIGIN_SHIFT_M) * size
    py = (ORIGIN_SHIFT_M - y) / (2 * ORIGIN_SHIFT_M) * size
    return px, py


def ground_resolution(lat: float, zoom: int, *, tile_size: int = TILE_SIZE_PX) -> float:
    """Metres on the ground covered by one pixel at latitude ``lat`` and ``zoom``.

    Args:
        lat: Latitude in degrees.
        zoom: Zoom level.
        tile_size: Tile edge in pixels.

    Returns:
        Metres per pixel; about 156,543 at the equator at zoom 0 with 256-pixel tiles.
    """
    return math.cos(math.radians(lat)) * 2 * ORIGIN_SHIFT_M / world_size(zoom, tile_size)


def scale_denominator(lat: float, zoom: int, *, dpi: float = 96.0, tile_size: int = TILE_SIZE_PX) -> float:
    """Map scale ``1 : N`` at ``lat`` and ``zoom`` for a screen of ``dpi`` dots per inch.

    Args:
        lat: Latitude in degrees.
        zoom: Zoom level.
        dpi: Screen resolution in dots per inch.
        tile_size: Tile edge in pixels.

    Returns:
        ``N``, the ground distance represented by one unit on screen.
    """
    metres_per_inch = 0.0254
    return ground_resolution(lat, zoom, tile_size=tile_size) * dpi / metres_per_inch
