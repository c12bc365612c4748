"""Encoders: a tiny model2vec model built here, the shipped default, and the hashing fake."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

import numpy as np
import pytest

from caas_tui.errors import ModelError
from caas_tui.index.encoders import (
    DEFAULT_MODEL_NAME,
    HashingEncoder,
    Model2VecEncoder,
    default_model_dir,
    load_encoder,
)
from caas_tui.index.protocols import Encoder

WORDS = ["remove", "body", "scene", "parse", "config", "file", "world", "delete"]


def make_tiny_model(folder: Path, dims: int = 8, seed: int = 0) -> Path:
    """A word-level model2vec model with random vectors: no download, no torch."""
    from model2vec import StaticModel
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {"[UNK]": 0, "[PAD]": 1, **{w: i + 2 for i, w in enumerate(WORDS)}}
    tokenizer = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    vectors = np.random.default_rng(seed).normal(size=(len(vocab), dims)).astype(np.float32)
    StaticModel(vectors=vectors, tokenizer=tokenizer, normalize=True).save_pretrained(folder)
    return folder


def sha12(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_tiny_model(tmp_path_factory.mktemp("tiny-model"))


def test_path_model_dims_normalisation_and_zero_rows(tiny: Path) -> None:
    encoder = load_encoder(str(tiny))
    assert isinstance(encoder, Encoder) and isinstance(encoder, Model2VecEncoder)
    assert encoder.dims == 8
    out = encoder.encode(["remove body", "parse config file", "zzz qqq", ""], query=True)
    assert out.dtype == np.float32 and out.shape == (4, 8)
    np.testing.assert_allclose(np.linalg.norm(out[:2], axis=1), 1.0, atol=1e-6)
    assert not out[2].any() and not out[3].any()  # only unknown tokens / nothing: stays zero
    assert encoder.encode([]).shape == (0, 8)


def test_path_model_is_deterministic_and_records_its_id(tiny: Path) -> None:
    first, second = load_encoder(str(tiny)), load_encoder(str(tiny) + "/")
    texts = ["remove the body from the scene", "delete world file"]
    np.testing.assert_array_equal(first.encode(texts), second.encode(texts))
    np.testing.assert_array_equal(first.encode(texts), first.encode(list(reversed(texts)))[::-1])
    assert first.model_id == f"path:{tiny.resolve()}@{sha12(tiny / 'model.safetensors')}"
    assert second.model_id == first.model_id


def test_changed_weights_change_the_model_id(tmp_path: Path) -> None:
    a = load_encoder(str(make_tiny_model(tmp_path / "m", seed=1))).model_id
    b = load_encoder(str(make_tiny_model(tmp_path / "m", seed=2))).model_id
    assert a != b and a.split("@")[0] == b.split("@")[0]


def test_local_loads_leave_hub_offline_setting_alone(tiny: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from huggingface_hub import constants

    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    before = constants.HF_HUB_OFFLINE
    load_encoder(str(tiny))
    assert "HF_HUB_OFFLINE" not in os.environ
    assert before == constants.HF_HUB_OFFLINE


def test_default_model_loads_once_and_ranks_related_text_higher() -> None:
    encoder = load_encoder(None)
    assert load_encoder(None) is encoder and load_encoder("  ") is encoder  # cached per process
    assert encoder.dims == 256
    weights = default_model_dir() / "model.safetensors"
    assert encoder.model_id == f"{DEFAULT_MODEL_NAME}@{sha12(weights)}"
    query, related, unrelated = encoder.encode(
        [
            "remove a body from the scene",
            "Scene.remove_body(body): detach a rigid body from the simulation world",
            "Parse the TOML configuration file and report syntax errors",
        ]
    )
    assert float(query @ related) > float(query @ unrelated) + 0.2


def test_shipped_model_files_are_commit_ready() -> None:
    folder = default_model_dir()
    assert folder.is_absolute()
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert "license: apache-2.0" in readme and "license: mit" not in readme.lower()
    assert "all-MiniLM-L6-v2" in readme
    assert "Apache License" in (folder / "LICENSE").read_text(encoding="utf-8")
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    assert config["hidden_dim"] == 256 and config["embedding_dtype"] == "float16"
    assert not any(str(v).startswith("/") for v in config.values())  # no leaked local path
    for path in folder.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o644, path.name


def test_bad_specs_raise_one_line_model_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from huggingface_hub import constants

    # The hub path stays the real from_pretrained call; forcing offline makes it fail fast.
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    (tmp_path / "empty").mkdir()
    (tmp_path / "file.txt").write_text("x", encoding="utf-8")
    for spec in [
        str(tmp_path / "missing"),
        "./no/such/model",
        "caas-test/no-such-model",
        str(tmp_path / "empty"),
        str(tmp_path / "file.txt"),
    ]:
        with pytest.raises(ModelError) as info:
            load_encoder(spec)
        message = str(info.value)
        assert "\n" not in message and spec in message


def test_hashing_encoder_is_a_deterministic_fake() -> None:
    encoder = HashingEncoder(dims=32)
    assert isinstance(encoder, Encoder) and encoder.dims == 32 and encoder.model_id == "hashing-v1/32"
    assert HashingEncoder.tokens("Scene.removeBody HTTPServer") == [
        "scene", "removebody", "remove", "body", "httpserver", "http", "server"
    ]
    texts = ["Scene.remove_body", "remove the body", "parse toml", ""]
    out = encoder.encode(texts)
    assert out.dtype == np.float32 and out.shape == (4, 32)
    np.testing.assert_allclose(np.linalg.norm(out[:3], axis=1), 1.0, atol=1e-6)
    assert not out[3].any()
    assert float(out[0] @ out[1]) > float(out[0] @ out[2])
    np.testing.assert_array_equal(out, HashingEncoder(dims=32).encode(texts))  # stable across instances
