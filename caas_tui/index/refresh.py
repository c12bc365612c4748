"""What one source file becomes in the index when a refresh chunks it (the build path).

Kept apart from ``store.py`` (which owns the files on disk and their locking). What a
refresh reports and takes (``RefreshStats``, ``Progress``, ``Notify``) lives in
``refreshstats.py``, so a search that finds the index clean never imports this module.
"""

from __future__ import annotations

import dataclasses
import gc
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from caas_tui.graph import extract_fragment
from caas_tui.index.protocols import Encoder
from caas_tui.index.refreshstats import Notify as Notify  # re-exported: older importers name them here
from caas_tui.index.refreshstats import Progress as Progress
from caas_tui.index.refreshstats import RefreshStats, embed_text
from caas_tui.limits import LARGE_FILE_BYTES, MAX_CHUNKS_PER_FILE
from caas_tui.models import Chunk, SourceFile

if TYPE_CHECKING:
    from concurrent.futures import Future

    import numpy as np

    from caas_tui.graph import Fragment

# A worker process pays ~0.5 s of CPU to start and import the chunkers: only a big batch
# (a first index, a branch switch) is worth it; a save or two is chunked in this process.
POOL_MIN_FILES = 200
POOL_MIN_BYTES = 3_000_000


def chunk_bounded(src: SourceFile, stats: RefreshStats) -> tuple[list[Chunk], Fragment]:
    """Chunks and graph fragment of one file, in memory proportional to the file: a file over
    LARGE_FILE_BYTES (only reachable by raising the size cap) is cut in line windows, never
    parsed (an AST of 20 MB of Python takes gigabytes), and keeps MAX_CHUNKS_PER_FILE chunks."""
    from caas_tui.ingest import chunk_file  # the chunkers load only when a file changed (a search's refresh)

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


Tokens = Callable[[Sequence[Chunk]], "list[bytes | None]"]  # chunks -> their token-stage blobs (index/tokenids.py)
Analysis = Callable[[Sequence[Chunk]], Sequence[object]]  # chunks -> their lexical analysis (protocols.PreAnalyzed)


@dataclass(frozen=True, slots=True)
class Computed:
    """What a chunking worker computed for one file's chunks besides chunking them: their
    vectors (rows in chunk order), token-stage blobs and lexical analysis, each None when the
    caller is to."""

    vectors: np.ndarray | None = None
    tokens: list[bytes | None] | None = None
    lexical: Sequence[object] | None = None


NOTHING_COMPUTED = Computed()


class FragmentLine(NamedTuple):
    """A file's graph fragment as its ``graph.jsonl`` line, the form a build holds it in
    (``graph.FragmentLines``). A worker encodes it and sends the line: unpickling the
    fragment's objects instead took the indexing process about a second of the stdlib's
    build, and encoding them there a quarter more."""

    path: str
    line: str


def fragment_line(fragment: Fragment) -> FragmentLine:
    from caas_tui.graph import FragmentLines

    lines = FragmentLines()
    lines[fragment.path] = fragment
    return FragmentLine(fragment.path, lines.line(fragment.path))


# A file's chunks, graph fragment, warnings and what was computed for its chunks
Chunked = tuple[list[Chunk], FragmentLine, list[str], Computed]
FILES_PER_TASK = 8  # files per worker task: one encode call per few hundred chunks
# Past either backlog of the indexing process, the worker embeds the next task's chunks and makes
# their token blobs: finished tasks not taken yet, or chunks it has yet to embed. 0 tasks (embed at
# any backlog) balanced a Whoosh build better (main / worker CPU 16.8 / 17.2 s) but starved
# tantivy's (7.3 / 17.8 s). With tantivy's analysis in the worker, 1,024 chunks (one encode batch
# in flight already passes it) gave 7.7 / 11.8 s, three batches 9.3 / 9.5 s (stdlib copy, load ~6).
BEHIND_TASKS = 1
BEHIND_CHUNKS = 3072
LOOKAHEAD_TASKS = 16  # tasks submitted ahead of the one the indexing process waits for


def _chunk_batch(batch: Sequence[SourceFile], encoder: Encoder | None, tokens: Tokens | None = None,
                 analysis: Analysis | None = None) -> list[Chunked]:
    """Chunk each file of ``batch``; with an ``encoder``, embed all their chunks in one call,
    with ``tokens``, make their token-stage blobs in one call, with ``analysis``, their lexical analysis."""
    done: list[tuple[list[Chunk], FragmentLine, list[str]]] = []
    for src in batch:
        stats = RefreshStats()
        chunks, parsed = chunk_bounded(src, stats)
        done.append((chunks, fragment_line(parsed), stats.warnings))
    if encoder is None and tokens is None and analysis is None:
        return [(chunks, fragment, warnings, NOTHING_COMPUTED) for chunks, fragment, warnings in done]
    every = [c for chunks, _f, _w in done for c in chunks]
    vectors = encoder.encode([embed_text(c) for c in every]) if encoder is not None else None
    blobs = tokens(every) if tokens is not None else None
    analyzed = analysis(every) if analysis is not None else None
    out: list[Chunked] = []
    row = 0
    for chunks, line, warnings in done:
        end = row + len(chunks)
        out.append((chunks, line, warnings, Computed(None if vectors is None else vectors[row:end],
                                                         None if blobs is None else blobs[row:end],
                                                         None if analyzed is None else analyzed[row:end])))
        row = end
    return out


class _Worker:
    """What a chunking worker inherits through fork (never pickled): the encoder and shared
    counters of tasks finished by the workers and taken by the indexing process."""

    encoder: Encoder | None = None
    tokens: Tokens | None = None
    analysis: Analysis | None = None
    finished: Any = None  # multiprocessing.Value("q")
    taken: Any = None
    unembedded: Any = None  # chunks the indexing process has still to embed


def _worker_batch(batch: Sequence[SourceFile]) -> list[Chunked]:
    # The indexing process embeds in a thread while it writes the lexical index; when it
    # falls behind (Whoosh's writer is slower than chunking, tantivy's is not) the worker
    # embeds and makes the token blobs too, so the two cores share the work whichever side
    # is slower. The lexical analysis, where the backend's can run here, is always done here.
    # tantivy, stdlib copy, CPU of the indexing process / the worker (load ~4): blobs always
    # made here 6.1 / 12.8 s, when behind 9.0 / 9.5-10.2 s.
    behind = (_Worker.finished.value - _Worker.taken.value > BEHIND_TASKS
              or _Worker.unembedded.value > BEHIND_CHUNKS)
    out = _chunk_batch(batch, _Worker.encoder if behind else None, _Worker.tokens if behind else None,
                       _Worker.analysis)
    with _Worker.finished.get_lock():
        _Worker.finished.value += 1
    return out


def _start_worker(parent: int, encoder: Encoder, tokens: Tokens | None, analysis: Analysis | None, finished: Any,
                  taken: Any, unembedded: Any) -> None:
    """Worker initializer: keep what :class:`_Worker` holds, and exit when ``parent`` (the
    indexing process) is gone. A worker waits on a queue it also holds the writing end
    of, so a ``kill -9`` of the indexer would otherwise leave it (and its fork server)
    behind for good."""
    _Worker.encoder, _Worker.tokens, _Worker.analysis = encoder, tokens, analysis
    _Worker.finished, _Worker.taken, _Worker.unembedded = finished, taken, unembedded
    # Everything inherited from the parent stays alive: out of the collector's passes with it.
    gc.freeze()
    # The tokenizer's thread pool does not survive a fork (it would warn and switch
    # itself off); the worker is a core of its own already.
    os.environ["TOKENIZERS_PARALLELISM"] = "false"

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


class OrderedVectors:
    """The vectors of a build's chunks in arrival order: rows a worker computed, or (for
    chunks that came without) an encode job started by ``submit`` per ``batch`` chunks."""

    def __init__(self, submit: Callable[[list[Chunk]], Future[np.ndarray]], batch: int) -> None:
        self._submit = submit
        self._batch = batch
        self._pieces: deque[tuple[list[Chunk], np.ndarray | Future[np.ndarray]]] = deque()
        self._waiting: list[Chunk] = []  # came without vectors, not yet handed to ``submit``
        self._encoding: list[tuple[int, Future[np.ndarray]]] = []  # handed over, maybe not done

    def unembedded(self) -> int:
        """Chunks whose vectors are still to be computed here."""
        self._encoding = [(n, job) for n, job in self._encoding if not job.done()]
        return len(self._waiting) + sum(n for n, _job in self._encoding)

    def add(self, chunks: list[Chunk], vectors: np.ndarray | None) -> None:
        if vectors is None:
            self._waiting.extend(chunks)
            if len(self._waiting) >= self._batch:
                self._hand_over()
        elif chunks:
            self._hand_over()
            self._pieces.append((chunks, vectors))

    def _hand_over(self) -> None:
        if self._waiting:
            batch, self._waiting = self._waiting, []
            job = self._submit(batch)
            self._encoding.append((len(batch), job))
            self._pieces.append((batch, job))

    def ready(self) -> Iterator[tuple[list[Chunk], np.ndarray]]:
        """The leading pieces whose vectors are done, in order, each forgotten once yielded:
        a build stores them as it goes instead of holding every chunk and row to the end."""
        from concurrent.futures import Future  # build only: it imports logging, which a search never needs

        while self._pieces and not (isinstance(self._pieces[0][1], Future) and not self._pieces[0][1].done()):
            chunks, rows = self._pieces.popleft()
            yield chunks, rows if not isinstance(rows, Future) else rows.result()

    def finish(self) -> Iterator[tuple[list[Chunk], np.ndarray]]:
        """Every piece not yielded yet, in order, waiting for its encode job where there is one."""
        from concurrent.futures import Future

        self._hand_over()
        while self._pieces:
            chunks, rows = self._pieces.popleft()
            yield chunks, rows if not isinstance(rows, Future) else rows.result()


def chunk_files(todo: Sequence[SourceFile], encoder: Encoder, unembedded: Callable[[], int] = lambda: 0,
                tokens: Tokens | None = None, analysis: Analysis | None = None) -> Iterator[Chunked]:
    """``chunk_bounded`` of each file, in order; vectors of a file's chunks where a worker
    embedded them. A big batch is chunked by worker processes (all cores but one: that
    one feeds the lexical index as results arrive and embeds the rest), so chunking,
    lexical writing and embedding overlap instead of running one after the other.
    ``unembedded``: how many chunks the caller has yet to embed (its backlog); ``tokens``:
    the workers also make the chunks' token-stage blobs with it (in this process the caller does);
    ``analysis``: and their lexical analysis, likewise."""
    # Sliced as they are handed out: no second list of every file (a 500k-chunk build holds
    # hundreds of MB of source text).
    batches = (todo[i : i + FILES_PER_TASK] for i in range(0, len(todo), FILES_PER_TASK))
    workers = max(1, (os.cpu_count() or 1) - 1)
    big = len(todo) >= POOL_MIN_FILES and sum(s.size for s in todo) >= POOL_MIN_BYTES
    # Workers are forked: no imports to redo and no ``__main__`` to re-run (spawn and the
    # fork server re-run a caller's script). Fork copies only the calling thread, so a
    # process with other threads (the app, the MCP server) chunks in this process instead.
    if not big or (os.cpu_count() or 1) < 2 or threading.active_count() > 1:
        for batch in batches:
            yield from _chunk_batch(batch, None)
        return
    # imported here: every one-shot command imports this module, few of them chunk a big batch
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork")
    finished, taken, backlog = context.Value("q", 0), context.Value("q", 0), context.Value("q", 0)
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                             initargs=(os.getpid(), encoder, tokens, analysis, finished, taken, backlog)) as pool:
        # A bounded look-ahead of tasks instead of ``pool.map``, which submits every task
        # (and keeps its files and its result) until the end.
        running: deque[Future[list[Chunked]]] = deque()
        for batch in batches:
            running.append(pool.submit(_worker_batch, batch))
            if len(running) >= LOOKAHEAD_TASKS:
                yield from _take(running.popleft(), taken, backlog, unembedded)
        while running:
            yield from _take(running.popleft(), taken, backlog, unembedded)


def _take(job: Future[list[Chunked]], taken: Any, backlog: Any, unembedded: Callable[[], int]) -> Iterator[Chunked]:
    done = job.result()
    with taken.get_lock():
        taken.value += 1
    yield from done
    backlog.value = unembedded()
