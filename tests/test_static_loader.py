"""The shipped model loads without the hub client and embeds exactly as ``from_pretrained`` does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from caas_tui.index.encoders import load_encoder
from caas_tui.index.encoders.common import camel_words
from caas_tui.index.encoders.static import default_model_dir

TEXTS = ["def parse_config(path): return toml.load(path)", "HTTPServer request handler", "", "zz " * 3000]


def test_direct_load_matches_from_pretrained() -> None:
    from model2vec import StaticModel

    ref = StaticModel.from_pretrained(str(default_model_dir()))
    encoder = load_encoder(None)
    ours = encoder.encode(TEXTS)
    # the shipped encoder splits camelCase words before the model sees the text (issues 17, 21)
    raw = ref.encode([camel_words(t) for t in TEXTS], normalize=False, use_multiprocessing=False).astype(np.float32)
    norms = np.linalg.norm(raw, axis=1, keepdims=True)
    expected = np.divide(raw, norms, out=np.zeros_like(raw), where=norms > 0)
    np.testing.assert_array_equal(ours, expected)
    assert encoder.dims == ref.dim


def test_default_encoder_is_lazy_and_hub_free() -> None:
    code = (
        "import sys\n"
        "from caas_tui.index.encoders import load_encoder\n"
        "enc = load_encoder(None)\n"
        "assert 'model2vec' not in sys.modules, 'loaded before the first encode'\n"
        "assert enc.encode(['parse config']).shape == (1, enc.dims)\n"
        "assert 'huggingface_hub' not in sys.modules\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def _reference(folder: str, texts: list[str]) -> np.ndarray:
    from model2vec import StaticModel

    return StaticModel.from_pretrained(folder).encode(texts, normalize=False, use_multiprocessing=False)


# unknown tokens (dropped), accents, CJK, tabs, texts past max_length tokens, and more than one
# 1,024-text batch, with many texts of equal token count (one fancy index per length bucket)
MANY = [*TEXTS, "naïve café ☃ 🙂 données", "数据 解析\tconfig", " ".join(["tokenizer"] * 700), "x" * 9000,
        *(f"def handler_{i}(request, *args): return {i % 17} * request.body" for i in range(1500))]


def test_plain_model_is_bit_identical_to_model2vec() -> None:
    from caas_tui.index.encoders.plainstatic import PlainStaticModel, load_plain_model

    plain = load_plain_model(default_model_dir())
    assert isinstance(plain, PlainStaticModel)
    ours = plain.encode(MANY)
    ref = _reference(str(default_model_dir()), MANY)
    assert ours.dtype == ref.dtype and ours.shape == ref.shape
    np.testing.assert_array_equal(ours, ref)
    assert plain.encode([]).shape == (0, plain.dim)


def test_memory_mapped_tensors_match_safetensors() -> None:
    from safetensors.numpy import load_file

    from caas_tui.index.encoders.plainstatic import read_tensors

    path = default_model_dir() / "model.safetensors"
    ours, ref = read_tensors(path), load_file(str(path))
    assert ours.keys() == ref.keys()
    for name, array in ref.items():
        assert ours[name].dtype == array.dtype
        np.testing.assert_array_equal(ours[name], array)


def test_word_level_folder_and_quantized_fallback(tmp_path: Path) -> None:
    from model2vec import StaticModel

    from caas_tui.index.encoders.plainstatic import PlainStaticModel, load_plain_model

    from .test_embed import WORDS, make_tiny_model

    texts = [" ".join(WORDS[: i % 5 + 1]) + " unknownword" for i in range(20)] + ["", "nothing known"]
    plain_dir = make_tiny_model(tmp_path / "plain")
    plain = load_plain_model(plain_dir)
    assert isinstance(plain, PlainStaticModel)
    np.testing.assert_array_equal(plain.encode(texts), _reference(str(plain_dir), texts))
    # per-token weights (vocabulary quantization's layout) are model2vec's to handle
    base = StaticModel.from_pretrained(str(plain_dir))
    weighted_dir = tmp_path / "weighted"
    StaticModel(vectors=base.embedding, tokenizer=base.tokenizer, normalize=True,
                weights=np.linspace(0.5, 1.5, len(base.tokens)).astype(np.float32)).save_pretrained(weighted_dir)
    assert load_plain_model(weighted_dir) is None
    encoder = load_encoder(str(weighted_dir))
    raw = _reference(str(weighted_dir), texts).astype(np.float32)
    norms = np.linalg.norm(raw, axis=1, keepdims=True)
    np.testing.assert_array_equal(encoder.encode(texts), np.divide(raw, norms, out=np.zeros_like(raw), where=norms > 0))


def test_shipped_model_embeds_without_model2vec() -> None:
    code = (
        "import sys\n"
        "from caas_tui.index.encoders import load_encoder\n"
        "enc = load_encoder(None)\n"
        "assert enc.encode(['parse config', 'toPromise']).shape == (2, enc.dims)\n"
        "loaded = [m for m in ('model2vec', 'joblib', 'tqdm', 'huggingface_hub') if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_weights_digest_is_reused_while_the_files_stamps_hold(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from caas_tui.index import integrity
    from caas_tui.index.encoders import common

    from .test_embed import make_tiny_model, sha12

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    reads: list[int] = []
    real = common.hashlib.sha256

    class Counting:
        @staticmethod
        def sha256() -> object:
            reads.append(1)
            return real()

    monkeypatch.setattr(common, "hashlib", Counting)
    folder = make_tiny_model(tmp_path / "m", seed=1)
    weights = folder / "model.safetensors"
    # just written: a same-size rewrite in the same clock tick would keep its stamp, so no caching
    assert common.weights_digest(folder) == common.weights_digest(folder) == sha12(weights)
    assert len(reads) == 2
    monkeypatch.setattr(integrity, "RACY_S", 0.0)  # as if written a while ago
    assert common.weights_digest(folder) == sha12(weights)
    assert common.weights_digest(folder) == sha12(weights)
    assert len(reads) == 3  # the last one came from the cache
    make_tiny_model(tmp_path / "m", seed=2)  # same size, other bytes: the stamp moves
    assert common.weights_digest(folder) == sha12(weights) != common.weights_digest(make_tiny_model(tmp_path / "o"))
    assert json.loads((tmp_path / "cache" / "caas-tui" / "model-facts.json").read_text())


def test_vocabulary_facts_are_cached_under_the_tokenizer_stamp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from caas_tui.index import integrity
    from caas_tui.index.encoders.plainstatic import load_plain_model

    from .test_embed import make_tiny_model

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(integrity, "RACY_S", 0.0)
    folder = make_tiny_model(tmp_path / "m")
    texts = ["remove body", "parse the config file", "unknownword"]
    first = load_plain_model(folder)
    assert first is not None
    cache = tmp_path / "cache" / "caas-tui" / "model-facts.json"
    facts = json.loads(cache.read_text())
    (key,) = (k for k in facts if k.startswith("vocabulary:"))
    assert facts[key]["value"]["median"] == first.median_token_length
    facts[key]["value"]["median"] = 99  # the cached facts are what a later load uses ...
    cache.write_text(json.dumps(facts))
    again = load_plain_model(folder)
    assert again is not None and again.median_token_length == 99
    tokenizer = folder / "tokenizer.json"
    before = tokenizer.stat().st_mtime_ns
    tokenizer.write_text(tokenizer.read_text())  # ... until the file is written again (same bytes)
    os.utime(tokenizer, ns=(before + 10**9, before + 10**9))  # a later time even on a coarse clock
    fresh = load_plain_model(folder)
    assert fresh is not None and fresh.median_token_length == first.median_token_length
    np.testing.assert_array_equal(fresh.encode(texts), first.encode(texts))
