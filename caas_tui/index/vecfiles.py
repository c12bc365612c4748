"""What every vector index shares: unit rows, top-k with id tie-breaks, and its files
(written atomically; ``ids.json`` last, pinning the other files' hashes)."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from caas_tui.errors import IndexStoreError
from caas_tui.index.integrity import file_sha256

IDS_FILE = "ids.json"
VECTORS_FILE = "vectors.npy"
USEARCH_FILE = "usearch.index"
CLUSTERS_FILE = "clusters.npz"
FORMAT_VERSION = 1


def normalize_rows(matrix: np.ndarray) -> np.ndarray:
    """float32 copy with unit-length rows; all-zero (or non-finite) rows become zero."""
    out = np.array(matrix, dtype=np.float32, copy=True, ndmin=2)
    if out.size == 0:
        return out
    out[~np.isfinite(out).all(axis=1)] = 0.0
    norms = np.linalg.norm(out, axis=1)
    nonzero = norms > 0
    out[nonzero] /= norms[nonzero, None]
    return out


def top_k(ids: Sequence[str], scores: np.ndarray, k: int) -> list[tuple[str, float]]:
    """Best ``k`` by score, ties broken by id, whatever the order of ``ids``."""
    if k <= 0 or len(ids) == 0:
        return []
    if k < len(ids):
        # Keep everything tied with the k-th score so the id tie-break sees all of them.
        kth = np.partition(scores, len(ids) - k)[len(ids) - k]
        candidates = np.flatnonzero(scores >= kth)
    else:
        candidates = np.arange(len(ids))
    ranked = sorted((-float(scores[i]), ids[int(i)]) for i in candidates)
    return [(cid, -neg) for neg, cid in ranked[:k]]


def check_batch(ids: Sequence[str], vectors: np.ndarray, dims: int | None) -> np.ndarray:
    matrix = normalize_rows(vectors)
    if matrix.ndim != 2 or matrix.shape[0] != len(ids):
        raise ValueError(f"expected {len(ids)} vectors, got array of shape {np.shape(vectors)}")
    if dims is not None and matrix.shape[1] != dims:
        raise ValueError(f"expected {dims}-dim vectors, got {matrix.shape[1]}")
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate ids in one upsert")
    return matrix


def unit_query(vector: np.ndarray, dims: int | None) -> np.ndarray | None:
    """Unit float32 query, or None when nothing can match (empty index, zero query)."""
    # float32 throughout: a float64 query would upcast the whole matmul.
    q = normalize_rows(np.asarray(vector, dtype=np.float32).reshape(1, -1))[0]
    if dims is not None and q.shape[0] != dims:
        raise ValueError(f"expected a {dims}-dim query vector, got {q.shape[0]}")
    return q if dims is not None and q.any() else None


def atomic_write(path: Path, write: Callable[[Any], None]) -> None:
    """Write via a temp file in the same folder + os.replace: readers never see half a file."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def sha256(path: Path) -> str:
    return file_sha256(path)  # shared with integrity.py: one read of a big matrix per open, not two


def write_meta(directory: Path, meta: dict[str, Any]) -> None:
    payload = json.dumps({"version": FORMAT_VERSION, **meta}).encode("utf-8")
    atomic_write(directory / IDS_FILE, lambda handle: handle.write(payload))


def read_meta(directory: Path, backend: str, meta: Any = None) -> dict[str, Any]:
    """``ids.json`` of ``directory``, checked to be a current ``backend`` index. ``meta``: the file
    as the caller already parsed it (checked the same way): at stdlib scale it lists ~15k ids, and
    parsing it once per reader, not once to find the backend and again to load, saves ~2 ms a search."""
    path = directory / IDS_FILE
    if meta is None:
        try:
            meta = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise IndexStoreError(f"vector index {path} is missing or unreadable ({exc})") from exc
    if not isinstance(meta, dict) or meta.get("version") != FORMAT_VERSION or meta.get("backend") != backend:
        raise IndexStoreError(f"vector index {path} is not a version-{FORMAT_VERSION} {backend} index")
    return meta
