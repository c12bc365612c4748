"""Inverted-file layout for dense search at scale: spherical k-means lists over unit vectors.

A query scores the centroids, then only the vectors of its ``n_probe`` nearest lists,
exactly. Chosen over usearch HNSW for the store's index because it builds in seconds
where HNSW took minutes (500k vectors on 2 shared cores), is deterministic (seeded
k-means, no thread races), adds and removes a vector in O(1), and needs no second copy
of the vectors (numbers: bench/results/scale_*.json, README scale table).
"""

from __future__ import annotations

import math

import numpy as np

SEED = 20
TRAIN_ITERATIONS = 8
SAMPLE_PER_LIST = 32  # k-means runs on a sample: 32 points per list is plenty for centroids
_ASSIGN_BLOCK = 4096  # rows per matmul when assigning: bounds the temporary score matrix (23 MB at 1,411 lists)


def list_count(n_vectors: int) -> int:
    """About 2*sqrt(n) lists: ~700 vectors each at 100k-500k, so a probe is a short scan."""
    return max(16, int(2 * math.sqrt(max(n_vectors, 1))))


def probe_count(n_lists: int) -> int:
    """Lists scanned per query: about 7.5*sqrt(n_lists), a share that falls as the index grows
    (1/3.7 of 772 lists at 149k vectors, 1/5 of 1,411 at 498k). The bench's short queries sit
    far from every document, so their neighbours spread over many lists; recall@10 against
    exact (bench-style 2-5 word queries, 150 of them): 149k vectors 0.929 at 1/4 of the lists,
    0.916 at 1/5, 0.953 at 1/3; 498k vectors 0.955 at 1/4, 0.954 at 1/5, 0.933 at 1/6. So a
    fixed quarter scanned ~20% more than needed at 500k and a fixed fifth lost recall at 149k.
    usearch HNSW did worse on the same queries (0.88 at expansion 512) and builds for minutes."""
    return max(8, min(n_lists, round(7.5 * math.sqrt(n_lists))))


def train_centroids(matrix: np.ndarray, n_lists: int, seed: int = SEED) -> np.ndarray:
    """Unit-length centroids of ``n_lists`` spherical k-means lists over the rows of ``matrix``."""
    rng = np.random.default_rng(seed)
    n = matrix.shape[0]
    sample = matrix[np.sort(rng.choice(n, min(n, SAMPLE_PER_LIST * n_lists), replace=False))]
    n_lists = min(n_lists, sample.shape[0])
    centroids = sample[rng.choice(sample.shape[0], n_lists, replace=False)].copy()
    for _ in range(TRAIN_ITERATIONS):
        nearest = assign(sample, centroids)
        sums = np.zeros_like(centroids)
        np.add.at(sums, nearest, sample)
        empty = np.flatnonzero(np.bincount(nearest, minlength=n_lists) == 0)
        # An empty list restarts at a random sample point rather than staying dead.
        sums[empty] = sample[rng.choice(sample.shape[0], len(empty), replace=False)]
        norms = np.linalg.norm(sums, axis=1, keepdims=True)
        centroids = (sums / np.maximum(norms, 1e-12)).astype(np.float32)
    return np.ascontiguousarray(centroids, dtype=np.float32)


def assign(matrix: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    """The nearest centroid (by cosine) of each row, as int32."""
    out = np.empty(matrix.shape[0], dtype=np.int32)
    for start in range(0, matrix.shape[0], _ASSIGN_BLOCK):
        block = matrix[start : start + _ASSIGN_BLOCK]
        out[start : start + len(block)] = np.argmax(block @ centroids.T, axis=1)
    return out


def list_order(assignment: np.ndarray, n_lists: int) -> tuple[np.ndarray, np.ndarray]:
    """(row permutation grouping rows by list, list start offsets of length n_lists + 1)."""
    order = np.argsort(assignment, kind="stable").astype(np.intp)
    return order, np.searchsorted(assignment[order], np.arange(n_lists + 1)).astype(np.intp)


def permute_rows(matrix: np.ndarray, order: np.ndarray) -> None:
    """``matrix[:] = matrix[order]`` in place, one row of scratch: at 500k x 256 the one-line
    form holds a second 512 MB copy at the commit, when the build's memory peaks."""
    done = np.zeros(len(order), dtype=bool)
    done[order == np.arange(len(order))] = True
    for start in np.flatnonzero(~done).tolist():
        if done[start]:
            continue
        held = matrix[start].copy()
        row = start
        while True:  # follow the cycle: each row takes the one it maps to
            done[row] = True
            source = int(order[row])
            if source == start:
                matrix[row] = held
                break
            matrix[row] = matrix[source]
            row = source


def nearest_lists(centroids: np.ndarray, query: np.ndarray, n_probe: int) -> np.ndarray:
    """The ``n_probe`` lists whose centroids are nearest the unit ``query``."""
    scores = centroids @ query
    if n_probe >= len(scores):
        return np.arange(len(scores))
    return np.argpartition(-scores, n_probe)[:n_probe]
