"""RRF against scores computed by hand."""

from __future__ import annotations

import pytest

from caas_tui.retrieve.fusion import rrf


def test_rrf_matches_hand_computed_scores() -> None:
    fused = rrf({"bm25": ["a", "b", "c"], "dense": ["c", "a", "d"]}, k=60)
    scores = {f.id: f.score for f in fused}
    assert scores["a"] == pytest.approx(1 / 61 + 1 / 62)
    assert scores["c"] == pytest.approx(1 / 63 + 1 / 61)
    assert scores["b"] == pytest.approx(1 / 62)
    assert scores["d"] == pytest.approx(1 / 63)
    assert [f.id for f in fused] == ["a", "c", "b", "d"]
    assert fused[0].ranks == {"bm25": 1, "dense": 2}
    assert fused[3].ranks == {"dense": 3}


def test_rrf_weights_and_small_k() -> None:
    fused = rrf({"bm25": ["x", "y"], "dense": ["y", "x"]}, k=0, weights={"bm25": 1.0, "dense": 0.25})
    scores = {f.id: f.score for f in fused}
    assert scores["x"] == pytest.approx(1 / 1 + 0.25 / 2)
    assert scores["y"] == pytest.approx(1 / 2 + 0.25 / 1)
    assert [f.id for f in fused] == ["x", "y"]


def test_rrf_ties_are_deterministic_and_duplicates_ignored() -> None:
    one = rrf({"bm25": ["p", "q"], "dense": ["q", "p"]}, k=60)
    two = rrf({"dense": ["q", "p"], "bm25": ["p", "q"]}, k=60)
    assert [f.id for f in one] == [f.id for f in two] == ["p", "q"]
    dup = rrf({"bm25": ["p", "p", "q"]}, k=60)
    assert {f.id: f.ranks["bm25"] for f in dup} == {"p": 1, "q": 2}


def test_rrf_single_channel_and_empty() -> None:
    assert rrf({}, k=60) == []
    assert [f.id for f in rrf({"dense": ["z", "y"]})] == ["z", "y"]
    with pytest.raises(ValueError):
        rrf({"bm25": ["a"]}, k=-1)
