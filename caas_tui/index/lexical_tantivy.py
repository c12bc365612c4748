"""tantivy BM25 over chunks: the same lexical contract as ``lexical.py``, 5-100x faster.

tantivy's analyzers cannot split identifiers the way ours does (``HTTPServer`` ->
``http``, ``server``, ``httpserver``; dotted names), so text is analyzed here with the
same :class:`~caas_tui.index.analysis.CodeAnalyzer` and indexed as space-separated
terms with tantivy's ``whitespace`` tokenizer: both backends see identical terms.
Queries come from the same plan (``lexical_plan.py``); tantivy scores BM25 per field,
so the ``symbol`` field boost multiplies that field's clauses (Whoosh: BM25F).

Writes are buffered (``pending.py``) and applied by ``commit()`` with a short-lived
writer (its lock file is held only while committing); every commit reloads the reader.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import tantivy

from caas_tui.errors import IndexStoreError
from caas_tui.index.analysis import CodeAnalyzer, code_analyzer
from caas_tui.index.lexical_plan import PREFIX_TOP, SYMBOL_BOOST, TIME_LIMIT, Clause, plan_queries
from caas_tui.index.pending import AnalyzedWriter
from caas_tui.models import Chunk, Kind

SCHEMA_FILE = "caas-schema.json"
SCHEMA_TAG = {"backend": "tantivy", "version": 1}
WRITER_HEAP = 256 * 1024 * 1024  # bytes, split across the writer threads
# One: documents then keep the order they were added in (equal scores rank the same way in
# every build of the same files; two threads dealt them to segments by timing), and a build's
# other core is chunking. Stdlib copy, add + commit CPU: 0.91 s with one thread, 0.94-1.06 with two.
WRITER_THREADS = 1


# A chunk's analyzed fields, each its terms space-separated: path, symbol, content
DocTerms = tuple[str, str, str]
_analyzers: tuple[CodeAnalyzer, CodeAnalyzer] | None = None  # this process's: their caches fill as it goes


def document_terms(chunks: Sequence[Chunk]) -> list[DocTerms]:
    """What tantivy indexes of each chunk besides its id and kind. A build's chunking worker
    runs this (``PreAnalyzed``): in the indexing process it was half of its main thread's
    time (py-spy, stdlib copy), competing for the GIL with the embedding thread."""
    global _analyzers
    if _analyzers is None:
        # symbol and path with dotted names; content without: same choice as the Whoosh schema
        _analyzers = (code_analyzer(), CodeAnalyzer(dotted=0))
    names, bodies = _analyzers
    out: list[DocTerms] = []
    path, path_terms = None, ""
    for c in chunks:
        if c.path != path:  # a file's chunks arrive together
            path, path_terms = c.path, names.terms_text(c.path)
        out.append((path_terms, names.terms_text(c.symbol or ""),
                    bodies.terms_text(c.context_header() + "\n" + c.text)))
    return out


def _schema() -> tantivy.Schema:
    b = tantivy.SchemaBuilder()
    b.add_text_field("id", stored=True, tokenizer_name="raw", index_option="basic")
    b.add_text_field("kind", tokenizer_name="raw", index_option="basic")
    b.add_text_field("path", tokenizer_name="whitespace", index_option="freq")
    b.add_text_field("symbol", tokenizer_name="whitespace", index_option="position")  # phrase clauses
    b.add_text_field("content", tokenizer_name="whitespace", index_option="freq")
    return b.build()


class TantivyLexical(AnalyzedWriter[tantivy.IndexWriter, DocTerms]):
    """``LexicalBackend`` over a tantivy index directory."""

    DELETES_OWN_DOCUMENTS = True  # a delete applies to every document added before it, uncommitted ones too

    def __init__(self, index: tantivy.Index, directory: Path) -> None:  # use create/open
        super().__init__()
        self._index = index
        self._dir = directory
        self._schema = _schema()
        self._names = code_analyzer()  # the query plan's: symbol and path analysis
        self._searcher = index.searcher()
        self._closed = False
        self.time_limit = TIME_LIMIT

    @classmethod
    def create(cls, directory: Path) -> TantivyLexical:
        try:
            directory.mkdir(parents=True, exist_ok=True)
            index = tantivy.Index(_schema(), path=str(directory), reuse=False)
            (directory / SCHEMA_FILE).write_text(json.dumps(SCHEMA_TAG), encoding="utf-8")
        except (OSError, ValueError) as exc:
            raise IndexStoreError(f"cannot create lexical index at {directory}: {exc}") from exc
        return cls(index, directory)

    @classmethod
    def open(cls, directory: Path) -> TantivyLexical:
        """Open an existing index; ``IndexStoreError`` if missing, of another schema or corrupt."""
        try:
            tag = json.loads((directory / SCHEMA_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise IndexStoreError(f"no tantivy lexical index at {directory}") from exc
        if tag != SCHEMA_TAG:
            raise IndexStoreError(f"lexical index at {directory} has an incompatible schema; rebuild it")
        try:
            if not tantivy.Index.exists(str(directory)):
                raise IndexStoreError(f"no tantivy lexical index at {directory}")
            return cls(tantivy.Index.open(str(directory)), directory)
        except IndexStoreError:
            raise
        except Exception as exc:  # tantivy raises ValueError/OSError/plain Exception for a damaged index
            raise IndexStoreError(f"lexical index at {directory} is corrupt ({type(exc).__name__}); rebuild it") from exc

    # -- writing -----------------------------------------------------------------
    def analysis(self) -> Callable[[Sequence[Chunk]], Sequence[object]]:
        return document_terms

    def _documents(self, chunks: Iterable[Chunk]) -> Iterable[tantivy.Document]:
        analyzed = self._analyzed
        todo = list(chunks)
        made = iter(document_terms([c for c in todo if c.id not in analyzed]))
        for c in todo:
            found = analyzed.pop(c.id, None)
            path, symbol, content = found if found is not None else next(made)
            yield tantivy.Document(id=c.id, kind=c.kind, path=path, symbol=symbol, content=content)

    def _open_writer(self) -> tantivy.IndexWriter:
        try:
            return self._index.writer(WRITER_HEAP, WRITER_THREADS)
        except ValueError as exc:  # tantivy reports a held lock as a ValueError
            raise IndexStoreError(f"lexical index at {self._dir} is locked by another writer ({exc})") from exc

    def _feed(self, writer: tantivy.IndexWriter, deletes: Iterable[str], chunks: Iterable[Chunk] = ()) -> None:
        try:
            # replace = delete + add; a delete also reaches what this writer was given
            own = self._fed or set()
            for cid in deletes:
                if self._searcher.num_docs or cid in own:
                    writer.delete_documents_by_term("id", cid)
            for doc in self._documents(chunks):
                writer.add_document(doc)
        except BaseException as exc:
            self._cancel(writer)
            if isinstance(exc, OSError | ValueError):
                raise IndexStoreError(f"cannot write lexical index at {self._dir}: {exc}") from exc
            raise

    def _abort_writer(self, writer: tantivy.IndexWriter) -> None:
        with contextlib.suppress(Exception):  # cleanup must not mask the real error
            writer.rollback()
            writer.wait_merging_threads()  # releases the writer lock

    def _commit_writer(self, writer: tantivy.IndexWriter) -> None:
        try:
            writer.commit()
            writer.wait_merging_threads()  # also releases the writer lock
        except (OSError, ValueError) as exc:
            raise IndexStoreError(f"cannot write lexical index at {self._dir}: {exc}") from exc

    def _committed(self) -> None:
        self._index.reload()
        self._searcher = self._index.searcher()

    # -- reading -----------------------------------------------------------------
    def search(
        self, query: str, k: int, kinds: Sequence[Kind] | None = None, *, prefix_last: bool = False
    ) -> list[tuple[str, float]]:
        """Up to ``k`` ``(chunk_id, score)`` pairs, best first. Never raises on query text."""
        if k < 1 or (kinds is not None and not kinds):
            return []
        with self._lock:
            self._check_open()
            searcher = self._searcher

            def prefix_terms(field: str, prefix: str) -> list[str]:
                return [term for term, _count in searcher.terms_with_prefix(field, prefix, limit=PREFIX_TOP)]

            plans = plan_queries(self._names, query, searcher.doc_freq, searcher.num_docs,
                                 prefix_terms if prefix_last else None)
            deadline = time.monotonic() + self.time_limit
            found: list[tuple[str, float]] = []
            for plan in plans:
                found = self._run(searcher, plan, k, kinds)
                # the cheap query filled k, or time is up: a tantivy query cannot be stopped
                # midway, so the deadline is checked between the two plans
                if len(found) >= k or time.monotonic() > deadline:
                    break
            return found

    def _clause(self, clause: Clause) -> tantivy.Query:
        boost = clause.boost * (SYMBOL_BOOST if clause.field == "symbol" else 1.0)
        if len(clause.terms) == 1:
            q = tantivy.Query.term_query(self._schema, clause.field, clause.terms[0])
        else:
            q = tantivy.Query.phrase_query(self._schema, clause.field, list(clause.terms))
        return q if boost == 1.0 else tantivy.Query.boost_query(q, boost)

    def _run(self, searcher: tantivy.Searcher, plan: list[Clause], k: int,
             kinds: Sequence[Kind] | None) -> list[tuple[str, float]]:
        should = tantivy.Occur.Should
        q = tantivy.Query.boolean_query([(should, self._clause(c)) for c in plan])
        if kinds is not None:
            only = tantivy.Query.const_score_query(tantivy.Query.term_set_query(self._schema, "kind", list(kinds)), 0.0)
            q = tantivy.Query.boolean_query([(tantivy.Occur.Must, q), (tantivy.Occur.Must, only)])
        hits = searcher.search(q, limit=k, count=False).hits
        return [(str(searcher.doc(addr)["id"][0]), float(score)) for score, addr in hits]

    def doc_count(self) -> int:
        with self._lock:
            self._check_open()
            return int(self._searcher.num_docs)

    def close(self) -> None:
        """Release the searcher. Uncommitted changes are dropped. Idempotent."""
        with self._lock:
            self._drop_pending()
            self._analyzed.clear()
            self._closed = True

    def _check_open(self) -> None:
        if self._closed:
            raise IndexStoreError(f"lexical index at {self._dir} is closed")
