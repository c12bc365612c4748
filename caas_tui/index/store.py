"""The on-disk index: chunks, a lexical index and vectors, refreshed incrementally.

Layout under ``<caas_dir>/index/``: ``manifest.json``, ``chunks.sqlite``,
``lexical/`` (Whoosh), ``vectors/``. Verdicts and other state live beside
``index/`` and survive a rebuild, which only ever wipes ``index/``.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Collection, MutableMapping
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from caas_tui.config import Config
from caas_tui.errors import IndexStoreError, ProjectError
from caas_tui.graph import GRAPH_FILE, FragmentLines, StoredFragments, parse_fragments, save_fragments
from caas_tui.index import integrity
from caas_tui.index.chunkdb import ChunkDB, ChunkMap
from caas_tui.index.encoders import load_encoder
from caas_tui.index.lexical_select import create_lexical, open_lexical
from caas_tui.index.locking import writer_lock
from caas_tui.index.manifest import (
    MANIFEST_NAME,
    SCHEMA_VERSION,
    Manifest,
    ManifestCheck,
    read_manifest,
    write_manifest,
)
from caas_tui.index.protocols import Encoder, LexicalBackend, VectorIndex
from caas_tui.index.refreshstats import RefreshStats, embed_text
from caas_tui.index.vectors import load_vector_index, make_vector_index
from caas_tui.sources import Skipped, discover, load

# A search usually finds every file unchanged: what only writing needs (the build stream,
# the graph's own types) is imported where it is used, so a one-shot command does not pay
# for it (issue 20; tests/test_startup_imports.py).
if TYPE_CHECKING:
    import numpy as np

    from caas_tui.graph import Fragment, SymbolGraph
    from caas_tui.index.refreshstats import Notify, Progress
    from caas_tui.models import Chunk, SourceFile
    from caas_tui.sources import Discovery, FileEntry

_LOCK_WAIT_S = 120.0
_COMMIT_WAIT_S = 30.0  # a refresh's commit window is short; a rebuild from nothing is not worth waiting for


class IndexStore:
    """Owns ``<caas_dir>/index``. Not thread-safe: the engine serialises calls."""

    def __init__(self, cfg: Config, encoder: Encoder, notify: Notify | None = None) -> None:
        self.cfg = cfg
        self.encoder = encoder
        self.directory = cfg.caas_dir / "index"
        self._notify = notify or (lambda _msg: None)
        self.manifest: Manifest | None = None
        self.lexical: LexicalBackend | None = None
        self.vectors: VectorIndex | None = None
        self.db: ChunkDB | None = None
        self._chunks: ChunkMap | None = None  # rows read from ``db`` on first use
        self.last_stats: RefreshStats | None = None  # of the latest refresh or rebuild
        self._disk_stamp: tuple[int, int] | None = None  # manifest.json as this process last saw it
        # -- symbol graph (graph/): per-file fragments persisted in graph.jsonl, resolved on change
        self._fragments: MutableMapping[str, Fragment] | None = None  # read on first use: a search needs no graph
        self._stored_fragments: StoredFragments | None = None  # graph.jsonl as opened, until read
        self._graph: SymbolGraph | None = None  # resolved lazily: it costs seconds at stdlib scale

    # -- opening -----------------------------------------------------------------
    @classmethod
    def open(
        cls,
        cfg: Config,
        *,
        encoder: Encoder | None = None,
        notify: Notify | None = None,
        progress: Progress | None = None,
        refresh: bool = True,
        read_only: bool = False,
    ) -> IndexStore:
        """``read_only`` (``caas-tui status``): use the index exactly as it is on disk, never
        build, repair or refresh it; IndexStoreError when it cannot be used as it is."""
        if not cfg.root.is_dir():
            raise ProjectError(f"{cfg.root}: not a directory")
        store = cls(cfg, encoder or load_encoder(cfg.model), notify)
        if read_only:
            store._open_last_good(wait_s=_LOCK_WAIT_S)
            return store
        with store._writer_lock(wait=False) as have_lock:
            if not have_lock:
                # Another process is writing: readers keep the last complete index (writers
                # commit it atomically, see _apply) and leave the refresh to that process.
                store._open_last_good(wait_s=_COMMIT_WAIT_S, building="another caas-tui process is building the index")
                if refresh:
                    store._notify("another caas-tui process is updating the index; using the last complete one")
                return store
            check = store.check_manifest()
            if check.state == "ok":
                try:
                    store._load_parts()
                except IndexStoreError as exc:
                    check = ManifestCheck.rebuild(str(exc))
            if check.state != "ok":
                if check.state == "rebuild":
                    store._notify(check.notice)
                store._rebuild(progress)
            elif refresh:
                store.refresh(progress=progress, _locked=True)
        return store

    def _open_last_good(self, *, wait_s: float, building: str = "") -> None:
        """Load the index as its last writer left it, without the writer lock.

        A seqlock on ``manifest.json``: a writer rewrites it (``dirty``) before touching
        any part and again (``clean``) after the last one, so parts loaded while its stamp
        stayed the same and clean are one consistent index. While a writer commits, wait
        (up to ``wait_s``); a dirty index nobody is writing was left by a crash.
        """
        deadline = time.monotonic() + wait_s
        while True:
            stamp = self._stamp()
            check = self.check_manifest()
            error = ""
            if check.state == "new":
                if building and self._lock_busy():
                    error = building + "; try again shortly"
                else:
                    raise IndexStoreError(f"no index at {self.directory}")
            elif check.state == "rebuild":
                error = check.reason
            else:
                try:
                    self._load_parts(restamp=False)
                except IndexStoreError as exc:
                    error = str(exc)
                if not error and self._stamp() == stamp:
                    return
            writing = self._stamp() != stamp or self._lock_busy()
            if not writing or time.monotonic() >= deadline:
                if writing and building:
                    error = building + "; try again shortly"
                raise IndexStoreError(error or f"{self.directory}: the index kept changing while it was read")
            time.sleep(0.05)

    def _lock_busy(self) -> bool:
        """Whether a writer holds the index lock now (probed without waiting)."""
        with self._writer_lock(wait=False) as have:
            return not have

    def _write_manifest(self) -> None:
        assert self.manifest is not None
        write_manifest(self.directory, self.manifest)
        self._disk_stamp = self._stamp()

    def _stamp(self) -> tuple[int, int] | None:
        try:
            st = (self.directory / MANIFEST_NAME).stat()
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size)

    def _sync_with_disk(self) -> bool:
        """Reload when another process (the app's watcher, ``caas-tui watch``, an MCP
        server) rewrote the index since this one last read or wrote it: applying our
        stale manifest over theirs would lose or duplicate chunks. Returns whether it reloaded."""
        if self._disk_stamp is None or self._stamp() == self._disk_stamp:
            return False
        check = self.check_manifest()
        if check.state == "ok":
            try:
                self._load_parts()
                return True
            except IndexStoreError as exc:
                check = ManifestCheck.rebuild(str(exc))
        self._notify(check.notice)
        self._rebuild(None)
        return True

    def check_manifest(self) -> ManifestCheck:
        """Whether the on-disk index can be used; when it can, ``self.manifest`` is set to it."""
        try:
            manifest = read_manifest(self.directory)
        except IndexStoreError as exc:
            return ManifestCheck.rebuild(str(exc))
        if manifest is None:
            return ManifestCheck("new")
        if manifest.schema != SCHEMA_VERSION:
            return ManifestCheck.rebuild(f"index is schema v{manifest.schema}, this version needs v{SCHEMA_VERSION}",
                                         "rebuilding")
        if manifest.model_id != self.encoder.model_id:
            return ManifestCheck.rebuild(f"index was built with model {manifest.model_id}",
                                         f"rebuilding with {self.encoder.model_id}")
        if manifest.lexical != self.cfg.lexical:
            return ManifestCheck.rebuild(f"index was built with the {manifest.lexical} lexical backend",
                                         f"rebuilding with {self.cfg.lexical}")
        if manifest.state != "clean":
            return ManifestCheck.rebuild("index was left incomplete by an interrupted build", "rebuilding")
        self.manifest = manifest
        return ManifestCheck("ok")

    def _load_parts(self, *, restamp: bool = True) -> None:  # restamp: only under the writer lock
        self.close()
        assert self.manifest is not None
        # graph.jsonl is hashed now (cheap) but parsed on first use, from this very file
        self._stored_fragments = StoredFragments(self.directory)
        integrity.verify(self.directory, self.manifest.checksums, restamp=restamp)
        self.lexical = open_lexical(self.cfg.lexical, self.directory / "lexical")
        self.vectors = load_vector_index(self.directory / "vectors")
        self.db = ChunkDB(self.directory / "chunks.sqlite")
        # Opened lazily: chunk rows are read (and each verified) when a command asks for them,
        # the graph on first use, both from the state they are in now (a read snapshot of the
        # chunk store, an open handle on graph.jsonl), so only what is cheap is checked here.
        self._chunks = ChunkMap(self.db)
        expected = sum(len(rec.chunks) for rec in self.manifest.files.values())
        if len(self._chunks) != expected:
            raise IndexStoreError(f"{self.directory}: chunk store disagrees with the manifest")
        # symbol graph: a missing, old or mismatched graph.jsonl rebuilds the index like any bad part
        if self._stored_fragments.count != len(self.manifest.files):
            raise IndexStoreError(f"{self.directory}: symbol graph disagrees with the manifest")
        self._fragments = None
        self._graph = None
        self._disk_stamp = self._stamp()

    def _rebuild(self, progress: Progress | None) -> None:
        self.close()
        if self.directory.exists() and not self.directory.is_dir():
            raise IndexStoreError(f"{self.directory}: exists and is not an index directory; move it away")
        if self.directory.is_dir() and any(self.directory.iterdir()) and not (self.directory / MANIFEST_NAME).exists():
            # Never delete a folder this program did not make (e.g. a mistyped --index-dir).
            raise IndexStoreError(f"{self.directory}: not a caas-tui index (no {MANIFEST_NAME}); move it away")
        try:
            if self.directory.exists():
                shutil.rmtree(self.directory)
            self.directory.mkdir(parents=True)
        except OSError as exc:
            raise IndexStoreError(f"{self.directory}: cannot rebuild the index ({exc.strerror or exc})") from exc
        self.manifest = Manifest(model_id=self.encoder.model_id, dims=self.encoder.dims, lexical=self.cfg.lexical)
        self._write_manifest()
        self.lexical = create_lexical(self.cfg.lexical, self.directory / "lexical")
        self.vectors = make_vector_index(0)
        self.db = ChunkDB(self.directory / "chunks.sqlite")
        self._chunks = ChunkMap(self.db)
        self._fragments = FragmentLines()  # symbol graph: encoded lines, decoded when read
        self.refresh(progress=progress, _locked=True, _force_write=True)
        if self.last_stats is not None:
            self.last_stats.rebuilt = True

    # -- refreshing --------------------------------------------------------------
    def refresh(
        self,
        progress: Progress | None = None,
        *,
        discovery: Discovery | None = None,
        scope: Collection[str] | None = None,
        _locked: bool = False,
        _force_write: bool = False,
    ) -> RefreshStats:
        """Bring the index up to date with the files; only changed files are redone.

        live/ (the file watcher) fast path: it passes ``discovery`` for just the paths it
        saw change (ignore rules already applied) and ``scope``, the paths that
        discovery covers; only manifest paths inside ``scope`` can then be removed, and
        the tree is not walked.
        """
        if not _locked:
            with self._writer_lock(wait=False) as have_lock:
                if not have_lock:
                    return RefreshStats(warnings=["another caas-tui process is updating the index"])
                return self.refresh(progress, discovery=discovery, scope=scope, _locked=True, _force_write=_force_write)
        start = time.perf_counter()
        reloaded = not _force_write and self._sync_with_disk()
        assert self.manifest is not None and self.lexical and self.vectors is not None and self.db
        stats = RefreshStats(reloaded=reloaded)
        if discovery is None:
            discovery, scope = discover(self.cfg), None
        stats.skipped.extend(discovery.skipped)
        if scope is None and not discovery.entries and not self.manifest.files:
            raise ProjectError(f"{self.cfg.root}: no code or docs to index")
        todo: list[SourceFile] = []
        seen: set[str] = set()
        mtime_only: list[tuple[str, FileEntry]] = []
        for entry in discovery.entries:
            seen.add(entry.path)
            rec = self.manifest.files.get(entry.path)
            if rec and rec.mtime == entry.mtime and rec.size == entry.size:
                continue
            loaded = load(self.cfg, entry)
            if isinstance(loaded, Skipped):
                stats.skipped.append(loaded)
                continue  # keep whatever was indexed before rather than lose it
            stats.warnings.extend(loaded.warnings)
            if rec and rec.sha256 == loaded.sha256:
                mtime_only.append((entry.path, entry))
                continue
            (stats.changed if rec else stats.added).append(entry.path)
            todo.append(loaded)
        removable = set(self.manifest.files) if scope is None else set(scope) & set(self.manifest.files)
        stats.removed = sorted(removable - seen)
        for path, entry in mtime_only:
            self.manifest.files[path].mtime = entry.mtime
        if not (todo or stats.removed or _force_write):
            if mtime_only:
                self._write_manifest()
            stats.seconds = time.perf_counter() - start
            self.last_stats = stats
            return stats
        try:
            self.fragments  # noqa: B018 - read now: a refresh rewrites graph.jsonl from all of them
        except IndexStoreError as exc:
            self._notify(ManifestCheck.rebuild(str(exc)).notice)
            self._rebuild(progress)
            assert self.last_stats is not None
            return self.last_stats
        self._apply(todo, stats, progress)
        kept = [s for s in self.manifest.skipped if scope is not None and s.get("path") not in scope]  # live/ fast path
        self.manifest.skipped = kept + [{"path": s.path, "reason": s.reason} for s in stats.skipped]
        self.manifest.warnings = stats.warnings[-200:]
        self.manifest.state = "clean"
        self._write_manifest()
        stats.seconds = time.perf_counter() - start
        self.last_stats = stats
        return stats

    def _apply(self, todo: list[SourceFile], stats: RefreshStats, progress: Progress | None) -> None:
        """Chunk, embed and write everything first, invisibly (an open SQLite transaction, an
        uncommitted lexical writer, vectors in memory); only then mark the index dirty and
        commit the parts, so readers in other processes keep the last complete index during
        the slow work and wait out only the short commit, and a build that fails or is killed
        before its commit leaves the last complete index as it was."""
        assert self.manifest is not None and self.lexical and self.vectors is not None and self.db
        old_ids: list[str] = []
        for path in stats.removed + [s.path for s in todo]:
            rec = self.manifest.files.pop(path, None)
            if rec:
                old_ids.extend(rec.chunks)
            self.fragments.pop(path, None)  # symbol graph
        stats.chunks_removed = len(old_ids)
        if old_ids:
            self.lexical.delete(old_ids)
            self.vectors.remove(old_ids)
        from caas_tui.index.buildstream import BuildTargets, stream_chunks

        rows = self.db.writer(old_ids)
        try:
            targets = BuildTargets(rows, self.lexical, self.vectors, self.manifest, self.fragments, self.encoder,
                                   self._encode)
            try:
                stream_chunks(todo, targets, stats, progress)
            except IndexStoreError as exc:
                raise IndexStoreError(f"{self.directory}: {exc}") from exc
            # -- commit: from here until the clean manifest, the parts on disk disagree
            self.manifest.state = "dirty"
            self._write_manifest()
            if progress:
                progress("lexical", 0, 1)
            self.lexical.commit()
            if progress:
                progress("lexical", 1, 1)
            self.vectors.save(self.directory / "vectors")
            rows.commit()
        finally:
            rows.close()  # rolls back unless committed
        self.chunks.applied(old_ids)
        # symbol graph: written while the manifest still says dirty; only changed files were re-read
        save_fragments(self.directory, self.fragments)
        self._graph = None
        self.manifest.checksums = integrity.record(self.directory)

    @property
    def chunks(self) -> ChunkMap:
        """Every chunk of the index by id; rows are read from SQLite when first asked for."""
        if self._chunks is None:
            raise IndexStoreError(f"{self.directory}: the index is not open")
        return self._chunks

    @property
    def fragments(self) -> MutableMapping[str, Fragment]:
        """Per-file graph fragments, read from ``graph.jsonl`` on first use (each decoded when read)."""
        if self._fragments is None:
            assert self.manifest is not None and self._stored_fragments is not None
            data = self._stored_fragments.read()
            self._stored_fragments = None
            fragments = parse_fragments(self.directory / GRAPH_FILE, data)
            if set(fragments) != set(self.manifest.files):
                raise IndexStoreError(f"{self.directory}: symbol graph disagrees with the manifest; "
                                      "run `caas-tui index` to rebuild it")
            self._fragments = fragments
        return self._fragments

    @property
    def graph(self) -> SymbolGraph:
        """The cross-file symbol graph, resolved from the per-file fragments on first use
        after a change, so saving a file does not wait for whole-project resolution."""
        if self._graph is None:
            from caas_tui.graph import build_graph  # resolution code: only for commands that walk the graph

            self._graph = build_graph(self.fragments)
        return self._graph

    def _encode(self, chunks: list[Chunk]) -> np.ndarray:
        return self.encoder.encode([embed_text(c) for c in chunks])

    def _writer_lock(self, *, wait: bool) -> AbstractContextManager[bool]:
        """The inter-process writer lock (``index/locking.py``); yields whether it was taken."""
        return writer_lock(self.cfg.caas_dir, wait_s=_LOCK_WAIT_S if wait else 0.0)

    def repair(self, reason: str, progress: Progress | None = None) -> None:
        """Rebuild after a damaged part was found while reading (``reason``, one line),
        as :meth:`open` does for one found on open."""
        with self._writer_lock(wait=True) as have_lock:
            if not have_lock:
                raise IndexStoreError(f"{reason}; another caas-tui process holds the index, try again shortly")
            self._notify(ManifestCheck.rebuild(reason).notice)
            self._rebuild(progress)

    def close(self) -> None:
        if self.lexical is not None:
            self.lexical.close()
        if self.db is not None:
            self.db.close()
        if self._stored_fragments is not None:
            self._stored_fragments.close()
        self._stored_fragments = None
        self.lexical = None
        self.db = None
