"""Bounding boxes in longitude/latitude.

A :class:`BBox` is ordered ``(west, south, east, north)`` like a GeoJSON
``bbox`` member. A box whose west edge is greater than its east edge crosses
the antimeridian: ``BBox(170, -10, -170, 10)`` is 20 degrees wide.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from .constants import DEFAULT_BUFFER_M, EARTH_RADIUS_M
from .errors import BBoxError
from .point import LatLon
from .units import clamp_latitude, normalize_longitude
from .validation import check_latitude, check_longitude


@dataclass(frozen=True, slots=True)
class BBox:
    """A longitude/latitude rectangle.

    Args:
        west: Western edge, degrees.
        south: Southern edge, degrees.
        east: Eastern edge, degrees; smaller than ``west`` when the box crosses the antimeridian.
        north: Northern edge, degrees.

    Raises:
        CoordinateError: if an edge is out of range.
        BBoxError: if ``south`` is greater than ``north``.
    """

    west: float
    south: float
    east: float
    north: float

    def __post_init__(self) -> None:
        for name, check in (("west", check_longitude), ("south", check_latitude),
                            ("east", check_longitude), ("north", check_latitude)):
            object.__setattr__(self, name, check(getattr(self, name)))
        if self.south > self.north:
            raise BBoxError(f"south edge {self.south} is above north edge {self.north}")

    @classmethod
    def from_points(cls, points: Iterable[LatLon]) -> BBox:
        """Smallest box containing every point (it never crosses the antimeridian).

        Raises:
            BBoxError: if ``points`` is empty.
        """
        pts = list(points)
        if not pts:
            raise BBoxError("cannot build a bounding box from no points")
        lats = [p.lat for p in pts]
        lons = [p.lon for p in pts]
        return cls(min(lons), min(lats), max(lons), max(lats))

    @property
    def crosses_antimeridian(self) -> bool:
        """True when the box spans the 180th meridian."""
        return self.west > self.east

    @property
    def width(self) -> float:
        """East-west extent in degrees of longitude."""
        return (self.east - self.west) % 360.0 if self.crosses_antimeridian else self.east - self.west

    @property
    def height(self) -> float:
        """North-south extent in degrees of latitude."""
        return self.north - self.south

    def center(self) -> LatLon:
        """The point halfway between the edges (in degrees, not along a great circle)."""
        lon = normalize_longitude(self.west + self.width / 2.0)
        return LatLon((self.south + self.north) / 2.0, lon)

    def contains(self, point: LatLon) -> bool:
        """Whether ``point`` lies inside the box or on its edge."""
        if not self.south <= point.lat <= self.north:
            return False
        if self.crosses_antimeridian:
            return point.lon >= self.west or point.lon <= self.east
        return self.west <= point.lon <= self.east

    def intersects(self, other: BBox) -> bool:
        """Whether the two boxes share at least one point."""
        if other.south > self.north or other.north < self.south:
            return False
        return any(a.west <= b.east and b.west <= a.east for a in self._spans() for b in other._spans())

    def _spans(self) -> tuple[BBox, ...]:
        if not self.crosses_antimeridian:
            return (self,)
        return (BBox(self.west, self.south, 180.0, self.north), BBox(-180.0, self.south, self.east, self.north))

    def union(self, other: BBox) -> BBox:
        """Smallest box containing both boxes; the result does not cross the antimeridian."""
        spans = self._spans() + other._spans()
        return BBox(min(s.west for s in spans), min(self.south, other.south),
                    max(s.east for s in spans), max(self.north, other.north))

    def expand(self, margin: float = DEFAULT_BUFFER_M) -> BBox:
        """Grow the box by ``margin`` on every side.

        Args:
            margin: Distance in metres to add north, south, east and west.

        Returns:
            A new box. Latitudes are clamped at the poles and longitudes stop at ±180,
            so expanding never raises for a valid box.
        """
        dlat = math.degrees(margin / EARTH_RADIUS_M)
        widest = max(abs(self.south), abs(self.north))
        coslat = math.cos(math.radians(min(widest + dlat, 89.999999)))
        dlon = math.degrees(margin / (EARTH_RADIUS_M * coslat))
        west, east = self.west - dlon, self.east + dlon
        if not self.crosses_antimeridian:
            west, east = max(-180.0, west), min(180.0, east)
        elif west <= east:
            # The two halves have grown into each other: the box now spans every meridian.
            west, east = -180.0, 180.0
        return BBox(west, clamp_latitude(self.south - dlat), east, clamp_latitude(self.north + dlat))

    def as_list(self) -> list[float]:
        """Return ``[west, south, east, north]``, the order of a GeoJSON ``bbox`` member."""
        return [self.west, self.south, self.east, self.north]
