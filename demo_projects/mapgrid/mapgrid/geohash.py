"""Geohash encoding.

A geohash names a longitude/latitude cell with a short base-32 string; each
extra character makes the cell 32 times smaller. Neighbouring cells usually
share a prefix, which makes geohashes handy as database keys.
"""

from __future__ import annotations

from .bbox import BBox
from .constants import DEFAULT_GEOHASH_PRECISION, EARTH_RADIUS_M
from .point import LatLon
from .validation import GEOHASH_ALPHABET, check_geohash, check_precision

_DIRECTIONS = {"n": (1, 0), "ne": (1, 1), "e": (0, 1), "se": (-1, 1),
               "s": (-1, 0), "sw": (-1, -1), "w": (0, -1), "nw": (1, -1)}


def encode(point: LatLon, precision: int = DEFAULT_GEOHASH_PRECISION) -> str:
    """Geohash of the cell that contains ``point``.

    Args:
        point: The point to encode.
        precision: Number of characters, ``1..12``.

    Returns:
        The geohash, lower case.

    Raises:
        GeohashError: if ``precision`` is out of range.
    """
    check_precision(precision)
    lat_lo, lat_hi, lon_lo, lon_hi = -90.0, 90.0, -180.0, 180.0
    chars = []
    bits = 0
    value = 0
    even = True
    while len(chars) < precision:
        if even:
            mid = (lon_lo + lon_hi) / 2
            if point.lon >= mid:
                value = value * 2 + 1
                lon_lo = mid
            else:
                value *= 2
                lon_hi = mid
        else:
            mid = (lat_lo + lat_hi) / 2
            if point.lat >= mid:
                value = value * 2 + 1
                lat_lo = mid
            else:
                value *= 2
                lat_hi = mid
        even = not even
        bits += 1
        if bits == 5:
            chars.append(GEOHASH_ALPHABET[value])
            bits = value = 0
    return "".join(chars)


def decode_bounds(code: str) -> BBox:
    """The cell a geohash names.

    Args:
        code: A geohash; upper case is accepted.

    Returns:
        The cell as a box.

    Raises:
        GeohashError: if ``code`` is empty, longer than 12 characters or not base-32.
    """
    code = check_geohash(code)
    lat_lo, lat_hi, lon_lo, lon_hi = -90.0, 90.0, -180.0, 180.0
    even = True
    for char in code:
        value = GEOHASH_ALPHABET.index(char)
        for shift in range(4, -1, -1):
            bit = (value >> shift) & 1
            if even:
                mid = (lon_lo + lon_hi) / 2
                lon_lo, lon_hi = (mid, lon_hi) if bit else (lon_lo, mid)
            else:
                mid = (lat_lo + lat_hi) / 2
                lat_lo, lat_hi = (mid, lat_hi) if bit else (lat_lo, mid)
            even = not even
    return BBox(lon_lo, lat_lo, lon_hi, lat_hi)


def decode(code: str) -> LatLon:
    """Centre of the cell a geohash names.

    Args:
        code: A geohash.

    Returns:
        The centre point, or ``None`` when the code is not a valid geohash.
    """
    box = decode_bounds(code)
    return LatLon((box.south + box.north) / 2, (box.west + box.east) / 2)


def neighbour(code: str, direction: str) -> str:
    """The geohash of the same length next to ``code`` in a compass ``direction``.

    Args:
        code: A geohash.
        direction: One of ``n``, ``ne``, ``e``, ``se``, ``s``, ``sw``, ``w``, ``nw``.

    Returns:
        The neighbouring geohash; east of the antimeridian wraps, north of the pole stays in the top row.

    Raises:
        KeyError: if ``direction`` is not a compass point.
    """
    dlat, dlon = _DIRECTIONS[direction]
    box = decode_bounds(code)
    lat = (box.south + box.north) / 2 + dlat * box.height
    lon = (box.west + box.east) / 2 + dlon * box.width
    lat = max(-90.0, min(90.0, lat))
    lon = (lon + 180.0) % 360.0 - 180.0
    return encode(LatLon(lat, lon), len(code))


def neighbours(code: str) -> dict[str, str]:
    """All eight neighbours of ``code``, keyed by compass direction."""
    return {d: neighbour(code, d) for d in _DIRECTIONS}


def cell_size(precision: int) -> tuple[float, float]:
    """Approximate ``(width, height)`` in metres of a cell at the equator.

    Raises:
        GeohashError: if ``precision`` is out of range.
    """
    check_precision(precision)
    lon_bits = (5 * precision + 1) // 2
    lat_bits = 5 * precision // 2
    metres_per_degree = EARTH_RADIUS_M * 3.141592653589793 / 180.0
    return 360.0 / (1 << lon_bits) * metres_per_degree, 180.0 / (1 << lat_bits) * metres_per_degree
