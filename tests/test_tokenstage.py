"""The token stage (retrieve/tokenstage.py): late interaction over the shipped static model's
token vectors and name cover, re-scoring only the top fused candidates."""

from __future__ import annotations

import numpy as np
import pytest

from caas_tui.index.encoders import load_encoder
from caas_tui.index.refresh import embed_text
from caas_tui.models import Chunk
from caas_tui.retrieve.fusion import Fused
from caas_tui.retrieve.ranking import DEFAULT_POLICY, RankPolicy, fuse
from caas_tui.retrieve.tokenstage import TokenCache, TokenVectors, name_cover, query_vocabulary, token_rescore


def _chunk(cid: str, symbol: str, text: str) -> Chunk:
    return Chunk(id=cid, kind="code", path=f"pkg/{cid}.py", start_line=1, end_line=3, symbol=symbol, text=text,
                 mtime=0.0, sha256=cid, language="python", signature=None)


@pytest.fixture(scope="module")
def encoder() -> TokenVectors:
    enc = load_encoder("")
    assert isinstance(enc, TokenVectors)
    return enc


def test_name_cover_reads_compound_names_with_query_words_and_stems() -> None:
    assert name_cover("emptyline", query_vocabulary("Called when an empty line is entered.")) == 1.0
    assert name_cover("getacl", query_vocabulary("Get the ACLs for a mailbox.")) == 1.0  # "acls" -> stem "acl"
    assert name_cover("get_acl", query_vocabulary("Get the ACLs")) == pytest.approx(6 / 6)  # "_" is not a letter
    assert name_cover("supernet", query_vocabulary("Get the ACLs")) == 0.0
    assert 0.0 < name_cover("readlines", query_vocabulary("read everything")) < 1.0
    assert name_cover("", query_vocabulary("anything")) == 0.0


def test_token_ids_are_the_encoders_tokens_and_rows_are_unit_vectors(encoder: TokenVectors) -> None:
    ids = encoder.token_ids(["close the socket", ""])
    assert ids is not None and len(ids) == 2 and len(ids[0]) >= 3 and len(ids[1]) == 0
    units, norms = encoder.token_rows(ids[0])
    assert units.shape == (len(ids[0]), 256) and units.dtype == np.float32
    assert np.allclose(np.linalg.norm(units, axis=1), 1.0, atol=1e-5) and (norms > 0).all()


def test_token_rows_are_the_tables_rows_whatever_was_asked_before() -> None:
    # the rows are kept between calls (a long-lived engine asks for the same tokens again): each
    # answer must be the table's rows made unit length, whichever rows earlier calls computed
    enc = load_encoder("")  # its own instance: no rows kept yet
    assert isinstance(enc, TokenVectors)
    table = enc._model.embedding  # type: ignore[attr-defined]
    rng = np.random.default_rng(3)
    for ids in [np.array([5, 7, 5, 900]), rng.choice(len(table), 300, replace=False), np.array([7]),
                np.array([], dtype=np.int64), rng.choice(len(table), 50)]:
        rows = np.asarray(table[ids], dtype=np.float32).reshape(len(ids), table.shape[1])
        want_norms = np.linalg.norm(rows, axis=1)
        want = rows / np.where(want_norms > 0, want_norms, 1.0)[:, None]
        units, norms = enc.token_rows(ids)
        assert units.shape == want.shape and units.dtype == np.float32
        assert np.array_equal(units, want) and np.array_equal(norms, want_norms)


def test_name_cover_counts_only_words_the_name_holds() -> None:
    vocabulary = frozenset({"zz", "get", "line", "empty", "ge"})
    assert name_cover("get_empty_line", vocabulary) == 1.0  # 12 of 12 letters
    assert name_cover("getline", frozenset({"zz", "qq"})) == 0.0
    assert name_cover("gettline", vocabulary) == pytest.approx(7 / 8)  # "get" + "line": one "t" left
    assert name_cover("___", vocabulary) == 0.0


def test_rescore_lifts_a_close_candidate_whose_tokens_and_name_match(encoder: TokenVectors) -> None:
    chunks = {
        "a": _chunk("a", "pkg.a.render_page", "def render_page(html):\n    return template(html)\n"),
        "b": _chunk("b", "pkg.b.merge_rows", "def merge_rows(rows):\n    return sorted(rows)\n"),
        "c": _chunk("c", "pkg.c.closesocket", "def closesocket(sock):\n    sock.shutdown()\n    sock.close()\n"),
        "d": _chunk("d", "pkg.d.tail", "def tail():\n    pass\n"),
    }
    fused = [Fused("a", 1.0, {}), Fused("b", 0.95, {}), Fused("c", 0.9, {}), Fused("d", 0.1, {})]
    cache = TokenCache()
    out = token_rescore("Close the socket.", fused, chunks.get, encoder, embed_text, cache=cache, depth=3)
    assert [f.id for f in out][0] == "c"
    assert out[-1].id == "d" and out[-1].score == pytest.approx(0.1)  # past the depth: scaled, not re-scored
    assert min(f.score for f in out[:3]) > out[-1].score
    # the candidates' token ids are kept for the next search, by chunk id and text hash
    again = token_rescore("Close the socket.", fused, chunks.get, encoder, embed_text, cache=cache, depth=3)
    assert [f.id for f in again] == [f.id for f in out]
    assert len(cache) == 3


def test_fuse_runs_the_stage_only_when_the_policy_asks_and_the_encoder_can(encoder: TokenVectors) -> None:
    chunks = {
        "a": _chunk("a", "pkg.a.render_page", "def render_page(html):\n    return template(html)\n"),
        "c": _chunk("c", "pkg.c.closesocket", "def closesocket(sock):\n    sock.close()\n"),
    }
    scored = {"bm25": [("a", 2.0), ("c", 1.9)], "dense": [("a", 0.5), ("c", 0.48)]}
    common = {"configured": {"bm25": 1.0, "dense": 1.0}, "rrf_k": 60.0, "chunk_of": chunks.get, "text_of": embed_text}
    off = fuse("close the socket", scored, RankPolicy(token_stage=False), tokens=encoder, **common)  # type: ignore[arg-type]
    on = fuse("close the socket", scored, RankPolicy(token_stage=True), tokens=encoder, **common)  # type: ignore[arg-type]
    no_tokens = fuse("close the socket", scored, RankPolicy(token_stage=True), tokens=object(), **common)  # type: ignore[arg-type]
    assert [f.id for f in off] == ["a", "c"] == [f.id for f in no_tokens]
    assert [f.id for f in on] == ["c", "a"]
    assert isinstance(DEFAULT_POLICY.token_stage, bool)


def test_identifier_queries_skip_the_stage(encoder: TokenVectors) -> None:
    chunks = {
        "a": _chunk("a", "pkg.a.render_page", "def render_page(html):\n    return template(html)\n"),
        "c": _chunk("c", "pkg.c.closesocket", "def closesocket(sock):\n    sock.close()\n"),
    }
    scored = {"bm25": [("a", 2.0), ("c", 1.9)], "dense": [("a", 0.5), ("c", 0.48)]}
    out = fuse("close_socket", scored, RankPolicy(token_stage=True), configured={"bm25": 1.0, "dense": 1.0},
               rrf_k=60.0, chunk_of=chunks.get, tokens=encoder, text_of=embed_text)
    assert [f.id for f in out] == ["a", "c"]


def test_token_ids_by_word_are_the_tokenizers_ids_of_the_whole_text(encoder: TokenVectors) -> None:
    from tokenizers import Tokenizer

    from caas_tui.index.encoders.common import camel_words
    from caas_tui.index.encoders.static import default_model_dir

    tokenizer = Tokenizer.from_file(str(default_model_dir() / "tokenizer.json"))
    unk = tokenizer.token_to_id("[UNK]")
    texts = ["pkg/io.py | pkg.io.Reader.readLines | def readLines(self, n=-1):\n    return self._buf[:n]  # ok",
             "Return the final component of a pathname.", "x"]
    got = encoder.token_ids(texts)
    assert got is not None
    for text, ids in zip(texts, got, strict=True):
        whole = set(tokenizer.encode(camel_words(text), add_special_tokens=False).ids) - {unk}
        assert set(ids.tolist()) == whole
