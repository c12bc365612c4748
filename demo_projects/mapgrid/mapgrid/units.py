"""Angle and distance conversions.

mapgrid works in degrees and metres. The helpers here convert at the edges,
wrap angles into their canonical ranges and read distances typed by people,
such as ``"250 m"`` or ``"1.5 km"``.
"""

from __future__ import annotations

import math
import re

from .constants import METRES_PER_KM, METRES_PER_MILE, METRES_PER_NAUTICAL_MILE
from .errors import UnitError

_DISTANCE = re.compile(r"^\s*([-+]?\d+(?:\.\d+)?)\s*(m|km|mi|nm)?\s*$", re.IGNORECASE)
_FACTORS = {"m": 1.0, "km": METRES_PER_KM, "mi": METRES_PER_MILE, "nm": METRES_PER_NAUTICAL_MILE}


def to_radians(degrees: float) -> float:
    """Convert an angle from degrees to radians.

    Args:
        degrees: The angle in degrees; any finite value, not only 0-360.

    Returns:
        The angle in radians.

    Raises:
        ValueError: if ``degrees`` is NaN.
    """
    return math.radians(degrees)


def to_degrees(radians: float) -> float:
    """Convert an angle from radians to degrees.

    Args:
        radians: The angle in radians.

    Returns:
        The angle in degrees, not wrapped.
    """
    return math.degrees(radians)


def km_to_m(km: float) -> float:
    """Convert kilometres to metres.

    Returns:
        ``km * 1000`` as a float.
    """
    return km * METRES_PER_KM


def m_to_km(metres: float) -> float:
    """Convert metres to kilometres."""
    return metres / METRES_PER_KM


def miles_to_m(miles: float) -> float:
    """Convert international (statute) miles to metres; one mile is 1,609.344 m."""
    return miles * METRES_PER_MILE


def nm_to_m(nautical_miles: float) -> float:
    """Convert nautical miles to metres; one nautical mile is exactly 1,852 m."""
    return nautical_miles * METRES_PER_NAUTICAL_MILE


def normalize_longitude(lon: float) -> float:
    """Wrap a longitude into ``[-180, 180)``.

    Args:
        lon: Longitude in degrees, possibly beyond ±180 after arithmetic.

    Returns:
        The same meridian expressed in ``[-180, 180)``; ``180`` becomes ``-180``.
    """
    wrapped = math.fmod(lon + 180.0, 360.0)
    if wrapped < 0:
        wrapped += 360.0
    return wrapped - 180.0


def normalize_bearing(bearing: float) -> float:
    """Wrap a compass bearing into ``[0, 360)``.

    Args:
        bearing: Degrees clockwise from true north; negative values count anticlockwise.

    Returns:
        The bearing in ``[0, 360)``.
    """
    wrapped = math.fmod(bearing, 360.0)
    if wrapped < 0:
        wrapped += 360.0
    return 0.0 if wrapped == 360.0 else wrapped


def clamp_latitude(lat: float, limit: float = 90.0) -> float:
    """Clamp ``lat`` into ``[-limit, limit]``.

    Args:
        lat: Latitude in degrees.
        limit: The largest absolute latitude to keep, in degrees.

    Returns:
        ``lat`` limited to the range; values inside it are returned unchanged.
    """
    return max(-limit, min(limit, lat))


def parse_distance(text: str) -> float:
    """Read a distance such as ``"250 m"``, ``"1.5 km"``, ``"3 mi"`` or ``"12 nm"``.

    A bare number is taken as metres.

    Args:
        text: The distance as typed by a person.

    Returns:
        The distance in metres.

    Raises:
        UnitError: if the text is not a number followed by an optional unit.
    """
    match = _DISTANCE.match(text)
    if match is None:
        raise UnitError(f"cannot read a distance from {text!r}")
    value, unit = match.groups()
    return float(value) * _FACTORS[(unit or "m").lower()]
