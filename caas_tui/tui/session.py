"""Everything the app does that is not drawing: the engine, docs, claims, search.

All methods block: screens call them from worker threads, never from the UI thread.
Review-store calls go through one dedicated thread (``store_call``) so decisions land
in order and a SQLite connection is only ever used by the thread that made it.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from caas_tui.config import Config, load_config
from caas_tui.errors import CaasError, ProjectError
from caas_tui.index.refresh import Progress
from caas_tui.models import Claim, Hit
from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.request import SearchRequest
from caas_tui.review.decisions.patch import default_patch_path, write_patch
from caas_tui.sources import Skipped, discover, load_path
from caas_tui.sources.discover import left_out_docs, left_out_message
from caas_tui.tui.review_port import ReviewPort
from caas_tui.tui.state import ClaimState, DocEntry

T = TypeVar("T")
MAX_DOC_BYTES = 2_000_000  # a doc bigger than this is not a doc a writer reviews by eye
_DOC_LANGS = ("markdown", "rst", "text")


class Session:
    """One open project."""

    def __init__(self, root: Path | str, *, index_dir: Path | str | None = None, model: str | None = None) -> None:
        self.root = Path(root).expanduser().resolve()
        self.index_dir = Path(index_dir).expanduser().resolve() if index_dir is not None else None
        self.model = model
        self.engine: Engine | None = None
        self.cfg: Config | None = None
        self.port: ReviewPort | None = None
        self._store = ThreadPoolExecutor(max_workers=1, thread_name_prefix="caas-store")
        self._claims: dict[str, list[Claim]] = {}
        self._lock = threading.Lock()

    # -- lifecycle ------------------------------------------------------------------
    def open(self, progress: Progress | None = None, notify: Callable[[str], None] | None = None) -> Engine:
        """Open (building or refreshing) the index, then the review store."""
        if not self.root.is_dir():
            raise ProjectError(f"{self.root}: no such directory")
        self.cfg = load_config(self.root, index_dir=self.index_dir, model=self.model)
        engine = Engine.open(self.root, config=self.cfg, progress=progress, notify=notify)
        self.engine = engine
        # The store is created on its own thread: that thread alone uses it from now on.
        self.port = self._store.submit(ReviewPort, engine, self.cfg).result()
        return engine

    def left_out_notice(self) -> str | None:
        """The line `review --check` prints when ignore rules left docs out (None: none were)."""
        engine = self.need_engine()
        return left_out_message(left_out_docs(engine.cfg, discover(engine.cfg)))

    def close(self) -> None:
        if self.port is not None:
            port = self.port
            self._store.submit(port.close).result()
        self._store.shutdown(wait=True, cancel_futures=True)
        if self.engine is not None:
            self.engine.close()

    @property
    def ready(self) -> bool:
        return self.engine is not None and self.port is not None

    def need_engine(self) -> Engine:
        if self.engine is None:
            raise CaasError("the index is still being built")
        return self.engine

    def need_port(self) -> ReviewPort:
        if self.port is None:
            raise CaasError("the index is still being built")
        return self.port

    async def store_call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``fn`` on the store thread and await its result (FIFO: decisions keep order)."""
        return await asyncio.wrap_future(self._store.submit(fn, *args, **kwargs))

    def store_call_sync(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """The same from a worker thread."""
        return self._store.submit(fn, *args, **kwargs).result()

    # -- docs and claims ------------------------------------------------------------
    def docs(self) -> list[DocEntry]:
        """Markdown/reST/text docs first, then Python modules that carry docstrings."""
        engine = self.need_engine()
        docs: dict[str, str] = {}
        modules: set[str] = set()
        for chunk in engine.chunks():
            if chunk.kind == "doc" and chunk.language in _DOC_LANGS:
                docs[chunk.path] = chunk.language
            elif chunk.kind == "api" and chunk.language == "python":
                modules.add(chunk.path)
        ordered = sorted(docs, key=lambda p: (not p.lower().startswith("readme"), p.count("/") == 0, p))
        return [DocEntry(p, docs[p]) for p in ordered] + [DocEntry(p, "python") for p in sorted(modules)]

    def read_doc(self, path: str) -> str:
        target = self.need_engine().resolve_path(path)
        gate = load_path(self.need_engine().cfg, path)  # the same size cap and binary sniff as indexing
        if isinstance(gate, Skipped):
            raise CaasError(gate.reason)
        try:
            if target.stat().st_size > MAX_DOC_BYTES:
                raise CaasError(f"{path}: over {MAX_DOC_BYTES // 1_000_000} MB, too big to review here")
            return target.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise CaasError(f"{path}: cannot read ({exc.strerror or exc})") from exc

    def open_doc(self, path: str) -> tuple[str, list[Claim], dict[str, ClaimState]]:
        """A doc's text, its claims and their states (from a worker thread)."""
        text = self.read_doc(path)
        claims = self.claims(path)
        return text, claims, self.store_call_sync(self.need_port().states, claims)

    def claims(self, path: str, *, fresh: bool = False) -> list[Claim]:
        with self._lock:
            if not fresh and path in self._claims:
                return self._claims[path]
        claims = self.store_call_sync(self.need_port().claims, path)
        with self._lock:
            self._claims[path] = claims
        return claims

    def forget_claims(self, path: str | None = None) -> None:
        with self._lock:
            if path is None:
                self._claims.clear()
            else:
                self._claims.pop(path, None)

    # -- search ---------------------------------------------------------------------
    def search(
        self, query: str, *, mode: str, kinds: Sequence[str] | None, prefix_last: bool, k: int = 20
    ) -> list[Hit]:
        return self.need_engine().search(query, k, mode=mode, kinds=kinds or None, prefix_last=prefix_last)

    def run(self, request: SearchRequest) -> list[Hit]:
        """The hits of a search made whole (a claim's evidence search: ``widgets.evidence.claim_search``)."""
        return list(self.need_engine().run(request).hits)

    # -- editor ---------------------------------------------------------------------
    def editor_command(self, path: str, line: int) -> list[str]:
        """``$VISUAL``/``$EDITOR`` with the ``+LINE path`` convention (vi, emacs, nano, code -g differ: +LINE is the common one)."""
        import shlex

        editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
        if not editor or not editor.strip():
            raise CaasError("$EDITOR is not set: export EDITOR=vim (or nano, emacs, ...) to open files")
        target = self.need_engine().resolve_path(path)
        return [*shlex.split(editor), f"+{max(1, line)}", str(target)]

    # -- export ---------------------------------------------------------------------
    def default_export_path(self) -> str:
        """Where ``w`` offers to write: ``<index dir>/exports/caas-fixes-<timestamp>.patch``, shown
        relative to the root when it is inside it."""
        target = default_patch_path(self.need_engine().cfg.caas_dir)
        return target.relative_to(self.root).as_posix() if target.is_relative_to(self.root) else str(target)

    def write_patch(self, patch: str, path: str) -> str:
        """Write ``patch`` to ``path`` (relative to the root unless absolute), whole or not at all;
        returns its full path."""
        target = Path(path).expanduser()
        if not target.is_absolute():
            target = self.root / target
        write_patch(target, patch)
        return str(target.resolve())  # the full path: the writer must be able to find it
