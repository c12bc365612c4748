"""Whoosh BM25F over chunks: the lexical half of hybrid retrieval.

Writes are buffered in memory and applied by ``commit()`` with one short-lived
writer, so the index lock is held only while committing and a failed commit
cancels the writer instead of leaving the directory locked. Every commit opens a
fresh searcher: ``Searcher.refresh()`` was seen returning deleted documents.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import time
from collections.abc import Callable, Generator, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from whoosh import index as whoosh_index
from whoosh.collectors import Collector, WrappingCollector
from whoosh.fields import ID, TEXT, Schema
from whoosh.formats import Frequency
from whoosh.index import LockError
from whoosh.query import Or, Phrase, Query, Term
from whoosh.reading import IndexReader, SegmentReader
from whoosh.scoring import BM25F
from whoosh.searching import Searcher, TimeLimit
from whoosh.system import pack_uint

from caas_tui.errors import IndexStoreError
from caas_tui.index.analysis import CodeAnalyzer, code_analyzer
from caas_tui.index.lexical_plan import (
    PREFIX_TOP,
    SYMBOL_BOOST,
    TIME_LIMIT,
    Clause,
    plan_queries,
)
from caas_tui.index.pending import AnalyzedWriter
from caas_tui.index.whoosh_lazy import mapped_storage_class
from caas_tui.models import Chunk, Kind

if TYPE_CHECKING:
    # Writing loads on the first write: a one-shot search only reads (issue 20).
    from whoosh.writing import SegmentWriter

# A chunk's term counts (UTF-8 terms) per frequency-only field, as ``FastSegmentWriter.add_chunk`` takes them
ChunkCounts = dict[str, dict[bytes, int]]
COUNTED = ("path", "content")  # the fields a build's chunking worker counts (``WhooshLexical.analysis``)

PREFIX_SCAN = 4096  # terms scanned per field and prefix: bounds a keystroke's cost
LOCK_TIMEOUT = 2.0  # seconds to wait for another writer's commit to finish
REWRITE_DELETED = 0.3  # a segment with more deleted documents is rewritten at commit
LIMIT_MB = 512  # writer memory before spilling sorted runs to disk: at 128 the stdlib build spilled twice
# and pickling every posting through the runs cost ~35% of the lexical build (+110 MB RSS at 26k chunks)


class CodeText(TEXT):
    """A TEXT field whose frequency-only postings are counted by ``CodeAnalyzer.term_counts``
    instead of one Token object per term: the same postings, a third of the analysis time
    of the stdlib build. Positional fields (``symbol``) take Whoosh's own path."""

    def index(self, value: Any, **kwargs: Any) -> Generator[tuple[bytes, int, float | int, bytes], Any, None]:
        analyzer = self.analyzer
        if not (isinstance(self.format, Frequency) and isinstance(analyzer, CodeAnalyzer) and isinstance(value, str)):
            yield from super().index(value, **kwargs)
            return
        boost = self.format.field_boost
        for text, freq in analyzer.term_counts(value).items():
            yield text.encode("utf-8"), freq, freq * boost, pack_uint(freq)


def chunk_counts(analyzers: tuple[tuple[str, CodeAnalyzer], ...], chunks: Sequence[Chunk]) -> list[ChunkCounts]:
    """Each chunk's term counts for the ``(field, analyzer)`` pairs, as ``CodeText.index`` counts
    them. A build's chunking worker runs this (``PreAnalyzed``): in the indexing process the
    counting was a fifth of a Whoosh build's CPU there, the process that limits the build."""
    out: list[ChunkCounts] = []
    path: str | None = None
    path_counts: ChunkCounts = {}
    for c in chunks:
        fields = _fields(c)
        if c.path != path:  # a file's chunks arrive together; one dict serves them all (pickled once)
            path, path_counts = c.path, {}
        counts: ChunkCounts = {}
        for name, analyzer in analyzers:
            if name == "path":
                found = path_counts.get(name)
                if found is None:
                    found = path_counts[name] = _encoded(analyzer.term_counts(fields[name]))
                counts[name] = found
            else:
                counts[name] = _encoded(analyzer.term_counts(fields[name]))
        out.append(counts)
    return out


def _encoded(counts: dict[str, int]) -> dict[bytes, int]:
    return {text.encode("utf-8"): n for text, n in counts.items()}


def make_schema() -> Schema:
    names = code_analyzer()  # one instance for short fields: they share its term cache
    return Schema(
        id=ID(unique=True, stored=True),
        kind=ID(),
        path_exact=ID(),
        path=CodeText(analyzer=names, phrase=False),
        symbol=TEXT(analyzer=names, phrase=True, field_boost=SYMBOL_BOOST),
        # Bodies: no positions (no query uses them) and no dotted-name terms: those
        # were 70% of all distinct terms and ~40% of build time on the stdlib; the
        # whole segment (``remove_body``) still matches, dotted names match ``symbol``.
        content=CodeText(analyzer=CodeAnalyzer(dotted=0), phrase=False),
    )


class WhooshLexical(AnalyzedWriter["SegmentWriter", ChunkCounts]):
    """``LexicalBackend`` over a Whoosh index directory."""

    def __init__(self, ix: whoosh_index.FileIndex, directory: Path) -> None:  # use create/open
        super().__init__()
        self._ix = ix
        self._dir = directory
        analyzer = ix.schema["symbol"].analyzer  # its terms are a superset of content's
        if set(ix.schema.names()) != set(make_schema().names()) or not isinstance(analyzer, CodeAnalyzer):
            raise IndexStoreError(f"lexical index at {directory} has an incompatible schema; rebuild it")
        self._analyzer: CodeAnalyzer = analyzer
        # path and content as the schema analyzes them, where chunk_counts can count them
        self._counted: tuple[tuple[str, CodeAnalyzer], ...] = tuple(
            (name, analyzer) for name in COUNTED if isinstance(field := ix.schema[name], CodeText)
            and isinstance(field.format, Frequency) and isinstance(analyzer := field.analyzer, CodeAnalyzer))
        self._searcher: Searcher = self._new_searcher()
        self._closed = False
        self._filters: dict[frozenset[str], set[int]] = {}
        self.time_limit = TIME_LIMIT

    @classmethod
    def create(cls, directory: Path) -> WhooshLexical:
        """A new, empty index in ``directory`` (created; a previous index there is replaced)."""
        try:
            directory.mkdir(parents=True, exist_ok=True)
            ix = mapped_storage_class()(str(directory)).create_index(make_schema())
        except OSError as exc:
            raise IndexStoreError(f"cannot create lexical index at {directory}: {exc}") from exc
        return cls(ix, directory)

    @classmethod
    def open(cls, directory: Path) -> WhooshLexical:
        """Open an existing index; ``IndexStoreError`` if missing, corrupt or locked."""
        if not directory.is_dir():
            raise IndexStoreError(f"no lexical index at {directory}")
        try:
            if not whoosh_index.exists_in(str(directory)):
                raise IndexStoreError(f"no lexical index at {directory}")
            ix = mapped_storage_class()(str(directory)).open_index()  # sub-files read in place, not copied
            _wait_unlocked(ix, directory)
            return cls(ix, directory)
        except IndexStoreError:
            raise
        except Exception as exc:  # any failure decoding the index files means corruption
            raise IndexStoreError(
                f"lexical index at {directory} is corrupt ({type(exc).__name__}); rebuild it"
            ) from exc

    def _open_writer(self) -> SegmentWriter:
        from caas_tui.index.whoosh_writer import FastSegmentWriter

        try:
            return FastSegmentWriter(self._ix, timeout=LOCK_TIMEOUT, delay=0.05, limitmb=LIMIT_MB)
        except LockError as exc:
            raise IndexStoreError(f"lexical index at {self._dir} is locked by another writer") from exc

    # -- writing -----------------------------------------------------------------
    def analysis(self) -> Callable[[Sequence[Chunk]], Sequence[object]]:
        return partial(chunk_counts, self._counted)

    def _feed(self, writer: SegmentWriter, deletes: Iterable[str], chunks: Iterable[Chunk] = ()) -> None:
        try:
            # Whoosh's update_document only replaces committed documents, so
            # a batch deletes every touched id once, then adds plainly.
            if self._searcher.doc_count_all():
                for cid in deletes:
                    writer.delete_by_term("id", cid)
            add_chunk = getattr(writer, "add_chunk", None)  # FastSegmentWriter's
            if add_chunk is None:
                for chunk in chunks:
                    self._analyzed.pop(chunk.id, None)
                    writer.add_document(**_fields(chunk))
                return
            analyzed, counted = self._analyzed, self._counted
            for chunk in chunks:
                # counted once fed: a writer redone from the buffers (a stale one) counts here
                counts = analyzed.pop(chunk.id, None)
                if counts is None:
                    counts = chunk_counts(counted, [chunk])[0]
                add_chunk(_fields(chunk), counts)
        except BaseException as exc:
            self._cancel(writer)
            if isinstance(exc, OSError):
                raise IndexStoreError(f"cannot write lexical index at {self._dir}: {exc}") from exc
            raise

    def _abort_writer(self, writer: SegmentWriter) -> None:
        if not writer.is_closed:
            with contextlib.suppress(Exception):  # cleanup must not mask the real error
                writer.cancel()  # releases the write lock

    def _commit_writer(self, writer: SegmentWriter) -> None:
        try:
            writer.commit(mergetype=_merge_policy)
        except OSError as exc:
            raise IndexStoreError(f"cannot write lexical index at {self._dir}: {exc}") from exc

    def _committed(self) -> None:
        old, self._searcher = self._searcher, self._new_searcher()
        self._filters.clear()  # docnums belong to the old searcher
        old.close()

    def search(
        self,
        query: str,
        k: int,
        kinds: Sequence[Kind] | None = None,
        *,
        prefix_last: bool = False,
    ) -> list[tuple[str, float]]:
        """Up to ``k`` ``(chunk_id, score)`` pairs, best first. Never raises on query text."""
        if k < 1 or (kinds is not None and not kinds):
            return []
        with self._lock:
            self._check_open()
            searcher = self._searcher
            flt = self._kind_filter(searcher, kinds) if kinds is not None else None
            if flt is not None and not flt:
                return []  # an empty set would read as "no filter" to Whoosh
            found: list[tuple[str, float]] = []
            for q in build_queries(self._analyzer, query, searcher.reader(), prefix_last=prefix_last):
                found = self._run(searcher, q, k, flt)
                if len(found) >= k:
                    break  # the cheap query filled k; else the full one runs
            return found

    def _kind_filter(self, searcher: Searcher, kinds: Sequence[Kind]) -> set[int]:
        # Whoosh re-evaluates a query filter on every search (it doubled query
        # time); the docnum set is fixed for a searcher, so it is cached until commit.
        key = frozenset(kinds)
        docs = self._filters.get(key)
        if docs is None:
            docs = set(searcher.docs_for_query(Or([Term("kind", kind) for kind in key])))
            self._filters[key] = docs
        return docs

    def _run(self, searcher: Searcher, q: Query, k: int, flt: set[int] | None) -> list[tuple[str, float]]:
        # optimize=False: the block-quality optimisation has hung for minutes on
        # combined queries (field notes). No SIGALRM: this is a library and may
        # run in the main thread of an app with its own signal handling.
        collector = searcher.collector(limit=k, optimize=False, filter=flt)
        timed = DeadlineCollector(collector, self.time_limit)
        with contextlib.suppress(TimeLimit):  # the partial top-k collected so far is still ranked
            searcher.search_with_collector(q, timed)
        return [(hit["id"], float(hit.score)) for hit in timed.results()[:k]]

    def doc_count(self) -> int:
        with self._lock:
            self._check_open()
            return self._searcher.doc_count()

    def close(self) -> None:
        """Release the searcher. Uncommitted changes are dropped. Idempotent."""
        with self._lock:
            self._drop_pending()
            self._analyzed.clear()
            if not self._closed:
                self._closed = True
                self._searcher.close()

    def _check_open(self) -> None:
        if self._closed:
            raise IndexStoreError(f"lexical index at {self._dir} is closed")

    def _new_searcher(self) -> Searcher:
        return self._ix.searcher(weighting=BM25F())


def _merge_policy(writer: SegmentWriter, segments: list[Any]) -> list[Any]:
    """Whoosh's MERGE_SMALL, after dropping dead weight it would keep forever.

    MERGE_SMALL keeps fully deleted segments and never purges deletions from a
    big segment; after re-indexing the stdlib once, queries scanned 2x the
    postings (p50 20 -> 54 ms). Segments with no live documents are dropped and
    those mostly deleted are rewritten with only their live documents.
    """
    kept = []
    for segment in segments:
        total, deleted = segment.doc_count_all(), segment.deleted_count()
        if deleted >= total:
            continue  # nothing live: dropping it from the TOC deletes it
        if deleted > REWRITE_DELETED * total:
            reader = SegmentReader(writer.storage, writer.schema, segment)
            try:
                writer.add_reader(reader)
            finally:
                reader.close()
        else:
            kept.append(segment)
    from whoosh.writing import MERGE_SMALL

    return MERGE_SMALL(writer, kept)


def _fields(chunk: Chunk) -> dict[str, str]:
    return {
        "id": chunk.id,
        "kind": chunk.kind,
        "path_exact": chunk.path,
        "path": chunk.path,
        "symbol": chunk.symbol or "",
        "content": chunk.context_header() + "\n" + chunk.text,
    }


def _wait_unlocked(ix: whoosh_index.FileIndex, directory: Path) -> None:
    """Wait briefly for a concurrent commit; a lock held longer is reported."""
    lock = ix.lock("WRITELOCK")
    deadline = time.monotonic() + LOCK_TIMEOUT
    try:
        while not lock.acquire(False):
            if time.monotonic() > deadline:
                raise IndexStoreError(f"lexical index at {directory} is locked by another writer")
            time.sleep(0.05)
    except OSError:
        return  # read-only storage: nobody can be writing through it either
    lock.release()


def build_queries(
    analyzer: CodeAnalyzer, text: str, reader: IndexReader, *, prefix_last: bool = False
) -> list[Query]:
    """Whoosh queries for ``plan_queries`` (lexical_plan.py), to try in order; [] if none."""

    def prefix_terms(field: str, prefix: str) -> list[str]:
        scanned = itertools.islice(reader.iter_prefix(field, prefix), PREFIX_SCAN)
        top = heapq.nlargest(PREFIX_TOP, scanned, key=lambda item: item[1].doc_frequency())
        return [btext.decode("utf-8") for btext, _info in top]

    plans = plan_queries(analyzer, text, reader.doc_frequency, reader.doc_count_all(),
                         prefix_terms if prefix_last else None)
    tries = [Or([_whoosh_clause(c) for c in plan]) for plan in plans]
    for query in tries:
        # Pre-scoring every clause into an array beat the binary tree of union
        # matchers ~3x on prose queries (stdlib p95 120 -> 45 ms, same ranking).
        query.matcher_type = Or.ARRAY_MATCHER
    return list[Query](tries)


def _whoosh_clause(clause: Clause) -> Query:
    if len(clause.terms) == 1:
        return Term(clause.field, clause.terms[0], boost=clause.boost)
    return Phrase(clause.field, list(clause.terms), boost=clause.boost)


class DeadlineCollector(WrappingCollector):
    """Stops collecting once ``seconds`` have passed, keeping what was collected.

    Whoosh's TimeLimitCollector starts a timer thread per search (or arms SIGALRM);
    the thread alone cost ~3 ms a query here. Checking the clock every 256 matches
    bounds a runaway query just as well without either.
    """

    def __init__(self, child: Collector, seconds: float) -> None:
        self.child = child
        self.seconds = seconds

    def collect_matches(self) -> None:
        deadline = time.monotonic() + self.seconds
        child = self.child
        for n, sub_docnum in enumerate(child.matches(), 1):
            child.collect(sub_docnum)
            if n % 256 == 0 and time.monotonic() > deadline:
                raise TimeLimit
