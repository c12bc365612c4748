"""Slippy-map tiles (the XYZ scheme of OpenStreetMap and most web maps).

At zoom ``z`` the Web Mercator square is cut into ``2**z`` columns and rows.
Column ``x`` counts east from the antimeridian; row ``y`` counts south from
the northern edge of the map. :class:`Tile` is one cell, :func:`tile_for`
finds the cell under a point and :func:`tiles_covering` lists the cells
under a :class:`~mapgrid.bbox.BBox`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .bbox import BBox
from .errors import TileError
from .mercator import pixel_xy
from .point import LatLon
from .validation import check_tile_index, check_zoom

DEFAULT_URL_TEMPLATE = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """One tile of the XYZ grid.

    Args:
        x: Column, ``0..2**z - 1`` from west to east.
        y: Row, ``0..2**z - 1`` from north to south.
        z: Zoom level.

    Raises:
        ZoomError: if ``z`` is out of range.
        TileError: if ``x`` or ``y`` does not exist at ``z``.
    """

    x: int
    y: int
    z: int

    def __post_init__(self) -> None:
        check_tile_index(self.x, self.y, self.z)

    def parent(self) -> Tile | None:
        """The tile one zoom level up that contains this one, or ``None`` for the root tile."""
        if self.z == 0:
            return None
        return Tile(self.x // 2, self.y // 2, self.z - 1)

    def children(self) -> tuple[Tile, Tile, Tile, Tile]:
        """The four tiles one level down, in the order north-west, north-east, south-west, south-east.

        Raises:
            ZoomError: if this tile is already at ``MAX_ZOOM``.
        """
        x, y, z = 2 * self.x, 2 * self.y, self.z + 1
        return Tile(x, y, z), Tile(x + 1, y, z), Tile(x, y + 1, z), Tile(x + 1, y + 1, z)

    def bounds(self) -> BBox:
        """The tile's extent as a longitude/latitude box."""
        n = 1 << self.z

        def lon(x: int) -> float:
            return x / n * 360.0 - 180.0

        def lat(y: int) -> float:
            return math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * y / n))))

        return BBox(lon(self.x), lat(self.y + 1), lon(self.x + 1), lat(self.y))

    def quadkey(self) -> str:
        """The Bing Maps quadkey: one digit 0-3 per zoom level, ``""`` for the root tile."""
        digits = []
        for level in range(self.z, 0, -1):
            mask = 1 << (level - 1)
            digits.append(str((1 if self.x & mask else 0) + (2 if self.y & mask else 0)))
        return "".join(digits)


def from_quadkey(key: str) -> Tile:
    """Parse a quadkey.

    Args:
        key: Digits ``0``-``3``; the empty string is the root tile.

    Returns:
        The tile at zoom ``len(key)``.

    Raises:
        TileError: if a character is not ``0``-``3``.
        ZoomError: if the key is longer than ``MAX_ZOOM``.
    """
    x = y = 0
    for char in key:
        if char not in "0123":
            raise TileError(f"quadkey {key!r} has a character outside 0-3: {char!r}")
        digit = int(char)
        x, y = (x << 1) | (digit & 1), (y << 1) | (digit >> 1)
    return Tile(x, y, len(key))


def tile_for(point: LatLon, zoom: int) -> Tile:
    """The tile that contains ``point`` at ``zoom``.

    Args:
        point: Any valid point; latitudes past the Mercator limit fall in the top or bottom row.
        zoom: Zoom level.

    Returns:
        The containing tile. A point on a tile edge belongs to the tile east and south of it.
    """
    n = 1 << check_zoom(zoom)
    px, py = pixel_xy(point, zoom, tile_size=1)
    return Tile(min(n - 1, max(0, math.floor(px))), min(n - 1, max(0, math.floor(py))), zoom)


def tiles_covering(bbox: BBox, zoom: int) -> list[Tile]:
    """Every tile at ``zoom`` that overlaps ``bbox``.

    Args:
        bbox: The area; it may cross the antimeridian.
        zoom: Zoom level.

    Returns:
        A set of tiles, one per overlapped cell.
    """
    top_left = tile_for(LatLon(bbox.north, bbox.west), zoom)
    bottom_right = tile_for(LatLon(bbox.south, bbox.east), zoom)
    n = 1 << zoom
    if bbox.crosses_antimeridian:
        columns = [*range(top_left.x, n), *range(0, bottom_right.x + 1)]
    else:
        columns = list(range(top_left.x, bottom_right.x + 1))
    return [Tile(x, y, zoom) for y in range(top_left.y, bottom_right.y + 1) for x in columns]


def tile_url(tile: Tile, template: str = DEFAULT_URL_TEMPLATE) -> str:
    """Fill a URL template with the tile's ``{z}``, ``{x}`` and ``{y}`` (``str.format`` fields).

    Args:
        tile: The tile.
        template: A template string with ``{z}``, ``{x}`` and ``{y}`` fields; ``{q}`` gives the quadkey.

    Returns:
        The URL.

    Raises:
        KeyError: if the template names a field other than z, x, y and q.
    """
    return template.format(z=tile.z, x=tile.x, y=tile.y, q=tile.quadkey())
