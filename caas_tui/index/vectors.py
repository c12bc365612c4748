"""Cosine nearest-neighbour indexes over chunk vectors, keyed by chunk id.

- :class:`ExactVectorIndex`: a float32 numpy matrix, one matmul per query. Exact,
  deterministic and faster at project sizes (2 cores, 256 dims: 14.5k vectors
  ~0.45 ms/query, 1M ~48 ms).
- :class:`ClusteredVectorIndex`: the store's index. Exact below the crossover, k-means
  lists over the same matrix above it (``index/clusters.py``): a query scans ~1/4-1/5 of
  the vectors, ~2.5x faster, recall@10 ~0.91 against exact on short queries.
- :class:`UsearchVectorIndex`: usearch HNSW. Approximate (recall ~0.97), slow to
  build (1M: ~255 s), so it pays off only from ~100k vectors.

:func:`make_vector_index` picks one by expected size, :func:`load_vector_index`
reopens whichever was saved. All keep vectors L2-normalised, skip all-zero
vectors (no direction: such ids are not stored) and break score ties by id.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from caas_tui.errors import IndexStoreError
from caas_tui.index import clusters
from caas_tui.index.heap import give_back_free_memory
from caas_tui.index.hnsw import UsearchVectorIndex
from caas_tui.index.protocols import VectorIndex
from caas_tui.index.vecfiles import CLUSTERS_FILE, IDS_FILE, VECTORS_FILE, normalize_rows
from caas_tui.index.vecfiles import atomic_write as _atomic_write
from caas_tui.index.vecfiles import check_batch as _check_batch
from caas_tui.index.vecfiles import read_meta as _read_meta
from caas_tui.index.vecfiles import sha256 as _sha256
from caas_tui.index.vecfiles import top_k as _top_k
from caas_tui.index.vecfiles import unit_query as _query
from caas_tui.index.vecfiles import write_meta as _write_meta

# normalize_rows and UsearchVectorIndex live in vecfiles/hnsw; importers keep this one address.
__all__ = [
    "CLUSTER_MIN_VECTORS", "EXACT_MAX_VECTORS", "ClusteredVectorIndex", "ExactVectorIndex", "UsearchVectorIndex",
    "load_vector_index", "make_vector_index", "normalize_rows",
]

EXACT_MAX_VECTORS = 100_000  # below this, brute force beats HNSW and is exact
# From here the store's index scans k-means lists instead of every vector (crossover: bench/scale.py).
CLUSTER_MIN_VECTORS = 100_000
LOOSE_MAX_SHARE = 0.05  # re-sort rows by list at a save once this share sits outside its slice
_GROW_SLOWLY_FROM = 65_536  # rows: past this the matrix grows by an eighth, not double


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
        keep = np.asarray(matrix.any(axis=1)).tolist()
        # A zero vector replaces an old one by making the id unsearchable.
        self.remove([cid for cid, ok in zip(ids, keep, strict=True) if not ok])
        pos = self._pos
        new = [i for i, cid in enumerate(ids) if keep[i] and cid not in pos]
        old = [i for i, cid in enumerate(ids) if keep[i] and cid in pos]
        if old:
            self._mat[[pos[ids[i]] for i in old]] = matrix[old]
        if new:  # whole-batch copies: a build streams every vector through here
            start = len(self._ids)
            self._reserve(start + len(new))
            self._mat[start : start + len(new)] = matrix[new]
            added = [ids[i] for i in new]
            pos.update(zip(added, range(start, start + len(added)), strict=True))
            self._ids.extend(added)

    def _reserve(self, rows: int) -> None:
        capacity = self._mat.shape[0]
        if rows <= capacity:
            return
        # Grow geometrically (many small upserts stay O(n) overall), by less once large: a
        # build streams its vectors in, and spare rows are memory held to the end (numpy zero-fills
        # them, so they are resident: an eighth is 60 MB at 500k vectors, a quarter was 120 MB).
        capacity = max(rows, 64, 2 * capacity if capacity < _GROW_SLOWLY_FROM else capacity + capacity // 8)
        if capacity >= _GROW_SLOWLY_FROM:
            give_back_free_memory()  # a big build is growing: let the text it has chunked go first (index/heap.py)
        if self._mat.flags.owndata:
            try:
                # realloc: a large buffer is remapped, not copied, so growing never holds two
                # copies (refcheck refuses while a view of the old buffer is alive)
                self._mat.resize((capacity, self._mat.shape[1]), refcheck=True)
                return
            except ValueError:
                pass  # a view is alive (or the buffer is not ours to resize): copy instead
        grown = np.zeros((capacity, self._mat.shape[1]), dtype=np.float32)
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

    def _trim(self) -> None:
        """Give back the spare rows (a commit is when a build's memory peaks)."""
        if self._mat.shape[0] > len(self._ids) and self._mat.flags.owndata:
            with contextlib.suppress(ValueError):  # a view is alive: keep the rows rather than copy
                self._mat.resize((len(self._ids), self._mat.shape[1]), refcheck=True)

    def save(self, directory: Path) -> None:
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        self._trim()
        give_back_free_memory()
        matrix = self._mat[: len(self._ids)]
        _atomic_write(directory / VECTORS_FILE, lambda handle: np.save(handle, matrix, allow_pickle=False))
        # ids.json goes last and pins the vectors file's hash, so a crash between the
        # two replaces is detected on load instead of pairing ids with wrong vectors.
        meta = {"backend": self.backend, "dims": self.dims, "ids": self._ids, **self._save_parts(directory)}
        _write_meta(directory, {**meta, "vectors_sha256": _sha256(directory / VECTORS_FILE)})

    def _save_parts(self, directory: Path) -> dict[str, Any]:
        """Write any further files before ids.json; return the meta entries that pin them."""
        return {}

    @classmethod
    def load(cls, directory: Path, meta: dict[str, Any] | None = None) -> ExactVectorIndex:
        """``meta``: ``ids.json`` already parsed by the caller (``load_vector_index``), else read here."""
        directory = Path(directory)
        meta = _read_meta(directory, cls.backend, meta)
        path = directory / VECTORS_FILE
        try:
            if _sha256(path) != meta.get("vectors_sha256"):
                raise IndexStoreError(f"vector index {path} does not match {IDS_FILE}; rebuild the index")
            # mapped copy-on-write: no private copy of a large matrix until an upsert writes a row
            matrix = np.load(path, allow_pickle=False, mmap_mode="c")
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


class ClusteredVectorIndex(ExactVectorIndex):
    """Exact search, plus an inverted file once the collection reaches the crossover.

    Below :data:`CLUSTER_MIN_VECTORS` it is :class:`ExactVectorIndex`. From there each
    save (a build's or refresh's commit) makes sure k-means lists exist (``index/clusters.py``),
    retrained when the collection has doubled since, and the matrix is sorted by list, so a
    query scores its nearest lists as contiguous slices (no gather, and BLAS stays single-
    threaded on slices this small). Scores are true cosines and ties still break by id.
    Rows changed after the sort (appended, moved into a removed row's place, or now nearer
    another list) are "loose": each query scores the loose rows of its lists too, and the
    next save re-sorts once they pass :data:`LOOSE_MAX_SHARE`.
    """

    backend = "clustered"
    n_probe: int | None = None  # lists scanned per query; None: clusters.probe_count

    def __init__(self, dims: int | None = None) -> None:
        super().__init__(dims)
        self._centroids: np.ndarray | None = None
        self._assign = np.zeros(0, dtype=np.int32)  # list of each row, while clustered
        self._offsets = np.zeros(1, dtype=np.intp)  # list l sorted into rows offsets[l]:offsets[l+1]
        self._trained_at = 0
        self._loose: np.ndarray | None = None  # rows out of their list's slice; None: recount
        self._dirty: np.ndarray | None = None  # per list: its slice is not only its own rows

    @property
    def clustered(self) -> bool:
        return self._centroids is not None

    def upsert(self, ids: Sequence[str], vectors: np.ndarray) -> None:
        super().upsert(ids, vectors)
        if self._centroids is None or not len(ids):
            return
        self._loose = None
        grown = len(self._ids) - len(self._assign)
        self._assign = np.concatenate([self._assign, np.full(grown, -1, dtype=np.int32)])
        rows = np.fromiter((self._pos[cid] for cid in ids if cid in self._pos), dtype=np.intp)
        if len(rows):
            self._assign[rows] = clusters.assign(self._mat[rows], self._centroids)

    def remove(self, ids: Sequence[str]) -> None:
        if self._centroids is None:
            super().remove(ids)
            return
        for cid in ids:
            row = self._pos.get(cid)
            if row is not None:  # the parent moves the last row into the hole: move its list too
                self._assign[row] = self._assign[len(self._ids) - 1]
                super().remove([cid])
        self._assign = self._assign[: len(self._ids)]
        self._loose = None

    def exact_search(self, vector: np.ndarray, k: int) -> list[tuple[str, float]]:
        """Every vector scored, whatever the size: the reference recall is measured against."""
        return super().search(vector, k)

    def _loose_rows(self) -> np.ndarray:
        return self._layout()[0]

    def _layout(self) -> tuple[np.ndarray, np.ndarray]:
        """(loose rows, per list: whether its slice holds rows of other lists or is cut short)."""
        if self._loose is None or self._dirty is None:
            n, sorted_n = len(self._ids), int(self._offsets[-1])
            home = np.repeat(np.arange(len(self._offsets) - 1, dtype=np.int32), np.diff(self._offsets))
            inside = min(n, sorted_n)
            misplaced = np.flatnonzero(self._assign[:inside] != home[:inside])
            self._loose = np.concatenate([misplaced, np.arange(sorted_n, n, dtype=np.intp)]).astype(np.intp)
            dirty = self._offsets[1:] > n
            dirty[home[misplaced]] = True
            self._dirty = dirty
        return self._loose, self._dirty

    def ensure_clusters(self) -> None:
        """Train (or drop) the lists for the collection's current size; sort rows by list."""
        n = len(self._ids)
        if n < CLUSTER_MIN_VECTORS:
            self._centroids, self._assign, self._trained_at = None, np.zeros(0, np.int32), 0
            self._offsets, self._loose = np.zeros(1, dtype=np.intp), None
            return
        if self._centroids is None or n > 2 * self._trained_at:
            self._centroids = clusters.train_centroids(self._mat[:n], clusters.list_count(n))
            self._assign = clusters.assign(self._mat[:n], self._centroids)
            self._trained_at = n
        elif len(self._loose_rows()) <= LOOSE_MAX_SHARE * n:
            return
        order, self._offsets = clusters.list_order(self._assign, len(self._centroids))
        clusters.permute_rows(self._mat[:n], order)
        self._assign = self._assign[order]
        self._ids = [self._ids[i] for i in order.tolist()]
        self._pos = {cid: i for i, cid in enumerate(self._ids)}
        self._loose = None

    def search(self, vector: np.ndarray, k: int, allowed: set[str] | None = None) -> list[tuple[str, float]]:
        if self._centroids is None or k <= 0 or (allowed is not None and 4 * len(allowed) < len(self._ids)):
            return super().search(vector, k, allowed)  # small, or a narrow filter: exact is cheap
        q = _query(vector, self.dims)
        if q is None:
            return []
        lists = clusters.nearest_lists(self._centroids, q, self.n_probe or clusters.probe_count(len(self._centroids)))
        rows, scores = self._probe(np.sort(lists), q)
        if allowed is not None:
            mask = np.fromiter((self._ids[r] in allowed for r in rows.tolist()), dtype=bool, count=len(rows))
            rows, scores = rows[mask], scores[mask]
        if len(rows) < k:  # the probed lists hold too few: answer exactly rather than short
            return super().search(vector, k, allowed)
        if len(rows) > 4 * k:  # cut to the k-th score (ties kept) before making id lists
            kth = np.partition(scores, len(rows) - k)[len(rows) - k]
            keep = np.flatnonzero(scores >= kth)
            rows, scores = rows[keep], scores[keep]
        return _top_k([self._ids[r] for r in rows.tolist()], scores, k)

    def _probe(self, lists: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(rows, scores) of every vector of the sorted ``lists``. Lists whose slice holds only
        their own rows are scored as runs of adjacent slices, one matmul per run written into
        one buffer; the rest row by row, as are the loose rows. Per-list numpy calls were a
        third of a 500k query (~350 lists of ~350 rows each)."""
        n = len(self._ids)
        loose, dirty = self._layout()
        starts, stops = self._offsets[lists], np.minimum(self._offsets[lists + 1], n)
        clean = ~dirty[lists]
        row_parts, score_parts = [], []
        for lst in lists[~clean].tolist():
            start, stop = int(self._offsets[lst]), min(int(self._offsets[lst + 1]), n)
            if start < stop:
                keep = np.flatnonzero(self._assign[start:stop] == lst)
                row_parts.append(keep + start)
                score_parts.append((self._mat[start:stop] @ q)[keep])
        c_lists, c_starts, c_stops = lists[clean], starts[clean], stops[clean]
        if len(c_lists):
            new_run = np.ones(len(c_lists), dtype=bool)
            new_run[1:] = c_lists[1:] != c_lists[:-1] + 1
            first = np.flatnonzero(new_run)
            run_starts = c_starts[first]
            run_stops = c_stops[np.append(first[1:] - 1, len(c_lists) - 1)]
            lengths = run_stops - run_starts
            buffer = np.empty(int(lengths.sum()), dtype=np.float32)
            at = 0
            for start, stop in zip(run_starts.tolist(), run_stops.tolist(), strict=True):
                np.matmul(self._mat[start:stop], q, out=buffer[at : at + stop - start])
                at += stop - start
            # row of each buffer position: its run's start plus its place in the run
            row_parts.append(np.repeat(run_starts - np.cumsum(lengths) + lengths, lengths) + np.arange(at))
            score_parts.append(buffer)
        loose = loose[np.isin(self._assign[loose], lists)]
        if len(loose):
            row_parts.append(loose)
            score_parts.append(self._mat[loose] @ q)
        if not row_parts:
            return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.float32)
        return np.concatenate(row_parts).astype(np.intp, copy=False), np.concatenate(score_parts)

    def save(self, directory: Path) -> None:
        self.ensure_clusters()  # first: it may re-sort the rows the parent then writes
        super().save(directory)

    def _save_parts(self, directory: Path) -> dict[str, Any]:
        path = directory / CLUSTERS_FILE
        if self._centroids is None:
            path.unlink(missing_ok=True)
            return {}
        centroids, assignment, offsets = self._centroids, self._assign[: len(self._ids)], self._offsets
        _atomic_write(path, lambda handle: np.savez(handle, centroids=centroids, assign=assignment, offsets=offsets))
        return {"clusters_sha256": _sha256(path), "trained_at": self._trained_at}

    @classmethod
    def load(cls, directory: Path, meta: dict[str, Any] | None = None) -> ClusteredVectorIndex:
        meta = _read_meta(Path(directory), cls.backend, meta)  # once, for the matrix and the lists
        index = super().load(directory, meta)
        assert isinstance(index, ClusteredVectorIndex)
        path = Path(directory) / CLUSTERS_FILE
        if not path.exists():
            return index
        try:
            if _sha256(path) != meta.get("clusters_sha256"):
                raise IndexStoreError(f"vector index {path} does not match {IDS_FILE}; rebuild the index")
            with np.load(path, allow_pickle=False) as data:
                centroids, assignment, offsets = data["centroids"], data["assign"], data["offsets"]
        except (OSError, ValueError, KeyError) as exc:
            raise IndexStoreError(f"vector index {path} is missing or unreadable ({exc})") from exc
        shapes_fit = assignment.shape == (len(index),) and offsets.shape == (len(centroids) + 1,)
        if not shapes_fit or centroids.ndim != 2 or centroids.shape[1] != index.dims:
            raise IndexStoreError(f"vector index {path} does not fit {IDS_FILE}; rebuild the index")
        index._centroids = np.ascontiguousarray(centroids, dtype=np.float32)
        index._assign = np.array(assignment, dtype=np.int32)
        index._offsets = np.array(offsets, dtype=np.intp)
        index._trained_at = int(meta.get("trained_at", len(index)))
        return index


def make_vector_index(n_expected: int, dims: int | None = None) -> VectorIndex:
    """An index for a collection of unknown or growing size, or usearch HNSW for one
    known up front to hold :data:`EXACT_MAX_VECTORS` or more.

    The first is exact until :data:`CLUSTER_MIN_VECTORS` and scans k-means lists from
    there (:class:`ClusteredVectorIndex`); the store uses it for every index, since the
    HNSW build costs minutes at 500k vectors (bench/scale.py).
    """
    if n_expected < EXACT_MAX_VECTORS:
        return ClusteredVectorIndex(dims)
    return UsearchVectorIndex(dims)


def load_vector_index(directory: Path) -> VectorIndex:
    """Reopen whichever backend ``save`` wrote into ``directory``."""
    meta_path = Path(directory) / IDS_FILE
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        backend = meta.get("backend")
    except (OSError, ValueError, AttributeError) as exc:
        raise IndexStoreError(f"vector index {meta_path} is missing or unreadable ({exc})") from exc
    for cls in (ExactVectorIndex, ClusteredVectorIndex, UsearchVectorIndex):
        if backend == cls.backend:
            return cls.load(Path(directory), meta)  # the backend's loader checks it, without re-reading
    raise IndexStoreError(f"vector index {meta_path} names an unknown backend {backend!r}")
