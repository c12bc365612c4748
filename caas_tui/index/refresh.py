"""What one refresh of the index reports, and what one source file becomes in it.

Kept apart from ``store.py`` (which owns the files on disk and their locking) so the
layers above can name a refresh's outcome without importing the store.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from caas_tui.graph import Fragment, extract_fragment
from caas_tui.ingest import chunk_file
from caas_tui.limits import LARGE_FILE_BYTES, MAX_CHUNKS_PER_FILE
from caas_tui.models import Chunk, SourceFile
from caas_tui.sources import Skipped

Progress = Callable[[str, int, int], None]  # (stage, done, total)
Notify = Callable[[str], None]

# A worker process pays ~0.5 s of CPU to start and import the chunkers: only a big batch
# (a first index, a branch switch) is worth it; a save or two is chunked in this process.
POOL_MIN_FILES = 200
POOL_MIN_BYTES = 3_000_000

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


Chunked = tuple[list[Chunk], Fragment, list[str]]  # a file's chunks, graph fragment, warnings


def _chunk_one(src: SourceFile) -> Chunked:
    stats = RefreshStats()
    chunks, fragment = chunk_bounded(src, stats)
    return chunks, fragment, stats.warnings


def _exit_with(parent: int) -> None:
    """Worker initializer: exit when ``parent`` (the indexing process) is gone. A worker
    waits on a queue it also holds the writing end of, so a ``kill -9`` of the indexer
    would otherwise leave it (and its fork server) behind for good."""

    def watch() -> None:
        while True:
            time.sleep(1.0)
            try:
                os.kill(parent, 0)
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:
                continue  # the pid belongs to someone else now only if it was reused; keep going

    threading.Thread(target=watch, name="caas-parent-watch", daemon=True).start()


def chunk_files(todo: Sequence[SourceFile]) -> Iterator[Chunked]:
    """``chunk_bounded`` of each file, in order. A big batch is chunked by worker processes
    (all cores but one: that one feeds the lexical index as results arrive), so chunking,
    lexical writing and embedding overlap instead of running one after the other."""
    workers = max(1, (os.cpu_count() or 1) - 1)
    big = len(todo) >= POOL_MIN_FILES and sum(s.size for s in todo) >= POOL_MIN_BYTES
    # Workers are forked: no imports to redo and no ``__main__`` to re-run (spawn and the
    # fork server re-run a caller's script). Fork copies only the calling thread, so a
    # process with other threads (the app, the MCP server) chunks in this process instead.
    if not big or (os.cpu_count() or 1) < 2 or threading.active_count() > 1:
        yield from map(_chunk_one, todo)
        return
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_exit_with, initargs=(os.getpid(),)) as pool:
        yield from pool.map(_chunk_one, todo, chunksize=8)
