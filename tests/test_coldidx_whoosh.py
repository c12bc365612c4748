"""The Whoosh build's fast paths write the very segment Whoosh's own writer writes.

Issue 20: a chunk's postings are counted in the chunking worker (``WhooshLexical.analysis``)
and written term by term at commit (``whoosh_writer``); every posting, weight, payload,
field length and stored field must stay what ``SegmentWriter.add_document`` makes of it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from whoosh.writing import SegmentWriter

from caas_tui.index import whoosh_writer
from caas_tui.index.lexical import WhooshLexical
from caas_tui.models import Chunk

WORDS = ["remove", "body", "HTTPServer", "scheduler", "defer", "mass.gravity", "step", "collide", "render", "ünïcode"]


def _chunks(n: int) -> list[Chunk]:
    out = []
    for i in range(n):
        name = f"{WORDS[i % 10]}_{WORDS[(i * 3) % 10]}".replace(".", "_")
        # a term repeated a varying number of times: frequencies (and weights) differ per document
        body = " ".join([WORDS[(i * 7) % 10]] * (1 + i % 5) + [f"v{i}"] * (i % 3))
        text = f"def {name}(x):\n    return {body}(x) + {i}\n"
        out.append(Chunk(id=f"c{i}", kind="code" if i % 4 else "doc", path=f"pkg/m{i % 7}.py", start_line=1,
                         end_line=2, symbol=f"pkg.m{i % 7}.{name}" if i % 9 else None, text=text, mtime=0.0,
                         sha256="0" * 64, language="python", signature=None, parent=None, file_sha256="0" * 64))
    return out


def _dump(lex: WhooshLexical) -> dict[str, object]:
    """Everything a search can read of the index: postings with weights and payloads, field
    lengths, stored fields."""
    reader = lex._searcher.reader()
    postings = {}
    for fieldname, btext in reader.all_terms():
        m = reader.postings(fieldname, btext)
        got = []
        while m.is_active():
            got.append((m.id(), m.weight(), m.value()))
            m.next()
        info = reader.term_info(fieldname, btext)
        postings[(fieldname, btext)] = (got, info.max_weight(), info.min_length(), info.max_length())
    names = lex._ix.schema.scorable_names()
    lengths = {(d, f): reader.doc_field_length(d, f) for d in range(reader.doc_count_all()) for f in names}
    stored = [reader.stored_fields(d) for d in range(reader.doc_count_all())]
    return {"postings": postings, "lengths": lengths, "stored": stored}


def _build(directory: Path, chunks: list[Chunk], *, analyzed: bool) -> WhooshLexical:
    lex = WhooshLexical.create(directory)
    for start in range(0, len(chunks), 50):
        part = chunks[start : start + 50]
        if analyzed:  # what a build's chunking worker hands over
            lex.add_analyzed(part, lex.analysis()(part))
        else:
            lex.add(part)
        lex.prepare()
    lex.commit()
    return lex


@pytest.mark.parametrize("analyzed", [True, False])
@pytest.mark.parametrize("max_postings", [whoosh_writer.MAX_POSTINGS, 300])
def test_fast_paths_write_whoosh_writers_postings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  analyzed: bool, max_postings: int) -> None:
    # more than one block (128 postings) for the common terms; 300: hands over to Whoosh's pool midway
    chunks = _chunks(700)
    monkeypatch.setattr(whoosh_writer, "MAX_POSTINGS", max_postings)
    fast = _build(tmp_path / "fast", chunks, analyzed=analyzed)
    monkeypatch.setattr(whoosh_writer, "FastSegmentWriter", lambda ix, **kw: SegmentWriter(ix, **kw))
    plain = _build(tmp_path / "plain", chunks, analyzed=False)
    try:
        got, want = _dump(fast), _dump(plain)
        assert len(want["postings"]) > 100  # type: ignore[arg-type]
        assert any(len(p[0]) > 128 for p in want["postings"].values())  # type: ignore[attr-defined]
        assert got == want
    finally:
        fast.close()
        plain.close()


def test_analyzed_chunks_are_not_analyzed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    chunks = _chunks(60)
    lex = WhooshLexical.create(tmp_path / "ix")
    try:
        analyzed = lex.analysis()(chunks)

        def fail(value: str) -> dict[str, int]:
            raise AssertionError("analyzed in the indexing process")

        for name in ("path", "content"):
            monkeypatch.setattr(lex._ix.schema[name].analyzer, "term_counts", fail)
        lex.add_analyzed(chunks, analyzed)
        lex.commit()
        assert lex.doc_count() == 60
    finally:
        lex.close()


def test_re_added_chunk_is_analyzed_anew(tmp_path: Path) -> None:
    old, new = _chunks(2)
    new = dataclasses.replace(old, text="def fresh_name():\n    pass\n")
    lex = WhooshLexical.create(tmp_path / "ix")
    try:
        lex.add_analyzed([old], lex.analysis()([old]))
        lex.add([new])  # replaces it before the commit: the old analysis must not be used
        lex.commit()
        assert [cid for cid, _s in lex.search("fresh name", 5)] == ["c0"]
        assert lex.search("remove", 5) == []
    finally:
        lex.close()


@pytest.mark.parametrize("text", ["pkg.mod.Class.meth(x_1) and HTTPServer.serve_forever", "naïve café.crème x",
                                  "a.b. e.g. i.e. __init__ x..y ok_ 3.14 v2.0"])
def test_raw_tokens_match_the_token_pattern(text: str) -> None:
    from caas_tui.index.analysis import TOKEN_RE, raw_tokens

    assert raw_tokens(text) == TOKEN_RE.findall(text)


def _segment_bytes(directory: Path) -> dict[str, bytes]:
    """The terms and postings files inside the one (compound) segment (its order of files varies)."""
    from whoosh import index as whoosh_index

    ix = whoosh_index.open_dir(str(directory))
    (segment,) = ix._segments()
    inner = segment.open_compound_file(ix.storage)
    try:
        return {ext: inner.open_file(segment.make_filename(ext)).read() for ext in (".trm", ".pst")}
    finally:
        inner.close()


@pytest.mark.parametrize("compression", [0, 3])
def test_small_terms_are_written_byte_for_byte(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               compression: int) -> None:
    from whoosh.codec.whoosh3 import W3Codec

    chunks = _chunks(700)
    real = whoosh_writer.FastSegmentWriter
    monkeypatch.setattr(whoosh_writer, "FastSegmentWriter",
                        lambda ix, **kw: real(ix, codec=W3Codec(compression=compression), **kw))
    fast = _build(tmp_path / "fast", chunks, analyzed=True)
    monkeypatch.setattr(whoosh_writer, "_SMALL_TERMS", False)  # every term through the posting writer's calls
    plain = _build(tmp_path / "plain", chunks, analyzed=True)
    fast.close()
    plain.close()
    assert _segment_bytes(tmp_path / "fast") == _segment_bytes(tmp_path / "plain")
