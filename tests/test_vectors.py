"""Vector indexes: exact cosine order, filters, updates, persistence, usearch parity."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from caas_tui.errors import IndexStoreError
from caas_tui.index.protocols import VectorIndex
from caas_tui.index.vectors import (
    EXACT_MAX_VECTORS,
    ExactVectorIndex,
    UsearchVectorIndex,
    load_vector_index,
    make_vector_index,
)

IDS = ["a", "b", "c", "d"]
VECS = np.array([[1, 0, 0], [1, 1, 0], [0, 1, 0], [-1, 0, 0]], dtype=np.float32)
QUERY = np.array([1.0, 0.5, 0.0])  # float64 on purpose: the index must cope


def expected_cosines() -> dict[str, float]:
    qn = math.sqrt(1.25)
    return {"a": 1 / qn, "b": 1.5 / (math.sqrt(2) * qn), "c": 0.5 / qn, "d": -1 / qn}


def filled(cls: type = ExactVectorIndex):
    index = cls()
    index.upsert(IDS, VECS)
    return index


def test_satisfies_protocol() -> None:
    assert isinstance(ExactVectorIndex(), VectorIndex)
    assert isinstance(UsearchVectorIndex(), VectorIndex)


def test_exact_order_matches_hand_computed_cosines() -> None:
    hits = filled().search(QUERY, k=10)
    want = expected_cosines()
    assert [cid for cid, _ in hits] == ["b", "a", "c", "d"]
    for cid, score in hits:
        assert score == pytest.approx(want[cid], abs=1e-6)
        assert isinstance(score, float)
    assert [cid for cid, _ in filled().search(QUERY, k=2)] == ["b", "a"]
    assert filled().search(QUERY, k=0) == []


def test_ties_break_by_id_whatever_the_insertion_order() -> None:
    index = ExactVectorIndex()
    same = np.ones((4, 3), dtype=np.float32)
    index.upsert(["z", "m", "b", "q"], same)
    assert [cid for cid, _ in index.search(np.ones(3), k=2)] == ["b", "m"]
    assert [cid for cid, _ in index.search(np.ones(3), k=4)] == ["b", "m", "q", "z"]


def test_allowed_filter() -> None:
    index = filled()
    assert [cid for cid, _ in index.search(QUERY, k=10, allowed={"c", "d", "nope"})] == ["c", "d"]
    assert index.search(QUERY, k=10, allowed=set()) == []
    assert [cid for cid, _ in index.search(QUERY, k=1, allowed={"a", "c"})] == ["a"]


def test_upsert_replaces_existing_keys() -> None:
    index = filled()
    index.upsert(["d", "e"], np.array([[1, 0.5, 0], [0, 0, 1]], dtype=np.float32))
    assert len(index) == 5
    top_id, top_score = index.search(QUERY, k=1)[0]
    assert top_id == "d" and top_score == pytest.approx(1.0, abs=1e-6)


def test_remove() -> None:
    index = filled()
    index.remove(["b", "missing"])
    assert len(index) == 3
    assert [cid for cid, _ in index.search(QUERY, k=10)] == ["a", "c", "d"]
    index.remove(["a"])  # removing from the middle moves rows around; results must not care
    assert [cid for cid, _ in index.search(QUERY, k=10)] == ["c", "d"]
    assert sorted(index.ids()) == ["c", "d"]


@pytest.mark.parametrize("cls", [ExactVectorIndex, UsearchVectorIndex])
def test_zero_vectors_are_skipped(cls: type) -> None:
    index = filled(cls)
    index.upsert(["z"], np.zeros((1, 3), dtype=np.float32))
    assert len(index) == 4
    index.upsert(["a"], np.zeros((1, 3), dtype=np.float32))  # a zero update hides the old vector
    assert len(index) == 3
    assert "a" not in [cid for cid, _ in index.search(QUERY, k=10)]
    assert index.search(np.zeros(3), k=5) == []


def test_rejects_wrong_shapes() -> None:
    index = filled()
    with pytest.raises(ValueError):
        index.upsert(["x"], np.ones((1, 4), dtype=np.float32))
    with pytest.raises(ValueError):
        index.upsert(["x", "y"], np.ones((1, 3), dtype=np.float32))
    with pytest.raises(ValueError):
        index.search(np.ones(4), k=1)
    assert ExactVectorIndex().search(np.ones(3), k=3) == []


def test_many_small_upserts_keep_all_rows() -> None:
    rng = np.random.default_rng(1)
    vecs = rng.normal(size=(300, 8)).astype(np.float32)
    index = ExactVectorIndex()
    for i in range(300):
        index.upsert([f"id{i:03d}"], vecs[i : i + 1])
    assert len(index) == 300
    assert index.search(vecs[123], k=1)[0][0] == "id123"
    narrow = index.search(vecs[123], k=5, allowed={"id123", "id007", "gone"})  # scores only 2 rows
    assert [cid for cid, _ in narrow] == ["id123", "id007"]


def test_large_matrices_keep_an_eighth_spare_and_give_it_back_at_save(monkeypatch: pytest.MonkeyPatch,
                                                                       tmp_path: Path) -> None:
    from caas_tui.index import vectors

    monkeypatch.setattr(vectors, "_GROW_SLOWLY_FROM", 512)
    rng = np.random.default_rng(5)
    data = rng.standard_normal((3000, 8)).astype(np.float32)
    ids = [f"v{i}" for i in range(len(data))]
    index = ExactVectorIndex()
    for start in range(0, len(data), 50):
        index.upsert(ids[start : start + 50], data[start : start + 50])
        if len(index) >= 1024:  # past the doubling
            assert index._mat.shape[0] <= len(index) * 9 // 8 + 50
    assert index._mat.shape[0] > len(index)  # spare rows while it grows
    want = index.search(data[7], 5)
    index.save(tmp_path)
    assert index._mat.shape[0] == len(index)  # trimmed by the save, not copied
    assert index.search(data[7], 5) == want == load_vector_index(tmp_path).search(data[7], 5)
    index.upsert(["more"], data[:1] * 2)  # still grows after the trim
    assert index.search(data[0], 1)[0][0] in {"v0", "more"} and len(index) == len(data) + 1


def test_exact_save_load_round_trip(tmp_path: Path) -> None:
    index = filled()
    index.remove(["c"])
    index.save(tmp_path / "vec")
    assert sorted(p.name for p in (tmp_path / "vec").iterdir()) == ["ids.json", "vectors.npy"]
    loaded = ExactVectorIndex.load(tmp_path / "vec")
    assert len(loaded) == 3 and loaded.dims == 3
    assert loaded.search(QUERY, k=10) == index.search(QUERY, k=10)
    assert isinstance(load_vector_index(tmp_path / "vec"), ExactVectorIndex)
    loaded.upsert(["c"], VECS[2:3])  # a loaded index stays writable
    assert [cid for cid, _ in loaded.search(QUERY, k=10)] == ["b", "a", "c", "d"]
    loaded.save(tmp_path / "vec")  # overwrite in place
    assert len(ExactVectorIndex.load(tmp_path / "vec")) == 4


def test_empty_index_round_trip(tmp_path: Path) -> None:
    ExactVectorIndex().save(tmp_path)
    assert len(ExactVectorIndex.load(tmp_path)) == 0


def test_load_detects_mismatched_or_missing_files(tmp_path: Path) -> None:
    filled().save(tmp_path / "one")
    other = ExactVectorIndex()
    other.upsert(["x", "y", "w", "v"], VECS[::-1].copy())
    other.save(tmp_path / "two")
    # Same row count, different vectors: exactly what a crash between the two writes leaves.
    (tmp_path / "one" / "vectors.npy").write_bytes((tmp_path / "two" / "vectors.npy").read_bytes())
    with pytest.raises(IndexStoreError):
        ExactVectorIndex.load(tmp_path / "one")
    with pytest.raises(IndexStoreError):
        ExactVectorIndex.load(tmp_path / "missing")
    with pytest.raises(IndexStoreError):
        load_vector_index(tmp_path / "missing")


def test_make_vector_index_threshold() -> None:
    assert isinstance(make_vector_index(10), ExactVectorIndex)
    assert isinstance(make_vector_index(EXACT_MAX_VECTORS - 1), ExactVectorIndex)
    assert isinstance(make_vector_index(EXACT_MAX_VECTORS), UsearchVectorIndex)


def random_set(n: int = 300, dims: int = 32) -> tuple[list[str], np.ndarray]:
    rng = np.random.default_rng(7)
    return [f"chunk{i:04d}" for i in range(n)], rng.normal(size=(n, dims)).astype(np.float32)


def test_usearch_agrees_with_exact_on_a_small_set() -> None:
    ids, vecs = random_set()
    exact, approx = ExactVectorIndex(), UsearchVectorIndex()
    exact.upsert(ids, vecs)
    approx.upsert(ids, vecs)
    queries = np.random.default_rng(8).normal(size=(10, vecs.shape[1]))
    for q in queries:
        want, got = exact.search(q, k=10), approx.search(q, k=10)
        assert [cid for cid, _ in got] == [cid for cid, _ in want]
        assert [s for _, s in got] == pytest.approx([s for _, s in want], abs=1e-4)
    allowed = set(ids[::3])
    want = exact.search(queries[0], k=5, allowed=allowed)
    for exact_filter_max in (8192, 0):  # exact subset path, then filtered HNSW path
        approx.exact_filter_max = exact_filter_max
        got = approx.search(queries[0], k=5, allowed=allowed)
        assert [cid for cid, _ in got] == [cid for cid, _ in want]
        assert [s for _, s in got] == pytest.approx([s for _, s in want], abs=1e-4)


def test_usearch_upsert_remove_and_round_trip(tmp_path: Path) -> None:
    index = filled(UsearchVectorIndex)
    index.upsert(["d"], np.array([[1, 0.5, 0]], dtype=np.float32))  # existing key: must not raise
    assert len(index) == 4
    assert index.search(QUERY, k=1)[0][0] == "d"
    index.remove(["d", "missing"])
    assert [cid for cid, _ in index.search(QUERY, k=10)] == ["b", "a", "c"]
    index.save(tmp_path)
    loaded = load_vector_index(tmp_path)
    assert isinstance(loaded, UsearchVectorIndex)
    assert [cid for cid, _ in loaded.search(QUERY, k=10)] == ["b", "a", "c"]
    loaded.upsert(["d"], VECS[3:4])  # keys continue after the saved ones
    assert [cid for cid, _ in loaded.search(QUERY, k=10)] == ["b", "a", "c", "d"]
