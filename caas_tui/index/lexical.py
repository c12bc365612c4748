"""Whoosh BM25F over chunks: the lexical half of hybrid retrieval.

Writes are buffered in memory and applied by ``commit()`` with one short-lived
writer, so the index lock is held only while committing and a failed commit
cancels the writer instead of leaving the directory locked. Every commit opens a
fresh searcher: ``Searcher.refresh()`` was seen returning deleted documents.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from whoosh import index as whoosh_index
from whoosh.collectors import TimeLimitCollector
from whoosh.fields import ID, TEXT, Schema
from whoosh.index import LockError
from whoosh.query import Or, Phrase, Query, Term
from whoosh.reading import IndexReader
from whoosh.scoring import BM25F
from whoosh.searching import Searcher, TimeLimit

from caas_tui.errors import IndexStoreError
from caas_tui.index.analysis import TOKEN_RE, CodeAnalyzer, code_analyzer, split_identifier
from caas_tui.models import Chunk

TEXT_FIELDS = ("symbol", "content", "path")
SYMBOL_BOOST = 3.0  # schema field boost: a name match beats a mention in a body
EXACT_BOOST = 4.0  # extra weight for a whole identifier / dotted name in ``symbol``
PHRASE_BOOST = 2.0  # adjacent query words adjacent in ``symbol`` ("remove body")
MAX_TERMS = 48  # distinct query terms kept: a pasted page must not become 1000 clauses
MAX_BIGRAMS = 8
PREFIX_MIN = 3  # shorter prefixes expand to thousands of terms (field notes)
PREFIX_TOP = 16  # most frequent expansions kept per field
PREFIX_SCAN = 4096  # terms scanned per field and prefix: bounds a keystroke's cost
TIME_LIMIT = 1.0  # seconds; a query that runs longer returns what it has so far
LOCK_TIMEOUT = 2.0  # seconds to wait for another writer's commit to finish
LIMIT_MB = 128


CONTENT_DOTTED = 2


def make_schema() -> Schema:
    names = code_analyzer()  # one instance for short fields: they share its term cache
    return Schema(
        id=ID(unique=True, stored=True),
        kind=ID(),
        path_exact=ID(),
        path=TEXT(analyzer=names, phrase=False),
        symbol=TEXT(analyzer=names, phrase=True, field_boost=SYMBOL_BOOST),
        # Bodies: no positions (no query uses them) and dotted terms only up to
        # CONTENT_DOTTED segments -- longer ones were 70% of all distinct terms.
        content=TEXT(analyzer=CodeAnalyzer(dotted=CONTENT_DOTTED), phrase=False),
    )


class WhooshLexical:
    """``LexicalBackend`` over a Whoosh index directory."""

    def __init__(self, ix: whoosh_index.Index, directory: Path) -> None:
        # Use ``create`` or ``open``.
        self._ix = ix
        self._dir = directory
        analyzer = ix.schema["symbol"].analyzer  # its terms are a superset of content's
        if set(ix.schema.names()) != set(make_schema().names()) or not isinstance(analyzer, CodeAnalyzer):
            raise IndexStoreError(f"lexical index at {directory} has an incompatible schema; rebuild it")
        self._analyzer: CodeAnalyzer = analyzer
        self._pending: dict[str, Chunk] = {}
        self._deletes: set[str] = set()
        self._lock = threading.RLock()  # searches (TUI worker threads) vs commits
        self._searcher: Searcher = self._new_searcher()
        self.time_limit = TIME_LIMIT

    @classmethod
    def create(cls, directory: Path) -> WhooshLexical:
        """A new, empty index in ``directory`` (created; a previous index there is replaced)."""
        try:
            directory.mkdir(parents=True, exist_ok=True)
            ix = whoosh_index.create_in(str(directory), make_schema())
        except OSError as exc:
            raise IndexStoreError(f"cannot create lexical index at {directory}: {exc.strerror or exc}") from exc
        return cls(ix, directory)

    @classmethod
    def open(cls, directory: Path) -> WhooshLexical:
        """Open an existing index; ``IndexStoreError`` if missing, corrupt or locked."""
        if not directory.is_dir():
            raise IndexStoreError(f"no lexical index at {directory}")
        try:
            if not whoosh_index.exists_in(str(directory)):
                raise IndexStoreError(f"no lexical index at {directory}")
            ix = whoosh_index.open_dir(str(directory))
            _wait_unlocked(ix, directory)
            return cls(ix, directory)
        except IndexStoreError:
            raise
        except Exception as exc:  # noqa: BLE001 - any failure decoding index files means corruption
            raise IndexStoreError(
                f"lexical index at {directory} is corrupt ({type(exc).__name__}); rebuild it"
            ) from exc

    # -- writing --------------------------------------------------------------

    def add(self, chunks: Sequence[Chunk]) -> None:
        with self._lock:
            for chunk in chunks:
                self._pending[chunk.id] = chunk

    def delete(self, chunk_ids: Sequence[str]) -> None:
        with self._lock:
            for cid in chunk_ids:
                self._pending.pop(cid, None)
                self._deletes.add(cid)

    def commit(self) -> None:
        with self._lock:
            if not self._pending and not self._deletes:
                return
            try:
                writer = self._ix.writer(timeout=LOCK_TIMEOUT, delay=0.05, limitmb=LIMIT_MB)
            except LockError as exc:
                raise IndexStoreError(f"lexical index at {self._dir} is locked by another writer") from exc
            try:
                # Whoosh's update_document only replaces committed documents, so
                # a batch deletes every touched id once, then adds plainly.
                if self._searcher.doc_count_all():
                    for cid in self._deletes | self._pending.keys():
                        writer.delete_by_term("id", cid)
                for chunk in self._pending.values():
                    writer.add_document(**_fields(chunk))
                writer.commit()
            except BaseException as exc:  # cancel on anything, Ctrl-C included, then re-raise
                if not writer.is_closed:
                    try:
                        writer.cancel()  # releases the write lock
                    except Exception:  # noqa: BLE001 - cleanup must not mask the real error
                        pass
                if isinstance(exc, OSError):
                    raise IndexStoreError(f"cannot write lexical index at {self._dir}: {exc}") from exc
                raise
            self._pending.clear()
            self._deletes.clear()
            old, self._searcher = self._searcher, self._new_searcher()
            old.close()

    # -- reading --------------------------------------------------------------

    def search(
        self,
        query: str,
        k: int,
        kinds: Sequence[str] | None = None,
        *,
        prefix_last: bool = False,
    ) -> list[tuple[str, float]]:
        """Up to ``k`` ``(chunk_id, score)`` pairs, best first. Never raises on query text."""
        if k < 1 or (kinds is not None and not kinds):
            return []
        with self._lock:
            searcher = self._searcher
            q = build_query(self._analyzer, query, searcher.reader() if prefix_last else None)
            if q is None:
                return []
            flt = Or([Term("kind", kind) for kind in kinds]) if kinds is not None else None
            # optimize=False: the block-quality optimisation has hung for minutes on
            # combined queries (field notes). No SIGALRM: this is a library and may
            # run in the main thread of an app with its own signal handling.
            collector = searcher.collector(limit=k, optimize=False, filter=flt)
            timed = TimeLimitCollector(collector, self.time_limit, use_alarm=False)
            try:
                searcher.search_with_collector(q, timed)
            except TimeLimit:
                pass  # the partial top-k collected so far is still ranked
            results = timed.results()
            return [(hit["id"], float(hit.score)) for hit in results[:k]]

    def doc_count(self) -> int:
        with self._lock:
            return self._searcher.doc_count()

    def close(self) -> None:
        """Release the searcher. Uncommitted changes are dropped."""
        with self._lock:
            self._pending.clear()
            self._deletes.clear()
            self._searcher.close()

    def _new_searcher(self) -> Searcher:
        return self._ix.searcher(weighting=BM25F())


def _fields(chunk: Chunk) -> dict[str, str]:
    return {
        "id": chunk.id,
        "kind": chunk.kind,
        "path_exact": chunk.path,
        "path": chunk.path,
        "symbol": chunk.symbol or "",
        "content": chunk.context_header() + "\n" + chunk.text,
    }


def _wait_unlocked(ix: whoosh_index.Index, directory: Path) -> None:
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


def build_query(analyzer: CodeAnalyzer, text: str, reader: IndexReader | None = None) -> Query | None:
    """An OR query over symbol/content/path from free text, or None if nothing is searchable.

    Only ``TOKEN_RE`` words are read, so query-syntax characters never matter.
    With ``reader``, the last word is also expanded as a prefix (typing-as-you-go).
    """
    raws = TOKEN_RE.findall(text)
    parts: dict[str, None] = {}  # ordered sets
    wholes: dict[str, None] = {}
    sequence: list[str] = []  # word parts in query order, for adjacency bonuses
    for raw in raws:
        terms, _width = analyzer.expand(raw)
        for term, _offset, is_whole in terms:
            (wholes if is_whole else parts).setdefault(term, None)
            if not is_whole:
                sequence.append(term)
        if len(parts) + len(wholes) >= MAX_TERMS:
            break
    clauses: list[Query] = []
    for term in itertools.islice(parts, MAX_TERMS):
        clauses.extend(Term(field, term) for field in TEXT_FIELDS)
    for term in itertools.islice(wholes, MAX_TERMS):
        clauses.append(Term("symbol", term, boost=1.0 + EXACT_BOOST))
        clauses.extend(Term(field, term) for field in ("content", "path"))
    # "remove body" names ``remove_body`` / ``RemoveBody``: reward that exact name.
    simple = [r.lower() for r in raws]
    if 2 <= len(simple) <= 4 and all(len(split_identifier(r)) == 1 for r in simple):
        for joined in ("_".join(simple), "".join(simple)):
            clauses.append(Term("symbol", joined, boost=EXACT_BOOST))
    bigrams = dict.fromkeys(zip(sequence, sequence[1:]))
    for a, b in itertools.islice(bigrams, MAX_BIGRAMS):
        if a != b:
            clauses.append(Phrase("symbol", [a, b], boost=PHRASE_BOOST))
    if reader is not None and raws:
        clauses.extend(_prefix_clauses(reader, raws[-1]))
    return Or(clauses) if clauses else None


def _prefix_clauses(reader: IndexReader, raw: str) -> list[Query]:
    """The most frequent terms starting with the word being typed, per field."""
    prefixes = {raw.lower()}
    word_parts = split_identifier(raw)
    if word_parts:
        prefixes.add(word_parts[-1])  # "removeBo" -> also "bo..." parts
    clauses: list[Query] = []
    for prefix in prefixes:
        if len(prefix) < PREFIX_MIN:
            continue
        for field in TEXT_FIELDS:
            scanned = itertools.islice(reader.iter_prefix(field, prefix), PREFIX_SCAN)
            top = heapq.nlargest(PREFIX_TOP, scanned, key=lambda item: item[1].doc_frequency())
            clauses.extend(Term(field, btext.decode("utf-8")) for btext, _info in top)
    return clauses
