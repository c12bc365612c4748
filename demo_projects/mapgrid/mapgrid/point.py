"""Geographic points.

:class:`LatLon` is the point type every other module takes. It is immutable and
validated on construction, and it stores latitude first, the way people say
coordinates aloud; :meth:`LatLon.as_geojson` gives the longitude-first order of
GeoJSON.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .constants import COORD_DECIMALS, EARTH_RADIUS_M
from .validation import check_latitude, check_longitude


@dataclass(frozen=True, slots=True)
class LatLon:
    """A point on the Earth's surface in decimal degrees (WGS 84).

    Args:
        lat: Latitude in degrees, positive north.
        lon: Longitude in degrees, positive east.

    Raises:
        CoordinateError: if ``lat`` is outside [-90, 90].
    """

    lat: float
    lon: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "lat", check_latitude(self.lat))
        object.__setattr__(self, "lon", check_longitude(self.lon))

    @classmethod
    def from_pair(cls, pair: Sequence[float], *, order: Literal["latlon", "lonlat"] = "latlon") -> LatLon:
        """Build a point from a two-item sequence.

        Args:
            pair: Two numbers.
            order: ``"latlon"`` when latitude comes first, ``"lonlat"`` for GeoJSON-style pairs.

        Returns:
            The new point.

        Raises:
            ValueError: if ``pair`` does not have exactly two items or ``order`` is unknown.
        """
        if len(pair) != 2:
            raise ValueError(f"expected two numbers, got {len(pair)}")
        if order == "latlon":
            return cls(pair[0], pair[1])
        if order == "lonlat":
            return cls(pair[1], pair[0])
        raise ValueError(f"unknown order {order!r}")

    @classmethod
    def from_radians(cls, lat: float, lon: float) -> LatLon:
        """Build a point from radians; the longitude is wrapped into range first."""
        from .units import normalize_longitude

        return cls(math.degrees(lat), normalize_longitude(math.degrees(lon)))

    def to_radians(self) -> tuple[float, float]:
        """Return ``(lat, lon)`` in radians."""
        return math.radians(self.lat), math.radians(self.lon)

    def as_geojson(self) -> list[float]:
        """Return the position as GeoJSON writes it: ``[lon, lat]``."""
        return [self.lon, self.lat]

    def rounded(self, decimals: int = COORD_DECIMALS) -> LatLon:
        """Return a copy rounded with the built-in :func:`round` to ``decimals`` places."""
        return LatLon(round(self.lat, decimals), round(self.lon, decimals))

    def distance_to(self, other: LatLon, *, radius: float = EARTH_RADIUS_M) -> float:
        """Great-circle distance to ``other``; see :func:`mapgrid.geodesy.haversine`."""
        from .geodesy import haversine

        return haversine(self, other, radius=radius)
