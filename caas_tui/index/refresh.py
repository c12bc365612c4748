"""What one refresh of the index reports, and what one source file becomes in it.

Kept apart from ``store.py`` (which owns the files on disk and their locking) so the
layers above can name a refresh's outcome without importing the store.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field

from caas_tui.graph import Fragment, extract_fragment
from caas_tui.ingest import chunk_file
from caas_tui.limits import LARGE_FILE_BYTES, MAX_CHUNKS_PER_FILE
from caas_tui.models import Chunk, SourceFile
from caas_tui.sources import Skipped

Progress = Callable[[str, int, int], None]  # (stage, done, total)
Notify = Callable[[str], None]

_EMBED_CHARS = 4000  # a static model averages token vectors: past this, more text only dilutes

def embed_text(chunk: Chunk) -> str:
    return (chunk.context_header() + "\n" + chunk.text)[:_EMBED_CHARS]



@dataclass(slots=True)
class RefreshStats:
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



def chunk_bounded(src: SourceFile, stats: RefreshStats) -> tuple[list[Chunk], Fragment]:
    """Chunks and graph fragment of one file, in memory proportional to the file: a file over
    LARGE_FILE_BYTES (only reachable by raising the size cap) is cut in line windows, never
    parsed (an AST of 20 MB of Python takes gigabytes), and keeps MAX_CHUNKS_PER_FILE chunks."""
    if src.size <= LARGE_FILE_BYTES:
        chunks = chunk_file(src)
        return chunks, extract_fragment(src, chunks)
    plain = dataclasses.replace(src, language="text")
    chunks = chunk_file(plain)
    if len(chunks) > MAX_CHUNKS_PER_FILE:
        stats.warnings.append(f"{src.path}: {len(chunks)} chunks, indexed the first {MAX_CHUNKS_PER_FILE} "
                              f"(up to line {chunks[MAX_CHUNKS_PER_FILE - 1].end_line})")
        chunks = chunks[:MAX_CHUNKS_PER_FILE]
    else:
        stats.warnings.append(f"{src.path}: over {LARGE_FILE_BYTES // 1_000_000} MB, indexed as plain text")
    return chunks, extract_fragment(plain, chunks)
