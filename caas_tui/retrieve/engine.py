"""The search engine every front end uses: open a project, keep it fresh, answer queries."""

from __future__ import annotations

import fnmatch
import threading
from collections.abc import Collection, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from caas_tui.config import Config, load_config
from caas_tui.errors import CaasError, PathOutsideRoot, ProjectError
from caas_tui.index.chunkdb import CorruptChunkStore
from caas_tui.index.protocols import Encoder
from caas_tui.index.refreshstats import Notify, Progress, RefreshStats, embed_text
from caas_tui.index.store import IndexStore
from caas_tui.limits import MAX_SPAN_CHARS
from caas_tui.models import KINDS, Chunk, Hit, Kind
from caas_tui.retrieve.claimquery import claim_pins
from caas_tui.retrieve.diversity import drop_twins
from caas_tui.retrieve.pinning import pin_exact
from caas_tui.retrieve.ranking import DEFAULT_POLICY, RankPolicy, fuse
from caas_tui.retrieve.request import SearchRequest, SearchResult, as_kinds, as_mode
from caas_tui.retrieve.symbols import SymbolTable
from caas_tui.retrieve.tokenstage import TokenCache
from caas_tui.sources import Discovery

if TYPE_CHECKING:
    # the graph and what walks it load on first use: a search that expands nothing needs none of them
    from caas_tui.graph import SymbolGraph
    from caas_tui.retrieve.chain import Chain
    from caas_tui.retrieve.expand import NodeChunks
    from caas_tui.retrieve.rerank import Reranker


def load_reranker() -> Reranker:
    """The default re-ranker (``retrieve/rerank.py``, imported here on first use: a search that
    does not re-rank never loads it); tests replace this name to simulate a missing extra."""
    from caas_tui.retrieve.rerank import load_reranker as load

    return load()


class Engine:
    """Thread-safe facade over an :class:`IndexStore`."""

    def __init__(self, store: IndexStore) -> None:
        self.store = store
        self.cfg: Config = store.cfg
        self.root: Path = store.cfg.root
        self._lock = threading.RLock()
        self._symbols: SymbolTable  # over the chunk store: a one-shot search reads a few rows, not all
        self._reindex_memory()
        # -- re-ranking (retrieve/rerank.py): loaded on first use; tests inject a Reranker --
        self.reranker: Reranker | None = None
        # -- fusion policy (retrieve/ranking.py); benchmarks swap it to compare variants --
        self.policy: RankPolicy = DEFAULT_POLICY
        # the token stage's per-chunk token ids (retrieve/tokenstage.py), read from the index when it has them
        self._token_cache = TokenCache(stored=lambda ids: self.store.chunks.token_ids(ids))

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
    ) -> Engine:
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
        """Point the lookups at the (new) store; ``paths``: only those files changed."""
        self._symbols = SymbolTable(source=self.store.chunks)  # the store follows its own refreshes
        self._node_chunks: NodeChunks | None = None  # graph node <-> chunk, built on first expand

    # -- lookups -------------------------------------------------------------------
    def chunk(self, chunk_id: str) -> Chunk | None:
        with self._lock:  # may read the chunk store, which searches share
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

    def _find_code(self, name: str) -> list[Chunk]:
        """Code definitions named exactly ``name`` (the priors' lookup of a test's subject)."""
        return self._symbols.find(name, ("code",), exact_only=True)

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
        """The hits of :meth:`run` for these fields (see :class:`SearchRequest`); ``mode`` and ``kinds``
        are checked here, so front ends may pass what the user typed (CaasError on an unknown one)."""
        request = SearchRequest(query, k, mode=as_mode(mode), kinds=as_kinds(kinds), path_glob=path_glob,
                                prefix_last=prefix_last, expand=expand, rerank=rerank)
        return list(self.run(request).hits)

    def run(self, request: SearchRequest) -> SearchResult:
        """Answer ``request``; with ``rerank`` the result tells how re-ranking went (skipped
        without the extra, or out of time)."""
        query = request.query.strip()
        if not query or request.k <= 0:
            return SearchResult(())
        if query != request.query:
            request = replace(request, query=query)
        if request.rerank:
            return self._run_reranked(request)
        with self._lock:
            try:
                return SearchResult(tuple(self._search(request, request.k)))
            except CorruptChunkStore as exc:  # rows are verified when read: rebuild, as an open would
                self.store.repair(str(exc))
                self._reindex_memory()
                return SearchResult(tuple(self._search(request, request.k)))

    # -- re-ranking (retrieve/rerank.py) ---------------------------------------------
    def _run_reranked(self, request: SearchRequest) -> SearchResult:
        from caas_tui.retrieve.rerank import RerankOutcome, RerankUnavailable  # --rerank only

        with self._lock:
            if self.reranker is None:
                try:
                    self.reranker = load_reranker()
                except RerankUnavailable as exc:
                    return SearchResult(tuple(self._search(request, request.k)), RerankOutcome([], skipped=str(exc)))
            reranker = self.reranker
            hits = self._search(request, max(request.k, reranker.candidates))
        outcome = reranker.rerank(request.query, hits)
        outcome.hits = outcome.hits[: request.k]
        return SearchResult(tuple(outcome.hits), outcome)
    # -- end re-ranking --

    def _search(self, request: SearchRequest, k: int) -> list[Hit]:
        """The fused hits of ``request``, ``k`` of them (more pass through for expansion)."""
        store = self.store
        assert store.lexical is not None and store.vectors is not None
        query, mode, kinds, path_glob = request.query, request.mode, request.kinds, request.path_glob
        depth = max(50, k * 5) * (4 if path_glob else 1)
        scored: dict[str, list[tuple[str, float]]] = {}
        if mode in ("hybrid", "bm25"):
            scored["bm25"] = store.lexical.search(query, depth, kinds, prefix_last=request.prefix_last)
        if mode in ("hybrid", "dense"):
            allowed = set().union(*(store.chunks.ids_of_kind(x) for x in kinds)) if kinds else None
            vec = store.encoder.encode([query], query=True)[0]
            scored["dense"] = store.vectors.search(vec, depth, allowed)
        store.chunks.prefetch(cid for found in scored.values() for cid, _ in found)  # one read, not one per id
        configured = {"bm25": self.cfg.bm25_weight, "dense": self.cfg.dense_weight}
        fused = fuse(query, scored, self.policy, configured=configured, rrf_k=self.cfg.rrf_k,
                     chunk_of=store.chunks.get, kinds=kinds, find=self._find_code,
                     # the token stage re-scores a fusion: a one-channel mode stays that channel
                     tokens=store.encoder if mode == "hybrid" else None, text_of=embed_text,
                     token_cache=self._token_cache)
        claimed: set[str] = set()
        if self.policy.claims:  # a sentence naming symbols: retrieve/claimquery.py
            fused, claimed = claim_pins(query, fused, self._symbols, kinds or KINDS, chunk_of=store.chunks.get,
                                        callees=self.policy.claim_callees,
                                        with_constructors=self.policy.claim_constructors,
                                        calls=self.policy.claim_calls, defaults=self.policy.claim_defaults)
        fused, exact = pin_exact(query, fused, self._symbols, kinds) if not claimed else (fused, set())
        fused = drop_twins(fused, store.chunks.get, pinned=exact | claimed)
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
                    via="exact symbol" if item.id in exact else ("named in the claim" if item.id in claimed else None),
                )
            )
            if len(hits) >= k and not request.expand:  # expansion reuses the scores of the rest
                break
        if request.expand:
            return self._expand(hits, k, kinds, path_glob)
        return hits

    # -- graph (symbol graph, chains, graph-expanded search) ----------------------------
    @property
    def graph(self) -> SymbolGraph:
        with self._lock:  # the first use reads graph.jsonl
            return self.store.graph

    def related(
        self, symbol: str, depth: int | None = None, *, max_hops: int | None = None,
        edges: Collection[str] | None = None, min_confidence: float = 0.0,
    ) -> Chain:
        """The dependency chain around ``symbol`` (see ``retrieve.chain.chain``; ``depth`` and
        ``max_hops`` default to its ``DEFAULT_DEPTH`` and ``MAX_HOPS``)."""
        from caas_tui.retrieve.chain import DEFAULT_DEPTH, MAX_HOPS, chain

        with self._lock:
            return chain(self.store.graph, symbol, DEFAULT_DEPTH if depth is None else depth,
                         max_hops=MAX_HOPS if max_hops is None else max_hops, edges=edges,
                         min_confidence=min_confidence)

    def _expand(self, hits: list[Hit], k: int, kinds: Sequence[Kind] | None, path_glob: str | None) -> list[Hit]:
        from caas_tui.retrieve.expand import NodeChunks, expand_hits

        if self._node_chunks is None:
            self._node_chunks = NodeChunks(self.store.graph, self.store.chunks.values())

        def allow(chunk: Chunk) -> bool:
            return (not kinds or chunk.kind in kinds) and (not path_glob or fnmatch.fnmatch(chunk.path, path_glob))

        return expand_hits(hits, k, self.store.graph, self._node_chunks, self.store.chunks, allow=allow)

    def close(self) -> None:
        with self._lock:
            self.store.close()
