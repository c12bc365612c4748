"""The search engine every front end uses: open a project, keep it fresh, answer queries."""

from __future__ import annotations

import fnmatch
import re
import threading
from collections.abc import Sequence
from pathlib import Path

from caas_tui.config import Config, load_config
from caas_tui.errors import CaasError, PathOutsideRoot, ProjectError
from caas_tui.index.protocols import Encoder
from caas_tui.index.store import IndexStore, Notify, Progress, RefreshStats
from caas_tui.models import KINDS, MODES, Chunk, Hit
from caas_tui.graph import SymbolGraph
from caas_tui.retrieve.chain import DEFAULT_DEPTH, Chain, chain
from caas_tui.retrieve.expand import NodeChunks, expand_hits
from caas_tui.retrieve.fusion import Fused, rrf
from caas_tui.retrieve.symbols import SymbolTable

MAX_SPAN_CHARS = 20_000
_MAX_PINNED = 5
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


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
        **overrides: object,
    ) -> "Engine":
        root_path = Path(root).expanduser()
        if not root_path.exists():
            raise ProjectError(f"{root_path}: no such directory")
        if not root_path.is_dir():
            raise ProjectError(f"{root_path}: not a directory")
        cfg = config or load_config(root_path, **overrides)
        return cls(IndexStore.open(cfg, encoder=encoder, notify=notify, progress=progress, refresh=refresh))

    # -- freshness -----------------------------------------------------------------
    def refresh(self, progress: Progress | None = None) -> RefreshStats:
        with self._lock:
            stats = self.store.refresh(progress=progress)
            if stats.changed_any:
                self._reindex_memory()
            return stats

    def _reindex_memory(self) -> None:
        chunks = self.store.chunks
        self._symbols = SymbolTable(chunks.values())
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
    ) -> list[Hit]:
        """``expand``: also bring in graph neighbours of the top hits (``Hit.via`` says why)."""
        if mode not in MODES:
            raise CaasError(f"unknown search mode {mode!r} (choose from {', '.join(MODES)})")
        bad = [k_ for k_ in (kinds or ()) if k_ not in KINDS]
        if bad:
            raise CaasError(f"unknown kind {bad[0]!r} (choose from {', '.join(KINDS)})")
        query = query.strip()
        if not query or k <= 0:
            return []
        with self._lock:
            return self._search(query, k, mode, list(kinds) if kinds else None, path_glob, prefix_last, expand)

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
        fused, exact = self._pin_exact(query, fused, kinds)
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
            if len(hits) >= k and not expand:  # expansion re-ranks the whole candidate list
                break
        if expand:
            return self._expand(hits, k, kinds, path_glob)
        return hits

    # -- graph (symbol graph, chains, graph-expanded search) ----------------------------
    @property
    def graph(self) -> SymbolGraph:
        return self.store.graph

    def related(self, symbol: str, depth: int = DEFAULT_DEPTH, **options: object) -> Chain:
        """The dependency chain around ``symbol`` (see ``retrieve.chain.chain``)."""
        with self._lock:
            return chain(self.store.graph, symbol, depth, **options)  # type: ignore[arg-type]

    def _expand(self, hits: list[Hit], k: int, kinds: list[str] | None, path_glob: str | None) -> list[Hit]:
        if self._node_chunks is None:
            self._node_chunks = NodeChunks(self.store.graph, self.store.chunks.values())

        def allow(chunk: Chunk) -> bool:
            return (not kinds or chunk.kind in kinds) and (not path_glob or fnmatch.fnmatch(chunk.path, path_glob))

        return expand_hits(hits, k, self.store.graph, self._node_chunks, self.store.chunks, allow=allow)

    def _pin_exact(self, query: str, fused: list[Fused], kinds: list[str] | None) -> tuple[list[Fused], set[str]]:
        """Keep chunks whose symbol the query names exactly at the top.

        A dense near-miss (a similarly named method) can outrank the very definition a
        writer typed; a typed identifier is the strongest signal there is. A name that
        matches many definitions (``__init__``) pins only those the channels found.
        """
        names = [m.group(0) for m in _IDENT.finditer(query) if _looks_like_identifier(m.group(0))]
        if not names:
            return fused, set()
        order = {f.id: i for i, f in enumerate(fused)}
        exact: list[str] = []
        for name in names:
            matches = [c.id for c in self._symbols.find(name, kinds or KINDS, exact_only=True)]
            if len(matches) > _MAX_PINNED:
                matches = sorted((m for m in matches if m in order), key=order.__getitem__)[:_MAX_PINNED]
            exact.extend(m for m in matches if m not in exact)
        if not exact:
            return fused, set()
        exact_set = set(exact)
        top = fused[0].score if fused else 1.0
        pinned = sorted(exact, key=lambda cid: order.get(cid, len(order)))
        by_id = {f.id: f for f in fused}
        head = [by_id.get(cid) or Fused(cid, top, {}) for cid in pinned]
        return head + [f for f in fused if f.id not in exact_set], exact_set

    def close(self) -> None:
        with self._lock:
            self.store.close()


def _looks_like_identifier(token: str) -> bool:
    """Identifiers, not prose: has ``_`` or ``.``, or mixed case inside the word."""
    return "_" in token or "." in token or any(c.isupper() for c in token[1:])
