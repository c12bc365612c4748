"""The plain-Python WordPiece tokenizer gives the real tokenizer's ids, or declines (issue 20)."""

from __future__ import annotations

import json
import os
import random
import sysconfig
from pathlib import Path

import numpy as np
import pytest

from caas_tui.index.encoders.static import default_model_dir
from caas_tui.index.encoders.wordpiece import AsciiWordPiece, facts


@pytest.fixture(scope="module")
def pair() -> tuple[AsciiWordPiece, object]:
    from tokenizers import Tokenizer

    text = (default_model_dir() / "tokenizer.json").read_text(encoding="utf-8")
    found = facts(json.loads(text))
    assert found is not None, "the shipped tokenizer is the BERT WordPiece pipeline"
    real = Tokenizer.from_str(text)
    real.no_padding()
    real.no_truncation()
    return AsciiWordPiece(found), real


def _real_ids(real: object, text: str) -> list[int]:
    return list(real.encode(text, add_special_tokens=False).ids)  # type: ignore[attr-defined]


def _stdlib_texts(limit: int) -> list[str]:
    """Real code and docstrings: slices of the standard library's own sources."""
    rng = random.Random(7)
    files = sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py"))[:limit]
    texts = []
    for path in files:
        source = path.read_text(encoding="utf-8", errors="replace")
        for _ in range(4):
            start = rng.randrange(max(1, len(source)))
            texts.append(source[start:start + rng.randint(0, 600)])
    return texts


def test_same_ids_on_every_ascii_character_and_random_text(pair: tuple[AsciiWordPiece, object]) -> None:
    ours, real = pair
    rng = random.Random(1)
    alphabet = [chr(i) for i in range(128)]
    texts = [*alphabet, *(a + b for a in " a.#\t\x0b\x7f" for b in alphabet)]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(1500)]
    texts += ["".join(rng.choice("abcXYZ_.()[]UNKPAD#09 \t\n-") for _ in range(rng.randint(0, 30))) for _ in range(1500)]
    texts += ["a" * 99, "a" * 100, "a" * 101, "b" * 150 + " hello", "", "   ", "don't stop", "##ing", "x##y"]
    checked = 0
    for text in texts:
        got = ours.ids(text)
        if got is None:
            continue
        assert got == _real_ids(real, text), repr(text)
        checked += 1
    assert checked > 0.98 * len(texts)  # declining is rare: only added tokens' spellings


def test_same_ids_on_real_code(pair: tuple[AsciiWordPiece, object]) -> None:
    ours, real = pair
    texts = [t for t in _stdlib_texts(120) if t.isascii()]
    assert len(texts) > 300
    for text in texts:
        assert ours.ids(text) == _real_ids(real, text), repr(text[:80])


def test_declines_what_it_does_not_restate(pair: tuple[AsciiWordPiece, object]) -> None:
    ours, _ = pair
    assert ours.ids("naïve café") is None  # non-ASCII: accents, CJK and Unicode classes are the real one's
    assert ours.ids("see [UNK] here") is None  # an added token is matched before normalization
    assert ours.ids("see [unk] here") is None
    assert facts({"model": {"type": "WordLevel", "vocab": {"a": 0}, "unk_token": "a"}}) is None
    bert = {"normalizer": {"type": "BertNormalizer", "clean_text": True, "lowercase": False},
            "pre_tokenizer": {"type": "BertPreTokenizer"},
            "model": {"type": "WordPiece", "vocab": {"[UNK]": 0, "a": 1}, "unk_token": "[UNK]"}}
    assert facts(bert) is None  # cased: not the pipeline restated here
    bert["normalizer"]["lowercase"] = True  # type: ignore[index]
    assert facts(bert) is not None
    bert["model"]["vocab"] = {"[UNK]": 0, "a": 7, "##b": 3, "é": 1}  # type: ignore[index]
    sparse = facts(bert)
    assert sparse is not None and AsciiWordPiece(sparse).ids("ab a, b") == [7, 3, 7, 0, 0]
    bert["model"]["vocab"] = {"[UNK]": 0, "a\tb": 1}  # type: ignore[index]
    assert facts(bert) is None  # a token the line format cannot hold


def test_model_gives_the_same_vectors_either_way() -> None:
    """Through the model: the ASCII path (real tokenizer never loaded) against the real one,
    truncation at max_length tokens included."""
    from caas_tui.index.encoders.plainstatic import load_plain_model

    fast = load_plain_model(default_model_dir())
    slow = load_plain_model(default_model_dir())
    assert fast is not None and slow is not None
    slow.tokenizer  # noqa: B018 - loads the real tokenizer: every text below goes through it
    texts = ["parse a config file", "HTTPServer request handler", "", "zz " * 1300,
             *(t for t in _stdlib_texts(40) if t.isascii())]
    for text in texts:
        np.testing.assert_array_equal(fast.encode([text]), slow.encode([text]))
    assert not fast.tokenizer_loaded  # every text above took the plain-Python path
    for text in ("x [UNK] y", "naïve café", "数据"):
        np.testing.assert_array_equal(fast.encode([text]), slow.encode([text]))
    assert fast.tokenizer_loaded


def test_facts_text_is_cached_in_its_own_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from caas_tui.index import integrity
    from caas_tui.index.encoders.common import stamp_cached_text

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(integrity, "RACY_S", 0.0)  # as if written a while ago
    source = tmp_path / "tokenizer.json"
    source.write_text("{}")
    calls: list[str] = []

    def compute(value: str | None) -> str | None:
        calls.append("x")
        return value

    assert stamp_cached_text("k", source, lambda: compute("a\n-b\n")) == "a\n-b\n"
    assert stamp_cached_text("k", source, lambda: compute("other")) == "a\n-b\n"  # from the cache
    assert len(calls) == 1 and not (tmp_path / "cache" / "caas-tui" / "model-facts.json").exists()
    assert stamp_cached_text("none", source, lambda: compute(None)) is None
    assert stamp_cached_text("none", source, lambda: compute("late")) is None  # None is remembered
    assert len(calls) == 2
    before = source.stat().st_mtime_ns
    source.write_text("{} ")
    os.utime(source, ns=(before + 10**9, before + 10**9))
    assert stamp_cached_text("k", source, lambda: compute("new")) == "new"  # the stamp moved
