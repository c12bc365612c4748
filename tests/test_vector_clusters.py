"""The store's vector index past the crossover: k-means lists over the exact matrix."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from caas_tui.errors import IndexStoreError
from caas_tui.index import integrity, vectors
from caas_tui.index.vectors import ClusteredVectorIndex, ExactVectorIndex, load_vector_index, make_vector_index

DIMS = 32


def mixture(n: int, seed: int, centres: int = 40) -> np.ndarray:
    """Unit vectors around a few directions: embeddings are clumpy, not uniform."""
    rng = np.random.default_rng(seed)
    hubs = rng.standard_normal((centres, DIMS)).astype(np.float32)
    points = hubs[rng.integers(0, centres, n)] + 0.35 * rng.standard_normal((n, DIMS)).astype(np.float32)
    return points / np.linalg.norm(points, axis=1, keepdims=True)


def near(data: np.ndarray, n: int, seed: int) -> np.ndarray:
    """Queries drawn from the collection's own distribution, as real queries are."""
    rng = np.random.default_rng(seed)
    points = data[rng.integers(0, len(data), n)] + 0.3 * rng.standard_normal((n, DIMS)).astype(np.float32)
    return points / np.linalg.norm(points, axis=1, keepdims=True)


def ids_for(n: int, prefix: str = "c") -> list[str]:
    return [f"{prefix}{i:05d}" for i in range(n)]


@pytest.fixture()
def small_crossover(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(vectors, "CLUSTER_MIN_VECTORS", 1000)
    return 1000


def recall(index: ClusteredVectorIndex, exact: ExactVectorIndex, queries: np.ndarray, k: int = 10) -> float:
    hits = 0
    for q in queries:
        truth = {cid for cid, _ in exact.search(q, k)}
        hits += len(truth & {cid for cid, _ in index.search(q, k)})
    return hits / (k * len(queries))


def test_store_index_is_exact_below_the_crossover(small_crossover: int, tmp_path: Path) -> None:
    index = make_vector_index(0)
    assert isinstance(index, ClusteredVectorIndex)
    data = mixture(small_crossover - 1, seed=1)
    index.upsert(ids_for(len(data)), data)
    index.save(tmp_path)
    assert not index.clustered
    assert not (tmp_path / vectors.CLUSTERS_FILE).exists()
    exact = ExactVectorIndex()
    exact.upsert(ids_for(len(data)), data)
    for q in mixture(20, seed=2):
        assert index.search(q, 10) == exact.search(q, 10)


def test_clusters_from_the_crossover_with_true_cosines_and_high_recall(small_crossover: int, tmp_path: Path) -> None:
    data = mixture(4000, seed=3)
    index, exact = ClusteredVectorIndex(), ExactVectorIndex()
    index.upsert(ids_for(len(data)), data)
    exact.upsert(ids_for(len(data)), data)
    index.save(tmp_path)
    assert index.clustered
    queries = near(data, 100, seed=4)
    assert recall(index, exact, queries) >= 0.9
    by_id = dict(zip(ids_for(len(data)), data, strict=True))
    for cid, score in index.search(queries[0], 10):
        assert score == pytest.approx(float(by_id[cid] @ queries[0]), abs=1e-5)
    # Scanning every list is exhaustive: then it finds what exact search finds.
    index.n_probe = 10**6
    for q in queries[:10]:
        got, want = index.search(q, 10), exact.search(q, 10)
        assert [cid for cid, _ in got] == [cid for cid, _ in want]
        assert [sc for _, sc in got] == pytest.approx([sc for _, sc in want], abs=1e-5)


def test_incremental_add_update_remove_after_clustering(small_crossover: int, tmp_path: Path) -> None:
    data = mixture(3000, seed=5)
    index = ClusteredVectorIndex()
    index.upsert(ids_for(len(data)), data)
    index.save(tmp_path)
    assert index.clustered
    added = mixture(50, seed=6)
    index.upsert(ids_for(50, "new"), added)
    for cid, vec in zip(ids_for(50, "new"), added, strict=True):
        assert index.search(vec, 1)[0][0] == cid  # a new vector is its own nearest neighbour
    moved = -data[7]
    index.upsert(["c00007"], moved[None, :])
    assert index.search(moved, 1)[0][0] == "c00007"
    gone = ids_for(200)
    index.remove(gone)
    assert len(index) == 3000 - 200 + 50
    for q in data[:200]:
        assert not {cid for cid, _ in index.search(q, 10)} & set(gone)
    exact = ExactVectorIndex()
    keep = [cid for cid in index.ids()]
    exact.upsert(keep, np.stack([index._mat[index._pos[cid]] for cid in keep]))
    assert recall(index, exact, near(data, 60, seed=7)) >= 0.9


def test_many_loose_rows_are_re_sorted_at_the_next_save(small_crossover: int, tmp_path: Path) -> None:
    data = mixture(3000, seed=8)
    index = ClusteredVectorIndex()
    index.upsert(ids_for(len(data)), data)
    index.save(tmp_path)
    index.upsert(ids_for(400, "more"), mixture(400, seed=9))  # 400 appended rows are loose
    assert len(index._loose_rows()) >= 400
    index.save(tmp_path)
    assert len(index._loose_rows()) == 0


def test_round_trip_keeps_answers_and_refreshes_after_load(small_crossover: int, tmp_path: Path) -> None:
    data = mixture(3000, seed=10)
    index = ClusteredVectorIndex()
    index.upsert(ids_for(len(data)), data)
    index.save(tmp_path)
    loaded = load_vector_index(tmp_path)
    assert isinstance(loaded, ClusteredVectorIndex) and loaded.clustered
    queries = near(data, 30, seed=11)
    for q in queries:
        assert loaded.search(q, 10) == index.search(q, 10)
    loaded.remove(["c00001"])
    loaded.upsert(["extra"], queries[:1])
    loaded.save(tmp_path)
    again = load_vector_index(tmp_path)
    assert again.search(queries[0], 1)[0][0] == "extra"
    assert "c00001" not in set(again.ids())


def test_cluster_file_is_integrity_checked(small_crossover: int, tmp_path: Path) -> None:
    data = mixture(2000, seed=12)
    index = ClusteredVectorIndex()
    index.upsert(ids_for(len(data)), data)
    index.save(tmp_path / "vectors")
    recorded = integrity.record(tmp_path)
    assert f"vectors/{vectors.CLUSTERS_FILE}" in recorded
    path = tmp_path / "vectors" / vectors.CLUSTERS_FILE
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    path.write_bytes(bytes(raw))
    with pytest.raises(integrity.ChecksumMismatch):
        integrity.verify(tmp_path, recorded)
    with pytest.raises(IndexStoreError):
        load_vector_index(tmp_path / "vectors")
    path.unlink()
    with pytest.raises(IndexStoreError):
        integrity.verify(tmp_path, recorded)


def test_allowed_filter_past_the_crossover(small_crossover: int, tmp_path: Path) -> None:
    data = mixture(3000, seed=13)
    index, exact = ClusteredVectorIndex(), ExactVectorIndex()
    index.upsert(ids_for(len(data)), data)
    exact.upsert(ids_for(len(data)), data)
    index.save(tmp_path)
    narrow = set(ids_for(300))
    wide = set(ids_for(2500))
    q = near(data, 1, seed=14)[0]
    assert index.search(q, 10, narrow) == exact.search(q, 10, narrow)  # narrow: answered exactly
    found = index.search(q, 10, wide)
    assert found and all(cid in wide for cid, _ in found)


def test_store_builds_refreshes_and_checks_a_clustered_index(tiny_project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from caas_tui.retrieve.engine import Engine

    from .conftest import write

    monkeypatch.setattr(vectors, "CLUSTER_MIN_VECTORS", 4)
    engine = Engine.open(tiny_project)
    try:
        assert isinstance(engine.store.vectors, ClusteredVectorIndex) and engine.store.vectors.clustered
        assert engine.search("deferred removal scheduler", 5, mode="dense")
        write(tiny_project, "pkg/sched.py", '"""Deferred work."""\n\n\ndef flush_queue() -> None:\n    pass\n')
        engine.refresh()
        assert "pkg.sched.flush_queue" in [h.chunk.symbol for h in engine.search("flush queue", 10, mode="dense")]
    finally:
        engine.close()
    index_dir = tiny_project / ".caas" / "index"
    again = Engine.open(tiny_project)
    try:
        assert isinstance(again.store.vectors, ClusteredVectorIndex) and again.store.vectors.clustered
        assert not again.store.last_stats or not again.store.last_stats.rebuilt
    finally:
        again.close()
    path = index_dir / "vectors" / vectors.CLUSTERS_FILE
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    path.write_bytes(bytes(raw))
    messages: list[str] = []
    repaired = Engine.open(tiny_project, notify=messages.append)
    try:
        assert repaired.store.last_stats is not None and repaired.store.last_stats.rebuilt
        assert messages
        assert repaired.search("flush queue", 5, mode="dense")
    finally:
        repaired.close()


def test_permute_rows_in_place_matches_fancy_indexing() -> None:
    from caas_tui.index.clusters import permute_rows

    rng = np.random.default_rng(15)
    matrix = rng.standard_normal((500, 4)).astype(np.float32)
    for order in (rng.permutation(500), np.arange(500), np.roll(np.arange(500), 1)):
        want = matrix[order]
        got = matrix.copy()
        permute_rows(got, order)
        assert np.array_equal(got, want)
