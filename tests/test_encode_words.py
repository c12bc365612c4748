"""A build tokenizes each distinct word once (``PlainStaticModel._batch_ids``) and takes the
float16 means from a float32 copy of the table: the ids and vectors must be the tokenizer's
and model2vec's exactly."""

from __future__ import annotations

import inspect
import random
import string

import numpy as np

from caas_tui.index.encoders.plainstatic import load_plain_model
from caas_tui.index.encoders.static import default_model_dir


def _real_code(n: int) -> list[str]:
    """Windows of real Python source: this package's own modules and the standard library's."""
    import ast
    import dataclasses
    import json
    import typing

    import caas_tui.index.encoders.plainstatic as mod

    out: list[str] = []
    for module in (mod, ast, json.decoder, inspect, typing, dataclasses):
        source = inspect.getsource(module)
        lines = source.split("\n")
        for start in range(0, len(lines), 3):
            out.append("\n".join(lines[start : start + 40]))
    return out[:n]


def _odd_texts() -> list[str]:
    rng = random.Random(20)
    alphabet = string.printable + "\x00\x07\x0b\x0c\x1c\x7f"
    noise = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 300))) for _ in range(300)]
    return [*noise, "see [UNK] and [cls] here", "a\x07b\x0bc d\x00e", "x" * 300 + " y", "", "   \t\n",
            "naïve café ☃ données a©b", "数据abc 解析", "snake_case_name = camelCaseName(HTTPServer)",
            " ".join(["tokenizer"] * 700)]


def test_word_cache_gives_the_tokenizers_ids() -> None:
    model = load_plain_model(default_model_dir())
    assert model is not None
    texts = _real_code(400) + _odd_texts()
    tokenizer = model.tokenizer
    whole = [e.ids for e in tokenizer.encode_batch_fast(texts, add_special_tokens=False)]
    assert model._batch_ids(texts) == whole
    # a second batch reuses the remembered words and still agrees
    assert model._batch_ids(texts[::-1]) == whole[::-1]
    assert len(model._words) > 100


def test_build_batches_embed_as_model2vec_does() -> None:
    from model2vec import StaticModel

    texts = _real_code(1200) + _odd_texts()
    assert len(texts) > 1024  # more than one batch, each past the float32-table threshold
    ours = load_plain_model(default_model_dir())
    assert ours is not None
    got = ours.encode(texts)
    assert ours._wide is not None  # the float32 table was used
    ref = StaticModel.from_pretrained(str(default_model_dir())).encode(texts, normalize=False, use_multiprocessing=False)
    assert got.dtype == ref.dtype
    np.testing.assert_array_equal(got, ref)
