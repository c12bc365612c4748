"""Cosine nearest-neighbour indexes over chunk vectors, keyed by chunk id.

- :class:`ExactVectorIndex`: a float32 numpy matrix, one matmul per query. Exact,
  deterministic and faster at project sizes (2 cores, 256 dims: 14.5k vectors
  ~0.45 ms/query, 1M ~48 ms).
- :class:`UsearchVectorIndex`: usearch HNSW. Approximate (recall ~0.97), slow to
  build (1M: ~255 s), so it pays off only from ~100k vectors.

:func:`make_vector_index` picks one by expected size, :func:`load_vector_index`
reopens whichever was saved. Both keep vectors L2-normalised, skip all-zero
vectors (no direction: such ids are not stored) and break score ties by id.
"""

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
from caas_tui.index.protocols import VectorIndex

EXACT_MAX_VECTORS = 100_000  # below this, brute force beats HNSW and is exact
IDS_FILE = "ids.json"
VECTORS_FILE = "vectors.npy"
USEARCH_FILE = "usearch.index"
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


def _top_k(ids: Sequence[str], scores: np.ndarray, k: int) -> list[tuple[str, float]]:
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


def _check_batch(ids: Sequence[str], vectors: np.ndarray, dims: int | None) -> np.ndarray:
    matrix = normalize_rows(vectors)
    if matrix.ndim != 2 or matrix.shape[0] != len(ids):
        raise ValueError(f"expected {len(ids)} vectors, got array of shape {np.shape(vectors)}")
    if dims is not None and matrix.shape[1] != dims:
        raise ValueError(f"expected {dims}-dim vectors, got {matrix.shape[1]}")
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate ids in one upsert")
    return matrix


def _query(vector: np.ndarray, dims: int | None) -> np.ndarray | None:
    """Unit float32 query, or None when nothing can match (empty index, zero query)."""
    # float32 throughout: a float64 query would upcast the whole matmul.
    q = normalize_rows(np.asarray(vector, dtype=np.float32).reshape(1, -1))[0]
    if dims is not None and q.shape[0] != dims:
        raise ValueError(f"expected a {dims}-dim query vector, got {q.shape[0]}")
    return q if dims is not None and q.any() else None


def _atomic_write(path: Path, write: Callable[[Any], None]) -> None:
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


def _sha256(path: Path) -> str:
    return file_sha256(path)  # shared with integrity.py: one read of a big matrix per open, not two


def _write_meta(directory: Path, meta: dict[str, Any]) -> None:
    payload = json.dumps({"version": FORMAT_VERSION, **meta}).encode("utf-8")
    _atomic_write(directory / IDS_FILE, lambda handle: handle.write(payload))


def _read_meta(directory: Path, backend: str) -> dict[str, Any]:
    path = directory / IDS_FILE
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise IndexStoreError(f"vector index {path} is missing or unreadable ({exc})") from exc
    if not isinstance(meta, dict) or meta.get("version") != FORMAT_VERSION or meta.get("backend") != backend:
        raise IndexStoreError(f"vector index {path} is not a version-{FORMAT_VERSION} {backend} index")
    return meta


class ExactVectorIndex:
    """Brute-force cosine search over a float32 matrix (rows kept unit length)."""

    backend = "exact"

    def __init__(self, dims: int | None = None) -> None:
        self.dims = dims
        self._ids: list[str] = []
        self._pos: dict[str, int] = {}
        self._mat = np.zeros((0, dims or 0), dtype=np.float32)  # capacity >= len(ids)

    def __len__(self) -> int:
        return len(self._ids)

    def ids(self) -> list[str]:
        return list(self._ids)

    def upsert(self, ids: Sequence[str], vectors: np.ndarray) -> None:
        if not len(ids):
            return
        matrix = _check_batch(ids, vectors, self.dims)
        if self.dims is None:
            self.dims = int(matrix.shape[1])
            self._mat = np.zeros((0, self.dims), dtype=np.float32)
        keep = np.asarray(matrix.any(axis=1))
        # A zero vector replaces an old one by making the id unsearchable.
        self.remove([cid for cid, ok in zip(ids, keep, strict=True) if not ok])
        new = [i for i, cid in enumerate(ids) if keep[i] and cid not in self._pos]
        self._reserve(len(self._ids) + len(new))
        for i, cid in enumerate(ids):
            if keep[i] and cid in self._pos:
                self._mat[self._pos[cid]] = matrix[i]
        for i in new:
            self._pos[ids[i]] = len(self._ids)
            self._mat[len(self._ids)] = matrix[i]
            self._ids.append(ids[i])

    def _reserve(self, rows: int) -> None:
        if rows > self._mat.shape[0]:  # grow geometrically: many small upserts stay O(n) overall
            grown = np.zeros((max(rows, 2 * self._mat.shape[0], 64), self._mat.shape[1]), dtype=np.float32)
            grown[: len(self._ids)] = self._mat[: len(self._ids)]
            self._mat = grown

    def remove(self, ids: Sequence[str]) -> None:
        for cid in ids:
            row = self._pos.pop(cid, None)
            if row is None:
                continue
            last = len(self._ids) - 1
            if row != last:  # move the last row into the hole: O(1), order is irrelevant
                moved = self._ids[last]
                self._ids[row] = moved
                self._mat[row] = self._mat[last]
                self._pos[moved] = row
            self._ids.pop()

    def search(self, vector: np.ndarray, k: int, allowed: set[str] | None = None) -> list[tuple[str, float]]:
        q = _query(vector, self.dims)
        if q is None or k <= 0 or not self._ids:
            return []
        if allowed is None:
            return _top_k(self._ids, self._mat[: len(self._ids)] @ q, k)
        rows = np.fromiter((self._pos[cid] for cid in allowed if cid in self._pos), dtype=np.intp)
        if not len(rows):
            return []
        if 4 * len(rows) < len(self._ids):  # a narrow filter: score only its rows
            return _top_k([self._ids[r] for r in rows], self._mat[rows] @ q, k)
        # A wide filter: copying most of the matrix costs more than scoring it all.
        scores = np.full(len(self._ids), -np.inf, dtype=np.float32)
        scores[rows] = (self._mat[: len(self._ids)] @ q)[rows]
        return _top_k(self._ids, scores, min(k, len(rows)))

    def save(self, directory: Path) -> None:
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        matrix = self._mat[: len(self._ids)]
        _atomic_write(directory / VECTORS_FILE, lambda handle: np.save(handle, matrix, allow_pickle=False))
        # ids.json goes last and pins the vectors file's hash, so a crash between the
        # two replaces is detected on load instead of pairing ids with wrong vectors.
        meta = {"backend": self.backend, "dims": self.dims, "ids": self._ids}
        _write_meta(directory, {**meta, "vectors_sha256": _sha256(directory / VECTORS_FILE)})

    @classmethod
    def load(cls, directory: Path) -> ExactVectorIndex:
        directory = Path(directory)
        meta = _read_meta(directory, cls.backend)
        path = directory / VECTORS_FILE
        try:
            if _sha256(path) != meta.get("vectors_sha256"):
                raise IndexStoreError(f"vector index {path} does not match {IDS_FILE}; rebuild the index")
            matrix = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise IndexStoreError(f"vector index {path} is missing or unreadable ({exc})") from exc
        ids = [str(cid) for cid in meta.get("ids", [])]
        dims = meta.get("dims")
        if matrix.dtype != np.float32 or matrix.ndim != 2 or matrix.shape[0] != len(ids):
            raise IndexStoreError(f"vector index {path} has shape {matrix.shape}, expected {len(ids)} rows")
        index = cls(dims if isinstance(dims, int) else None)
        if ids:
            index.dims = int(matrix.shape[1])
            index._mat = np.ascontiguousarray(matrix)
            index._ids = ids
            index._pos = {cid: i for i, cid in enumerate(ids)}
        return index


class UsearchVectorIndex:
    """usearch HNSW (cosine) for large collections; chunk ids map to fresh uint64 keys.

    usearch raises when a key is added twice, so an upsert removes the id's old key
    and adds the vector under a new one (keys are never reused, ids never collide).
    """

    backend = "usearch"
    exact_filter_max = 8192  # filters this small (or < 1/8 of the index) are searched exactly
    # Single-threaded inserts: with usearch's parallel add the graph differed run to
    # run and lost neighbours (4-11% of top-10 lists on 300 random vectors, vs 0%).
    # Set 0 (all cores) to build big indexes ~2x faster at that cost.
    add_threads = 1

    def __init__(self, dims: int | None = None) -> None:
        self.dims = dims
        self._index: Any = None  # usearch.index.Index, created on first upsert or load
        self._key: dict[str, int] = {}
        self._id: dict[int, str] = {}
        self._next_key = 0

    def __len__(self) -> int:
        return len(self._key)

    def ids(self) -> list[str]:
        return list(self._key)

    def _new_index(self, dims: int) -> Any:
        from usearch.index import Index  # imported late: only large projects need it

        return Index(ndim=dims, metric="cos", dtype="f32")

    def upsert(self, ids: Sequence[str], vectors: np.ndarray) -> None:
        if not len(ids):
            return
        matrix = _check_batch(ids, vectors, self.dims)
        if self._index is None:
            self.dims = int(matrix.shape[1])
            self._index = self._new_index(self.dims)
        self.remove(ids)
        keep = np.flatnonzero(matrix.any(axis=1))
        if not len(keep):
            return
        keys = np.arange(self._next_key, self._next_key + len(keep), dtype=np.uint64)
        self._next_key += len(keep)
        self._index.add(keys, matrix[keep], threads=self.add_threads)
        for key, row in zip(keys.tolist(), keep.tolist(), strict=True):
            self._key[ids[row]] = key
            self._id[key] = ids[row]

    def remove(self, ids: Sequence[str]) -> None:
        keys = [self._key.pop(cid) for cid in ids if cid in self._key]
        for key in keys:
            del self._id[key]
        if keys:
            self._index.remove(np.asarray(keys, dtype=np.uint64))

    def search(self, vector: np.ndarray, k: int, allowed: set[str] | None = None) -> list[tuple[str, float]]:
        q = _query(vector, self.dims)
        if q is None or k <= 0 or not self._key:
            return []
        if allowed is not None:
            subset = sorted(cid for cid in allowed if cid in self._key)
            # A small filter is answered exactly from the stored vectors: HNSW can't
            # filter, and oversampling for a few allowed ids would scan most of the graph.
            if len(subset) <= max(self.exact_filter_max, len(self._key) // 8):
                if not subset:
                    return []
                stored = self._index.get(np.asarray([self._key[c] for c in subset], dtype=np.uint64))
                return _top_k(subset, normalize_rows(stored) @ q, k)
        count = min(len(self._key), k + 16)  # a little slack so boundary ties sort by id
        while True:
            found = self._index.search(q, count, threads=1)
            pairs = [
                (self._id[key], 1.0 - float(dist))
                for key, dist in zip(found.keys.tolist(), found.distances.tolist(), strict=True)
                if key in self._id and (allowed is None or self._id[key] in allowed)
            ]
            if len(pairs) >= k or count >= len(self._key):
                break
            count = min(len(self._key), count * 4)
        return _top_k([cid for cid, _ in pairs], np.asarray([sc for _, sc in pairs], dtype=np.float32), k)

    def save(self, directory: Path) -> None:
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / USEARCH_FILE
        index = self._index if self._index is not None else self._new_index(self.dims or 1)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
        os.close(fd)
        try:  # by path, not save() -> bytes: a large index would be held twice in memory
            index.save(tmp)
            os.replace(tmp, path)
        finally:
            Path(tmp).unlink(missing_ok=True)
        keys = [[cid, key] for cid, key in self._key.items()]
        meta = {"backend": self.backend, "dims": self.dims, "keys": keys, "next_key": self._next_key}
        _write_meta(directory, {**meta, "index_sha256": _sha256(path)})

    @classmethod
    def load(cls, directory: Path) -> UsearchVectorIndex:
        directory = Path(directory)
        meta = _read_meta(directory, cls.backend)
        path = directory / USEARCH_FILE
        try:
            if _sha256(path) != meta.get("index_sha256"):
                raise IndexStoreError(f"vector index {path} does not match {IDS_FILE}; rebuild the index")
            from usearch.index import Index

            restored = Index.restore(str(path))
        except (OSError, ValueError, RuntimeError) as exc:
            raise IndexStoreError(f"vector index {path} is missing or unreadable ({exc})") from exc
        if restored is None:
            raise IndexStoreError(f"vector index {path} is not a usearch index")
        index = cls(meta.get("dims"))
        index._index = restored
        index._key = {str(cid): int(key) for cid, key in meta.get("keys", [])}
        index._id = {key: cid for cid, key in index._key.items()}
        index._next_key = int(meta.get("next_key", 0))
        return index


def make_vector_index(n_expected: int, dims: int | None = None) -> VectorIndex:
    """Exact below :data:`EXACT_MAX_VECTORS` expected vectors, usearch HNSW above.

    Why there: brute force is exact and sub-millisecond at project sizes; only past
    ~100k vectors do its tens of ms per query justify HNSW's approximate answers
    and slow build (numbers in the module docstring).
    """
    if n_expected < EXACT_MAX_VECTORS:
        return ExactVectorIndex(dims)
    return UsearchVectorIndex(dims)


def load_vector_index(directory: Path) -> VectorIndex:
    """Reopen whichever backend ``save`` wrote into ``directory``."""
    meta_path = Path(directory) / IDS_FILE
    try:
        backend = json.loads(meta_path.read_text(encoding="utf-8")).get("backend")
    except (OSError, ValueError, AttributeError) as exc:
        raise IndexStoreError(f"vector index {meta_path} is missing or unreadable ({exc})") from exc
    for cls in (ExactVectorIndex, UsearchVectorIndex):
        if backend == cls.backend:
            return cls.load(Path(directory))
    raise IndexStoreError(f"vector index {meta_path} names an unknown backend {backend!r}")
