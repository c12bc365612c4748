"""Settings for :class:`mapgrid.grid.TileGrid`."""

from __future__ import annotations

from dataclasses import dataclass, field

from .constants import DEFAULT_BUFFER_M, DEFAULT_CACHE_ITEMS, DEFAULT_CACHE_TTL_S, TILE_SIZE_PX
from .tiles import DEFAULT_URL_TEMPLATE


@dataclass(frozen=True, slots=True)
class GridSettings:
    """How a tile grid is served.

    Args:
        tile_size: Tile edge in pixels.
        min_zoom: Shallowest zoom level served.
        max_zoom: Deepest zoom level served; OpenStreetMap's standard layer stops at 19.
        url_template: ``str.format`` template with ``{z}``, ``{x}``, ``{y}`` (and optionally ``{q}``).
        timeout: Seconds to wait for one tile download.
        buffer: Metres added around an area before it is covered with tiles.
        cache_items: Size of the grid's :class:`~mapgrid.cache.TileCache`.
        cache_ttl: Seconds a downloaded tile stays fresh.
        headers: Extra HTTP headers sent with each download.
    """

    tile_size: int = TILE_SIZE_PX
    min_zoom: int = 0
    max_zoom: int = 19
    url_template: str = DEFAULT_URL_TEMPLATE
    timeout: float = 2.5
    buffer: float = DEFAULT_BUFFER_M
    cache_items: int = DEFAULT_CACHE_ITEMS
    cache_ttl: float = DEFAULT_CACHE_TTL_S
    headers: dict[str, str] = field(default_factory=lambda: {"User-Agent": "mapgrid/2.1"})

    def __post_init__(self) -> None:
        if not 0 <= self.min_zoom <= self.max_zoom:
            raise ValueError(f"zoom range {self.min_zoom}..{self.max_zoom} is empty or negative")
