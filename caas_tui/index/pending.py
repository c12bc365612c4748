"""The write bookkeeping both lexical backends share: buffered adds and deletes, fed
ahead of the commit into a writer whose work stays invisible until then.

A backend subclasses :class:`BufferedWriter` and supplies the engine calls (open a
writer, feed it, commit it, abort it, reopen the searcher); this class decides what
each writer still needs. The store calls ``prepare`` while it chunks and embeds, so
each call feeds only what was added since the last; ``commit`` then feeds the rest.
A change to something a writer already has (a re-add, a delete) makes that writer
stale: ``commit`` drops it and redoes everything from the buffers. A backend whose
writer's deletes also remove the documents that writer was given (tantivy's do; Whoosh's
reach committed documents only) sets ``DELETES_OWN_DOCUMENTS``: its writer is never
stale, so fed chunks are forgotten once fed (a big build then holds none of them).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from typing import ClassVar, Generic, TypeVar

from caas_tui.errors import IndexStoreError
from caas_tui.models import Chunk

W = TypeVar("W")  # the engine's writer
A = TypeVar("A")  # one chunk's terms as the chunking worker analyzed them for a backend


class BufferedWriter(Generic[W]):
    """``add``/``delete``/``prepare``/``commit`` of a ``LexicalBackend`` over a writer ``W``."""

    DELETES_OWN_DOCUMENTS: ClassVar[bool] = False

    def __init__(self) -> None:
        self._lock = threading.RLock()  # searches (TUI worker threads) vs writes
        self._pending: dict[str, Chunk] = {}  # fed ones too, unless DELETES_OWN_DOCUMENTS
        self._deletes: set[str] = set()
        self._writer: W | None = None  # opened by prepare(), finished by commit()
        self._fed: set[str] | None = None  # ids the open writer has been given
        self._stale = False  # an add or delete since the writer opened that it does not have
        self._lost = False  # a writer holding forgotten chunks was dropped: they are gone

    # -- what a backend supplies -------------------------------------------------
    def _check_open(self) -> None:
        raise NotImplementedError

    def _open_writer(self) -> W:
        raise NotImplementedError

    def _feed(self, writer: W, deletes: Iterable[str], chunks: Iterable[Chunk] = ()) -> None:
        """Delete the documents of ``deletes``, then add ``chunks``; cancel the writer on failure."""
        raise NotImplementedError

    def _commit_writer(self, writer: W) -> None:
        raise NotImplementedError

    def _abort_writer(self, writer: W) -> None:
        """Drop the writer's work and release its lock; must not raise."""
        raise NotImplementedError

    def _committed(self) -> None:
        """Make the new commit visible to searches."""
        raise NotImplementedError

    # -- the shared bookkeeping --------------------------------------------------
    def add(self, chunks: Sequence[Chunk]) -> None:
        with self._lock:
            fed = self._fed or set()
            for chunk in chunks:
                if chunk.id in fed and not self.DELETES_OWN_DOCUMENTS:
                    self._stale = True  # the writer holds an older version of it
                self._pending[chunk.id] = chunk

    def delete(self, chunk_ids: Sequence[str]) -> None:
        with self._lock:
            if chunk_ids and self._writer is not None:
                if self.DELETES_OWN_DOCUMENTS:
                    self._feed(self._writer, chunk_ids)  # also reaches what the writer was given
                else:
                    self._stale = True  # the writer has its deletes already
            for cid in chunk_ids:
                self._pending.pop(cid, None)
                self._deletes.add(cid)

    def prepare(self) -> None:
        """Do the slow part of the next ``commit`` now: analyze and write the pending
        documents into the writer, where readers see nothing until ``commit``."""
        from caas_tui.ingest.gcpause import collector_paused  # writers only (it loads caas_tui.ingest)

        with self._lock, collector_paused():
            self._feed_pending()

    def _feed_pending(self) -> None:
        with self._lock:
            self._check_open()
            if self._lost:
                self._lost = False
                self._drop_pending()
                raise IndexStoreError("lexical index: a failed write dropped documents it had been given; "
                                      "run `caas-tui index` to rebuild it")
            if self._writer is None and (self._pending or self._deletes):
                self._writer = self._open_writer()
                self._fed = set()
                self._feed(self._writer, self._deletes)
            if self._writer is not None and self._fed is not None and not self._stale:
                fed = self._fed
                if self.DELETES_OWN_DOCUMENTS:
                    # everything pending is unfed; a re-added document is deleted in the writer first
                    new = self._pending
                    self._feed(self._writer, (new.keys() - self._deletes) | (new.keys() & fed), new.values())
                    self._pending = {}  # only once fed: a failed feed leaves them for the next writer
                else:
                    new = {cid: c for cid, c in self._pending.items() if cid not in fed}
                    # a replaced document is deleted first (unless its delete was fed already)
                    self._feed(self._writer, new.keys() - self._deletes, new.values())
                fed.update(new)

    def commit(self) -> None:
        # The collector pauses while a writer is fed or committed: it would find no cycles
        # in postings and terms, and its passes over them were 15-20% of a Whoosh build.
        from caas_tui.ingest.gcpause import collector_paused

        with self._lock, collector_paused():
            self._check_open()
            if self._writer is not None and self._stale:
                self._cancel(self._writer)  # changed since prepare(): redo from the buffers
            if self._writer is None and not self._pending and not self._deletes:
                return
            self._feed_pending()  # what was added since (or everything)
            writer = self._writer
            assert writer is not None
            try:
                self._commit_writer(writer)
            except BaseException:  # cancel on anything, Ctrl-C included, then re-raise
                self._cancel(writer)
                raise
            self._writer, self._fed, self._stale = None, None, False
            self._pending.clear()
            self._deletes.clear()
            self._committed()

    def _cancel(self, writer: W) -> None:
        if writer is self._writer:
            self._lost = self._lost or (self.DELETES_OWN_DOCUMENTS and bool(self._fed))
            self._writer, self._fed, self._stale = None, None, False
        self._abort_writer(writer)

    def _drop_pending(self) -> None:
        """Forget uncommitted changes (``close``)."""
        if self._writer is not None:
            self._cancel(self._writer)
        self._pending.clear()
        self._deletes.clear()
        self._lost = False


class AnalyzedWriter(BufferedWriter[W], Generic[W, A]):
    """A ``BufferedWriter`` that can also be handed chunks the chunking worker already analyzed
    (``add_analyzed``); a re-add or a delete drops the hand-off, so a chunk is never fed stale terms."""

    def __init__(self) -> None:
        super().__init__()
        self._analyzed: dict[str, A] = {}  # of pending chunks, where add_analyzed was given them

    def add(self, chunks: Sequence[Chunk]) -> None:
        with self._lock:
            for c in chunks:
                self._analyzed.pop(c.id, None)  # a re-added chunk is analyzed anew
            super().add(chunks)

    def add_analyzed(self, chunks: Sequence[Chunk], analyzed: Sequence[object]) -> None:
        if len(analyzed) != len(chunks):
            raise ValueError(f"{len(analyzed)} analyzed documents for {len(chunks)} chunks")
        with self._lock:
            super().add(chunks)
            for c, terms in zip(chunks, analyzed, strict=True):
                self._analyzed[c.id] = terms  # type: ignore[assignment]  # made by the backend's analysis()

    def delete(self, chunk_ids: Sequence[str]) -> None:
        with self._lock:
            for cid in chunk_ids:
                self._analyzed.pop(cid, None)
            super().delete(chunk_ids)
