"""The search engine every front end uses: open a project, keep it fresh, answer queries."""

from __future__ import annotations

import fnmatch
import threading
from collections.abc import Collection, Sequence
from pathlib import Path

from caas_tui.config import Config, load_config
from caas_tui.errors import CaasError, PathOutsideRoot, ProjectError
from caas_tui.index.protocols import Encoder
from caas_tui.index.store import IndexStore, Notify, Progress, RefreshStats
from caas_tui.models import KINDS, MODES, Chunk, Hit
from caas_tui.sources import Discovery
from caas_tui.graph import SymbolGraph
from caas_tui.retrieve.chain import DEFAULT_DEPTH, MAX_HOPS, Chain, chain
from caas_tui.retrieve.expand import NodeChunks, expand_hits
from caas_tui.retrieve.diversity import drop_twins
from caas_tui.retrieve.fusion import rrf
from caas_tui.retrieve.rerank import Reranker, RerankOutcome, RerankUnavailable, load_reranker
from caas_tui.retrieve.pinning import pin_exact
from caas_tui.retrieve.symbols import SymbolTable

MAX_SPAN_CHARS = 20_000


class Engine:
    """Thread-safe facade over an :class:`IndexStore`."""

    def __init__(self, store: IndexStore) -> None:
        self.store = store
        self.cfg: Config = store.cfg
        self.root: Path = store.cfg.root
        self._lock = threading.RLock()
        self._symbols = SymbolTable(store.chunks.values())
        self._kind_ids: dict[str, set[str]] = {}
        self._reindex_memory()
        # -- re-ranking (retrieve/rerank.py): loaded on first use; tests inject a Reranker --
        self.reranker: Reranker | None = None
        # Per thread: reviewers search from several worker threads at once, and each
        # must read how *its* re-ranking went.
        self._rerank_state = threading.local()

    @property
    def last_rerank(self) -> RerankOutcome | None:
        """How this thread's latest ``search(rerank=True)`` went (None before the first)."""
        return getattr(self._rerank_state, "outcome", None)

    @last_rerank.setter
    def last_rerank(self, outcome: RerankOutcome | None) -> None:
        self._rerank_state.outcome = outcome

    @classmethod
    def open(
        cls,
        root: Path | str,
        *,
        config: Config | None = None,
        encoder: Encoder | None = None,
        progress: Progress | None = None,
        notify: Notify | None = None,
        refresh: bool = True,
        read_only: bool = False,
        **overrides: object,
    ) -> "Engine":
        root_path = Path(root).expanduser()
        if not root_path.exists():
            raise ProjectError(f"{root_path}: no such directory")
        if not root_path.is_dir():
            raise ProjectError(f"{root_path}: not a directory")
        cfg = config or load_config(root_path, **overrides)
        return cls(
            IndexStore.open(cfg, encoder=encoder, notify=notify, progress=progress, refresh=refresh, read_only=read_only)
        )

    # -- freshness -----------------------------------------------------------------
    def refresh(
        self,
        progress: Progress | None = None,
        *,
        discovery: Discovery | None = None,
        scope: Collection[str] | None = None,
    ) -> RefreshStats:
        """``discovery``/``scope``: the file watcher's path-targeted fast path (see ``IndexStore.refresh``)."""
        with self._lock:
            stats = self.store.refresh(progress=progress, discovery=discovery, scope=scope)
            if stats.rebuilt or stats.reloaded:
                self._reindex_memory()
            elif stats.changed_any:
                self._reindex_memory(paths={*stats.added, *stats.changed, *stats.removed})
            return stats

    def reopen(self, progress: Progress | None = None, notify: Notify | None = None) -> RefreshStats:
        """Re-open the index from disk, rebuilding it when missing or broken.

        The file watcher calls this when the index directory vanished under it: the
        open store's files are gone, so refreshing it would write into nothing.
        """
        with self._lock:
            old = self.store
            # open the new store before closing the old: if opening fails, searches keep working
            self.store = IndexStore.open(self.cfg, encoder=old.encoder, notify=notify or old._notify, progress=progress)
            old.close()
            self._reindex_memory()
            return self.store.last_stats or RefreshStats()

    def _reindex_memory(self, paths: set[str] | None = None) -> None:
        """Rebuild the in-memory lookups; with ``paths``, update names only for those files."""
        chunks = self.store.chunks
        if paths is None:
            self._symbols = SymbolTable(chunks.values())
        else:
            self._symbols.replace_paths(paths, (c for c in chunks.values() if c.path in paths))
        kind_ids: dict[str, set[str]] = {k: set() for k in KINDS}
        for cid, chunk in chunks.items():
            kind_ids.setdefault(chunk.kind, set()).add(cid)
        self._kind_ids = kind_ids
        self._node_chunks: NodeChunks | None = None  # graph node <-> chunk, built on first expand

    # -- lookups -------------------------------------------------------------------
    def chunk(self, chunk_id: str) -> Chunk | None:
        return self.store.chunks.get(chunk_id)

    def chunks(self) -> list[Chunk]:
        with self._lock:
            return list(self.store.chunks.values())

    def chunks_for_path(self, path: str) -> list[Chunk]:
        with self._lock:
            return sorted((c for c in self.store.chunks.values() if c.path == path), key=lambda c: c.start_line)

    def find_symbol(self, name: str, *, kinds: Sequence[str] = ("code", "test", "upstream")) -> list[Chunk]:
        """Definitions whose qualified name is ``name``, ends with ``.name``, or whose short name is ``name``."""
        with self._lock:
            return self._symbols.find(name, kinds)

    def resolve_path(self, path: str) -> Path:
        """An absolute path for ``path`` (relative to the root), refusing anything outside it."""
        candidate = (self.root / path).resolve()
        if not candidate.is_relative_to(self.root):
            raise PathOutsideRoot(f"{path}: outside the project root")
        return candidate

    def read_span(self, path: str, start_line: int, end_line: int, *, max_chars: int = MAX_SPAN_CHARS) -> str:
        """Exact text of lines ``start_line..end_line`` (1-based, inclusive) of a project file."""
        if start_line < 1 or end_line < start_line:
            raise CaasError(f"{path}: bad line range {start_line}-{end_line}")
        target = self.resolve_path(path)
        try:
            lines = target.read_text(encoding="utf-8", errors="replace").split("\n")
        except OSError as exc:
            raise CaasError(f"{path}: cannot read ({exc.strerror or exc})") from exc
        text = "\n".join(lines[start_line - 1 : end_line])
        if len(text) > max_chars:
            raise CaasError(f"{path}:{start_line}-{end_line}: span is {len(text)} characters, over the {max_chars} limit")
        return text

    # -- search --------------------------------------------------------------------
    def search(
        self,
        query: str,
        k: int = 10,
        *,
        mode: str = "hybrid",
        kinds: Sequence[str] | None = None,
        path_glob: str | None = None,
        prefix_last: bool = False,
        expand: bool = False,
        rerank: bool = False,
    ) -> list[Hit]:
        """``expand``: after the ``k`` hits, add up to ``k`` graph neighbours of the top 5
        (callees, callers, tests, overrides, constants, upstream pages; ``Hit.via`` says why).

        ``rerank``: re-score the top fused hits with a transformer (``retrieve/rerank.py``);
        ``last_rerank`` then tells how it went (skipped without the extra, or out of time).
        """
        if mode not in MODES:
            raise CaasError(f"unknown search mode {mode!r} (choose from {', '.join(MODES)})")
        bad = [k_ for k_ in (kinds or ()) if k_ not in KINDS]
        if bad:
            raise CaasError(f"unknown kind {bad[0]!r} (choose from {', '.join(KINDS)})")
        query = query.strip()
        if not query or k <= 0:
            return []
        if rerank:
            return self._search_reranked(query, k, mode, list(kinds) if kinds else None, path_glob, prefix_last,
                                         expand)
        with self._lock:
            return self._search(query, k, mode, list(kinds) if kinds else None, path_glob, prefix_last, expand)

    # -- re-ranking (retrieve/rerank.py) ---------------------------------------------
    def _search_reranked(
        self, query: str, k: int, mode: str, kinds: list[str] | None, path_glob: str | None, prefix_last: bool,
        expand: bool,
    ) -> list[Hit]:
        with self._lock:
            if self.reranker is None:
                try:
                    self.reranker = load_reranker()
                except RerankUnavailable as exc:
                    self.last_rerank = RerankOutcome([], skipped=str(exc))
                    return self._search(query, k, mode, kinds, path_glob, prefix_last, expand)
            reranker = self.reranker
            hits = self._search(query, max(k, reranker.candidates), mode, kinds, path_glob, prefix_last, expand)
        outcome = reranker.rerank(query, hits)
        outcome.hits = outcome.hits[:k]
        self.last_rerank = outcome
        return outcome.hits
    # -- end re-ranking --

    def _search(
        self, query: str, k: int, mode: str, kinds: list[str] | None, path_glob: str | None, prefix_last: bool,
        expand: bool = False,
    ) -> list[Hit]:
        store = self.store
        assert store.lexical is not None and store.vectors is not None
        depth = max(50, k * 5) * (4 if path_glob else 1)
        rankings: dict[str, list[str]] = {}
        if mode in ("hybrid", "bm25"):
            rankings["bm25"] = [cid for cid, _ in store.lexical.search(query, depth, kinds, prefix_last=prefix_last)]
        if mode in ("hybrid", "dense"):
            allowed = set().union(*(self._kind_ids.get(x, set()) for x in kinds)) if kinds else None
            vec = store.encoder.encode([query], query=True)[0]
            rankings["dense"] = [cid for cid, _ in store.vectors.search(vec, depth, allowed)]
        weights = {"bm25": self.cfg.bm25_weight, "dense": self.cfg.dense_weight}
        fused = rrf(rankings, k=self.cfg.rrf_k, weights=weights)
        fused, exact = pin_exact(query, fused, self._symbols, kinds)
        fused = drop_twins(fused, store.chunks.get, pinned=exact)
        hits: list[Hit] = []
        for item in fused:
            chunk = store.chunks.get(item.id)
            if chunk is None or (path_glob and not fnmatch.fnmatch(chunk.path, path_glob)):
                continue
            hits.append(
                Hit(
                    chunk=chunk,
                    rank=len(hits) + 1,
                    score=item.score,
                    bm25_rank=item.ranks.get("bm25"),
                    dense_rank=item.ranks.get("dense"),
                    via="exact symbol" if item.id in exact else None,
                )
            )
            if len(hits) >= k and not expand:  # expansion reuses the scores of the rest
                break
        if expand:
            return self._expand(hits, k, kinds, path_glob)
        return hits

    # -- graph (symbol graph, chains, graph-expanded search) ----------------------------
    @property
    def graph(self) -> SymbolGraph:
        return self.store.graph

    def related(
        self, symbol: str, depth: int = DEFAULT_DEPTH, *, max_hops: int = MAX_HOPS,
        edges: Collection[str] | None = None, min_confidence: float = 0.0,
    ) -> Chain:
        """The dependency chain around ``symbol`` (see ``retrieve.chain.chain``)."""
        with self._lock:
            return chain(self.store.graph, symbol, depth, max_hops=max_hops, edges=edges, min_confidence=min_confidence)

    def _expand(self, hits: list[Hit], k: int, kinds: list[str] | None, path_glob: str | None) -> list[Hit]:
        if self._node_chunks is None:
            self._node_chunks = NodeChunks(self.store.graph, self.store.chunks.values())

        def allow(chunk: Chunk) -> bool:
            return (not kinds or chunk.kind in kinds) and (not path_glob or fnmatch.fnmatch(chunk.path, path_glob))

        return expand_hits(hits, k, self.store.graph, self._node_chunks, self.store.chunks, allow=allow)

    def close(self) -> None:
        with self._lock:
            self.store.close()
