"""Polygon rings on the sphere.

A ring is a sequence of :class:`~mapgrid.point.LatLon` vertices; the closing
vertex may be repeated or left out. :func:`ring_area` measures it,
:func:`is_clockwise` tells its winding and :func:`signed_area` gives the raw
planar shoelace value behind that test.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .constants import EARTH_RADIUS_M
from .errors import CoordinateError
from .point import LatLon


def _open(ring: Sequence[LatLon]) -> list[LatLon]:
    pts = list(ring)
    if len(pts) > 1 and pts[0] == pts[-1]:
        pts.pop()
    return pts


def _shoelace(ring: Sequence[LatLon]) -> float:
    pts = _open(ring)
    return sum(p.lon * q.lat - q.lon * p.lat for p, q in zip(pts, pts[1:] + pts[:1], strict=True)) / 2.0


def is_clockwise(ring: Sequence[LatLon]) -> bool:
    """Whether the ring winds clockwise when drawn with east to the right and north up.

    Args:
        ring: The vertices.

    Returns:
        ``True`` for clockwise, ``False`` for counterclockwise or degenerate rings.
    """
    return _shoelace(ring) < 0


def ring_area(ring: Sequence[LatLon], *, radius: float = EARTH_RADIUS_M) -> float:
    """Area enclosed by a ring on the sphere.

    Args:
        ring: At least three distinct vertices.
        radius: Sphere radius in metres.

    Returns:
        The area in square metres, never negative whatever the winding.

    Raises:
        CoordinateError: if the ring has fewer than three distinct vertices.
    """
    pts = _open(ring)
    if len(pts) < 3:
        raise CoordinateError(f"a ring needs three vertices, got {len(pts)}")
    total = 0.0
    for p, q in zip(pts, pts[1:] + pts[:1], strict=True):
        total += math.radians(q.lon - p.lon) * (2 + math.sin(math.radians(p.lat)) + math.sin(math.radians(q.lat)))
    return abs(total * radius * radius / 2.0)


def centroid(ring: Sequence[LatLon]) -> LatLon:
    """Planar centroid of the ring's vertices in degrees.

    Raises:
        CoordinateError: if the ring has fewer than three distinct vertices.
    """
    pts = _open(ring)
    if len(pts) < 3:
        raise CoordinateError(f"a ring needs three vertices, got {len(pts)}")
    return LatLon(sum(p.lat for p in pts) / len(pts), sum(p.lon for p in pts) / len(pts))


def contains(ring: Sequence[LatLon], point: LatLon) -> bool:
    """Even-odd test of ``point`` against the ring (planar, in degrees).

    Returns:
        ``True`` inside, ``False`` outside; points exactly on an edge may go either way.
    """
    pts = _open(ring)
    inside = False
    for p, q in zip(pts, pts[1:] + pts[:1], strict=True):
        if (p.lat > point.lat) != (q.lat > point.lat):
            cross = p.lon + (point.lat - p.lat) * (q.lon - p.lon) / (q.lat - p.lat)
            if point.lon < cross:
                inside = not inside
    return inside
