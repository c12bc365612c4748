"""What a refresh of the index reports and takes, apart from how it does it (``refresh.py``).

A search on a clean index names these (it gets a :class:`RefreshStats` back from the
freshness check, and embeds a query's candidates as :func:`embed_text` does) but chunks
no file: importing ``refresh.py`` for them loaded the build path's graph extraction,
worker and vector-ordering code on every one-shot ``search``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from caas_tui.models import Chunk
    from caas_tui.sources import Skipped

Progress = Callable[[str, int, int], None]  # (stage, done, total)
Notify = Callable[[str], None]

_EMBED_CHARS = 4000  # a static model averages token vectors: past this, more text only dilutes


def embed_text(chunk: Chunk) -> str:
    return (chunk.context_header() + "\n" + chunk.text)[:_EMBED_CHARS]


@dataclass(slots=True)
class RefreshStats:
    """What one refresh or rebuild did: files and chunks added, changed, removed, skipped."""

    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    chunks_added: int = 0
    chunks_removed: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    rebuilt: bool = False
    reloaded: bool = False  # another process had changed the index; it was re-read
    seconds: float = 0.0

    @property
    def changed_any(self) -> bool:
        return bool(self.added or self.changed or self.removed or self.reloaded or self.rebuilt)
