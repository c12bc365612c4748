"""Token ids stored per chunk at build time (index/tokenids.py) give the token stage exactly the
scores that tokenizing the candidates at query time gives."""

from __future__ import annotations

import random
import re
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from caas_tui.index.refresh import embed_text
from caas_tui.index.tokenids import CHARS, pack, stage_text, token_blobs, unpack
from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.fusion import Fused
from caas_tui.retrieve.tokenstage import TokenCache, TokenVectors, token_rescore

REPO = Path(__file__).resolve().parent.parent
QUERIES = (
    "parse a config file", "retry with exponential backoff", "how are errors reported to the user",
    "close the connection when the request times out", "merge the defaults into the settings",
    "what happens when the cache is full", "Ünïcode names in a path", "write the results as JSON",
)


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    root = tmp_path_factory.mktemp("tokenids") / "sample"
    shutil.copytree(REPO / "sample_project", root, ignore=shutil.ignore_patterns(".caas"))
    opened = Engine.open(root)
    yield opened
    opened.close()


def test_blobs_round_trip_and_damage_reads_as_missing() -> None:
    for ids in (np.array([], dtype=np.int32), np.array([0, 7, 29_999], dtype=np.int32),
                np.array([3, 70_000, 2**31 - 1], dtype=np.int32)):
        back = unpack(pack(ids))
        assert back is not None and back.dtype == np.int32 and back.tolist() == ids.tolist()
    assert len(pack(np.array([1, 2], dtype=np.int32))) < len(pack(np.array([1, 70_000], dtype=np.int32)))
    blob = pack(np.array([5, 9, 11], dtype=np.int32))
    flipped = blob[:-1] + bytes([blob[-1] ^ 1])
    assert unpack(flipped) is None and unpack(blob[:-1]) is None and unpack(b"") is None and unpack(None) is None
    assert unpack(b"\x03" + blob[1:]) is None  # an unknown width


def test_every_chunk_stores_the_ids_the_stage_would_tokenize(engine: Engine) -> None:
    store = engine.store
    tokens = store.encoder
    assert isinstance(tokens, TokenVectors)
    chunks = list(store.chunks.values())
    stored = store.chunks.token_ids([c.id for c in chunks])
    assert len(stored) == len(chunks) > 500
    live = tokens.token_ids([embed_text(c)[:CHARS] for c in chunks])
    assert live is not None
    for chunk, ids in zip(chunks, live, strict=True):
        assert stored[chunk.id].tolist() == ids.tolist(), chunk.id
    assert stage_text(chunks[0]) == embed_text(chunks[0])[:CHARS]


def test_stored_ids_score_exactly_as_live_tokenization(engine: Engine) -> None:
    store = engine.store
    tokens = store.encoder
    assert isinstance(tokens, TokenVectors)
    ids = sorted(c.id for c in store.chunks.values())
    rng = random.Random(20)
    for query in QUERIES:
        picked = rng.sample(ids, 80)
        fused = [Fused(cid, 1.0 / (rank + 1) + rng.random() * 0.01, {"bm25": rank + 1}) for rank, cid in enumerate(picked)]
        fused.sort(key=lambda f: -f.score)
        from_store = token_rescore(query, fused, store.chunks.get, tokens, embed_text,
                                   cache=TokenCache(stored=store.chunks.token_ids))
        from_text = token_rescore(query, fused, store.chunks.get, tokens, embed_text, cache=TokenCache())
        assert [(f.id, f.score) for f in from_store] == [(f.id, f.score) for f in from_text], query
        assert [f.id for f in from_store] != [f.id for f in fused]  # the stage did reorder something


def test_rows_without_ids_are_tokenized_and_other_lengths_ignore_the_store(engine: Engine) -> None:
    store = engine.store
    tokens = store.encoder
    assert isinstance(tokens, TokenVectors)
    chunks = sorted(store.chunks.values(), key=lambda c: c.id)[:20]
    asked: list[list[str]] = []

    def half(wanted: Sequence[str]) -> dict[str, np.ndarray]:
        got = store.chunks.token_ids(wanted)
        asked.append(list(wanted))
        return {cid: ids for i, (cid, ids) in enumerate(sorted(got.items())) if i % 2}

    mixed = TokenCache(stored=half).ids_of(chunks, tokens, embed_text, CHARS)
    live = TokenCache().ids_of(chunks, tokens, embed_text, CHARS)
    assert mixed is not None and live is not None and len(asked) == 1
    assert [a.tolist() for a in mixed] == [b.tolist() for b in live]
    # the stored ids are of the first CHARS characters only: another length never reads them
    assert TokenCache(stored=half).ids_of(chunks, tokens, embed_text, 300) is not None and len(asked) == 1


def test_an_encoder_without_token_ids_stores_none(engine: Engine) -> None:
    class Plain:
        model_id, dims = "plain", 4

    chunks = list(engine.store.chunks.values())[:3]
    assert token_blobs(Plain(), chunks) == [None, None, None]  # type: ignore[arg-type]
    assert token_blobs(engine.store.encoder, []) == []


def test_token_ids_split_ascii_text_as_the_unicode_pattern_does() -> None:
    """An ASCII text's words come from an ASCII-only pattern (faster); its ids must be those of the
    definition: the distinct ids of each ``\\w+|[^\\w\\s]`` piece, tokenized alone."""
    from caas_tui.index.encoders.common import camel_words
    from caas_tui.index.encoders.plainstatic import load_plain_model
    from caas_tui.index.encoders.static import default_model_dir, load_default_encoder

    model = load_plain_model(default_model_dir())
    assert model is not None
    encoder = load_default_encoder()
    rng = random.Random(7)
    alphabet = [chr(c) for c in range(128)]
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60))) for _ in range(300)]
    texts += [chr(c) for c in range(128)] + ["a\x1cb\x1fc", "x\x0by\x0cz", "getHTTPResponse(a_b, **kw)", "é ünïcode"]
    got = encoder.token_ids(texts)
    assert got is not None
    for text, ids in zip(texts, got, strict=True):
        words = re.findall(r"\w+|[^\w\s]", text)
        pieces = model.token_ids([camel_words(w) for w in words]) if words else []
        unk = model.unk_token_id
        assert ids.tolist() == sorted({t for row in pieces for t in row if t != unk}), repr(text)
