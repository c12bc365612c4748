"""The small interfaces the index is built from, so backends can be swapped and faked."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

from caas_tui.models import Chunk, Kind


@runtime_checkable
class LexicalBackend(Protocol):
    """A BM25-style index over chunks, updated in place."""

    def add(self, chunks: Sequence[Chunk]) -> None:
        """Add or replace chunks (keyed by ``Chunk.id``); visible after ``commit``."""

    def delete(self, chunk_ids: Sequence[str]) -> None:
        """Remove chunks by id; visible after ``commit``."""

    def prepare(self) -> None:
        """Optionally do the slow part of the next ``commit`` early, invisibly to readers
        (the store overlaps it with embedding); ``commit`` redoes it if changes followed."""

    def commit(self) -> None:
        """Make pending changes durable and searchable."""

    def search(
        self, query: str, k: int, kinds: Sequence[Kind] | None = None, *, prefix_last: bool = False
    ) -> list[tuple[str, float]]:
        """Return up to ``k`` ``(chunk_id, score)`` pairs, best first; ``prefix_last``: the last
        word is still being typed (match it as a prefix)."""

    def doc_count(self) -> int: ...

    def close(self) -> None: ...


@runtime_checkable
class PreAnalyzed(Protocol):
    """A lexical backend whose analysis of a chunk can run in another process (a build's
    chunking worker) and be handed to it with the chunk."""

    def analysis(self) -> Callable[[Sequence[Chunk]], Sequence[object]]:
        """A function of chunks to what ``add_analyzed`` takes for them; it holds no state of
        this index (a forked worker calls it)."""

    def add_analyzed(self, chunks: Sequence[Chunk], analyzed: Sequence[object]) -> None:
        """``add(chunks)``, with ``analyzed`` made for them by ``analysis()``."""


@runtime_checkable
class Encoder(Protocol):
    """Turns text into L2-normalised float32 vectors."""

    model_id: str  # recorded in the index manifest; a change forces a rebuild
    dims: int

    def encode(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """Shape ``(len(texts), dims)``, float32, rows L2-normalised (all-zero rows allowed)."""


@runtime_checkable
class VectorIndex(Protocol):
    """Cosine nearest neighbours over vectors keyed by chunk id."""

    def upsert(self, ids: Sequence[str], vectors: np.ndarray) -> None: ...

    def remove(self, ids: Sequence[str]) -> None: ...

    def search(self, vector: np.ndarray, k: int, allowed: set[str] | None = None) -> list[tuple[str, float]]:
        """Return up to ``k`` ``(chunk_id, cosine)`` pairs, best first; skip ids not in ``allowed``."""

    def save(self, directory: Path) -> None: ...

    def __len__(self) -> int: ...
