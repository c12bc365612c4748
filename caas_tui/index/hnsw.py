"""usearch HNSW vector index: approximate, slow to build, for collections known to be large."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from caas_tui.errors import IndexStoreError
from caas_tui.index.vecfiles import (
    IDS_FILE,
    USEARCH_FILE,
    check_batch,
    normalize_rows,
    read_meta,
    sha256,
    top_k,
    unit_query,
    write_meta,
)


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
        matrix = check_batch(ids, vectors, self.dims)
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
        q = unit_query(vector, self.dims)
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
                return top_k(subset, normalize_rows(stored) @ q, k)
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
        return top_k([cid for cid, _ in pairs], np.asarray([sc for _, sc in pairs], dtype=np.float32), k)

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
        write_meta(directory, {**meta, "index_sha256": sha256(path)})

    @classmethod
    def load(cls, directory: Path, meta: dict[str, Any] | None = None) -> UsearchVectorIndex:
        directory = Path(directory)
        meta = read_meta(directory, cls.backend, meta)  # ``meta``: ids.json as the caller parsed it
        path = directory / USEARCH_FILE
        try:
            if sha256(path) != meta.get("index_sha256"):
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
