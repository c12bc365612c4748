"""GeoJSON (RFC 7946) in and out.

Positions are written longitude first. Polygons are written with their
exterior ring counterclockwise, as the format asks; rings given the other way
round are reversed rather than rejected.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from .bbox import BBox
from .constants import COORD_DECIMALS
from .errors import GeoJSONError
from .point import LatLon
from .polygon import is_clockwise


def point_feature(point: LatLon, properties: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A GeoJSON ``Feature`` with a ``Point`` geometry.

    Args:
        point: Where the feature is.
        properties: Copied into the feature's ``properties``; ``None`` writes ``null``.

    Returns:
        A new dict ready for :func:`json.dumps`.
    """
    return {
        "type": "Feature",
        "geometry": {"type": "Point", "coordinates": point.as_geojson()},
        "properties": dict(properties) if properties is not None else None,
    }


def polygon_feature(ring: Sequence[LatLon], properties: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A GeoJSON ``Feature`` with a single-ring ``Polygon`` geometry.

    The ring is closed (first position repeated at the end) and, when it winds
    clockwise, reversed so the exterior ring is counterclockwise.

    Args:
        ring: The vertices, closed or not.
        properties: Feature properties.

    Returns:
        The feature as a dict.

    Raises:
        GeoJSONError: if the ring has fewer than three distinct vertices.
    """
    pts = list(ring)
    if len(pts) > 1 and pts[0] == pts[-1]:
        pts.pop()
    if len(set(pts)) < 3:
        raise GeoJSONError(f"a polygon ring needs three distinct vertices, got {len(set(pts))}")
    if is_clockwise(pts):
        pts.reverse()
    coords = [p.as_geojson() for p in [*pts, pts[0]]]
    return {
        "type": "Feature",
        "geometry": {"type": "Polygon", "coordinates": [coords]},
        "properties": dict(properties) if properties is not None else None,
    }


def parse_point(obj: Mapping[str, Any]) -> LatLon:
    """Read a ``Point`` geometry, or a ``Feature`` whose geometry is a ``Point``.

    Args:
        obj: Path to a GeoJSON file holding the point.

    Returns:
        The point. A third coordinate (altitude) is ignored.

    Raises:
        GeoJSONError: if the object is not a Point or has fewer than two coordinates.
    """
    geometry = obj.get("geometry") if obj.get("type") == "Feature" else obj
    if not isinstance(geometry, Mapping) or geometry.get("type") != "Point":
        raise GeoJSONError("expected a Point geometry or a Feature with one")
    coords = geometry.get("coordinates")
    if not isinstance(coords, Sequence) or len(coords) < 2:
        raise GeoJSONError(f"a Point needs [lon, lat], got {coords!r}")
    return LatLon(coords[1], coords[0])


def bbox_of(obj: Mapping[str, Any]) -> BBox:
    """The ``bbox`` member of a GeoJSON object as a :class:`~mapgrid.bbox.BBox`.

    Returns:
        The box. Only two-dimensional bboxes (four numbers) are read.

    Raises:
        GeoJSONError: if the object has no ``bbox`` member or it does not hold four numbers.
    """
    raw = obj.get("bbox")
    if not isinstance(raw, Sequence) or len(raw) != 4:
        raise GeoJSONError(f"expected a bbox of four numbers, got {raw!r}")
    west, south, east, north = raw
    return BBox(west, south, east, north)


def dumps(obj: Mapping[str, Any], *, decimals: int = COORD_DECIMALS) -> str:
    """Serialise a GeoJSON object with coordinates rounded to ``decimals`` places.

    Args:
        obj: A GeoJSON dict.
        decimals: Decimal places kept in every coordinate.

    Returns:
        Compact JSON text.
    """
    return json.dumps(_round(obj, decimals), separators=(",", ":"))


def _round(value: Any, decimals: int) -> Any:
    if isinstance(value, float):
        return round(value, decimals)
    if isinstance(value, Mapping):
        return {k: _round(v, decimals) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_round(v, decimals) for v in value]
    return value
