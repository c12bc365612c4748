"""Stream a build's chunks into the index parts as they are made.

A build holds about one batch of chunks, not all of them (500k chunks took 3.6 GB when
they were held until the commit). Everything written here stays invisible until the
store commits: an open SQLite transaction, an uncommitted lexical writer, vectors in
memory.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial

import numpy as np

from caas_tui.errors import IndexStoreError
from caas_tui.graph import Fragment, FragmentLines
from caas_tui.index.chunkdb import ChunkWriter
from caas_tui.index.manifest import FileRecord, Manifest
from caas_tui.index.protocols import Encoder, LexicalBackend, PreAnalyzed, VectorIndex
from caas_tui.index.refresh import FragmentLine, OrderedVectors, chunk_files
from caas_tui.index.refreshstats import Progress, RefreshStats
from caas_tui.index.tokenids import token_blobs
from caas_tui.models import Chunk, SourceFile

EMBED_BATCH = 1024  # chunks per encode call
FEED_BATCH = 2000  # chunks handed to the lexical writer at a time while files are still being chunked

# Takes the place of each file in a build's list once chunked, so its text is not held to the end
DONE_FILE = SourceFile(path="", kind="code", language="text", text="", mtime=0.0, sha256="", size=0)


@dataclass(frozen=True)
class BuildTargets:
    """Where one build writes: the store's parts, still uncommitted."""

    rows: ChunkWriter
    lexical: LexicalBackend
    vectors: VectorIndex
    manifest: Manifest
    fragments: MutableMapping[str, Fragment]  # symbol graph, per file
    encoder: Encoder  # chunk_files embeds with it in the worker when this process lags
    encode: Callable[[list[Chunk]], np.ndarray]  # this process's embedding of a batch


def stream_chunks(todo: list[SourceFile], targets: BuildTargets, stats: RefreshStats,
                  progress: Progress | None) -> None:
    """Chunk and embed ``todo`` (each entry is replaced by :data:`DONE_FILE` once chunked),
    writing each batch of chunks to the chunk store, the lexical writer and the vector
    index as it is ready."""
    # Both cores: files are chunked (and, when this process falls behind, embedded) in a
    # worker process while this thread writes the lexical segment (invisibly) as chunks
    # arrive and a thread embeds the rest. Vectors are stored in chunk order.
    # Measured on the stdlib (26k chunks), CPU of this process / the worker: Whoosh
    # 31.5-36.2 / 7.2-7.7 s when only this process embedded, 16.8-20.3 / 17.2-18.1 s now.
    rows, lexical, vectors, encoder = targets.rows, targets.lexical, targets.vectors, targets.encoder
    batch: list[Chunk] = []
    blobs: list[bytes | None] = []  # token-stage blobs of ``batch``, where a worker made them
    unmade: list[int] = []  # places in ``batch`` whose blobs are made here
    total, embedded = len(todo), 0

    with ThreadPoolExecutor(1, thread_name_prefix="caas-embed") as pool:
        ordered = OrderedVectors(lambda part: pool.submit(targets.encode, part), EMBED_BATCH)

        def flush() -> int:
            """Hand ``batch`` on; store the vectors done so far; return how many."""
            if unmade:
                for place, blob in zip(unmade, token_blobs(encoder, [batch[i] for i in unmade]), strict=True):
                    blobs[place] = blob
            rows.add(batch, blobs)  # stored, a search need not load a tokenizer for them
            lexical.prepare()
            stored = 0
            for piece, matrix in ordered.ready():
                vectors.upsert([c.id for c in piece], matrix)
                stored += len(piece)
            batch.clear()
            blobs.clear()
            unmade.clear()
            return stored

        # the workers (when there are) also make the token blobs when this process lags behind,
        # and the lexical analysis, where the backend's can run there
        pre = lexical if isinstance(lexical, PreAnalyzed) else None
        analysis = pre.analysis() if pre is not None else None
        for i, (chunks, fragment, warnings, computed) in enumerate(
                chunk_files(todo, encoder, ordered.unembedded, partial(token_blobs, encoder), analysis), 1):
            src, todo[i - 1] = todo[i - 1], DONE_FILE  # let go of the file's text: chunk_files slices only ahead
            stats.warnings.extend(warnings)
            stats.chunks_added += len(chunks)
            _keep_fragment(targets.fragments, src.path, fragment)
            targets.manifest.files[src.path] = FileRecord(
                sha256=src.sha256, mtime=src.mtime, size=src.size, kind=src.kind, chunks=[c.id for c in chunks]
            )
            if computed.lexical is not None and pre is not None:
                pre.add_analyzed(chunks, computed.lexical)
            else:
                lexical.add(chunks)
            ordered.add(chunks, computed.vectors)
            if computed.tokens is None:
                unmade.extend(range(len(batch), len(batch) + len(chunks)))
                blobs.extend([None] * len(chunks))
            else:
                blobs.extend(computed.tokens)
            batch.extend(chunks)
            if len(batch) >= FEED_BATCH:
                embedded += flush()
            if progress and (i % 50 == 0 or i == total):
                progress("chunking", i, total)
        embedded += flush()
        if progress:
            progress("embedding", embedded, stats.chunks_added)
        for piece, matrix in ordered.finish():
            vectors.upsert([c.id for c in piece], matrix)
            embedded += len(piece)
            if progress:
                progress("embedding", embedded, stats.chunks_added)
    if rows.added != stats.chunks_added:
        raise IndexStoreError(f"{rows.added} chunk rows written for {stats.chunks_added} chunks")


def _keep_fragment(fragments: MutableMapping[str, Fragment], path: str, fragment: FragmentLine) -> None:
    if isinstance(fragments, FragmentLines):  # what a store holds: the line as it is
        fragments.put_line(path, fragment.line)
    else:
        lines = FragmentLines()
        lines.put_line(path, fragment.line)
        fragments[path] = lines[path]
