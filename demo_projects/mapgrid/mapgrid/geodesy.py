"""Spherical geodesy: distances, bearings and destinations.

The Earth is treated as a sphere of radius :data:`mapgrid.constants.EARTH_RADIUS_M`
(the IUGG mean radius). Errors against the WGS 84 ellipsoid stay below 0.5 %,
which is plenty for map display, search radii and tile work. For survey-grade
results use an ellipsoidal library instead. Start with :func:`haversine`
and :func:`initial_bearing`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .constants import EARTH_RADIUS_M
from .point import LatLon
from .units import normalize_bearing, normalize_longitude


def haversine(a: LatLon, b: LatLon, *, radius: float = EARTH_RADIUS_M) -> float:
    """Great-circle distance between two points.

    Args:
        a: First point.
        b: Second point.
        radius: Sphere radius in metres.

    Returns:
        The distance along the surface, in the unit of ``radius`` (metres by default).
    """
    lat1, lon1 = a.to_radians()
    lat2, lon2 = b.to_radians()
    dlat = lat2 - lat1
    dlon = lon2 - lon1
    h = math.sin(dlat / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin(dlon / 2) ** 2
    return 2 * radius * math.asin(min(1.0, math.sqrt(h)))


def initial_bearing(a: LatLon, b: LatLon) -> float:
    """Bearing to steer at ``a`` to follow the great circle to ``b``.

    The formula uses ``math.atan2(y, x)`` with the east-west term as ``y``, which
    gives an angle in ``(-180, 180]``; the result is then wrapped.

    Args:
        a: Start point.
        b: End point.

    Returns:
        Degrees clockwise from true north, in ``[0, 360)``. ``0.0`` when the points coincide.
    """
    lat1, lon1 = a.to_radians()
    lat2, lon2 = b.to_radians()
    dlon = lon2 - lon1
    y = math.sin(dlon) * math.cos(lat2)
    x = math.cos(lat1) * math.sin(lat2) - math.sin(lat1) * math.cos(lat2) * math.cos(dlon)
    return normalize_bearing(math.degrees(math.atan2(y, x)))


def final_bearing(a: LatLon, b: LatLon) -> float:
    """Bearing on arrival at ``b`` when coming from ``a``, in degrees ``[0, 360)``."""
    return normalize_bearing(initial_bearing(b, a) + 180.0)


def destination(origin: LatLon, distance: float, bearing: float, *, radius: float = EARTH_RADIUS_M) -> LatLon:
    """Point reached by travelling ``distance`` from ``origin`` on a constant initial bearing.

    Args:
        origin: Where to start.
        distance: How far to travel, in metres (or the unit of ``radius``).
        bearing: Initial direction, degrees clockwise from north.
        radius: Sphere radius in metres.

    Returns:
        The destination; its longitude is wrapped into ``[-180, 180)``.
    """
    lat1, lon1 = origin.to_radians()
    theta = math.radians(bearing)
    delta = distance / radius
    lat2 = math.asin(math.sin(lat1) * math.cos(delta) + math.cos(lat1) * math.sin(delta) * math.cos(theta))
    lon2 = lon1 + math.atan2(
        math.sin(theta) * math.sin(delta) * math.cos(lat1),
        math.cos(delta) - math.sin(lat1) * math.sin(lat2),
    )
    return LatLon(math.degrees(lat2), normalize_longitude(math.degrees(lon2)))


def midpoint(a: LatLon, b: LatLon) -> LatLon:
    """Point halfway along the great circle from ``a`` to ``b``."""
    lat1, lon1 = a.to_radians()
    lat2, lon2 = b.to_radians()
    dlon = lon2 - lon1
    bx = math.cos(lat2) * math.cos(dlon)
    by = math.cos(lat2) * math.sin(dlon)
    lat3 = math.atan2(math.sin(lat1) + math.sin(lat2), math.hypot(math.cos(lat1) + bx, by))
    lon3 = lon1 + math.atan2(by, math.cos(lat1) + bx)
    return LatLon(math.degrees(lat3), normalize_longitude(math.degrees(lon3)))


def cross_track_distance(point: LatLon, start: LatLon, end: LatLon, *, radius: float = EARTH_RADIUS_M) -> float:
    """Signed distance from ``point`` to the great circle through ``start`` and ``end``.

    Returns:
        Metres; positive when ``point`` is to the right of the path, negative to the left.
    """
    d13 = haversine(start, point, radius=1.0)
    t13 = math.radians(initial_bearing(start, point))
    t12 = math.radians(initial_bearing(start, end))
    return math.asin(math.sin(d13) * math.sin(t13 - t12)) * radius


def path_length(points: Sequence[LatLon], *, radius: float = EARTH_RADIUS_M) -> float:
    """Total length of a polyline, in metres.

    Args:
        points: The vertices in order.
        radius: Sphere radius in metres.

    Returns:
        The summed great-circle lengths of the segments; ``0.0`` for fewer than two points.
    """
    return sum((haversine(p, q, radius=radius) for p, q in zip(points, points[1:], strict=False)), 0.0)
