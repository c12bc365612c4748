"""Fault suite: every parser and loader of untrusted bytes gives a result or one CaasError,
never another exception. Seeded and bounded for CI; ``CAAS_SOAK=1`` runs many more examples."""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from caas_tui.config import CONFIG_FILE, load_config
from caas_tui.errors import CaasError
from caas_tui.graph import load_fragments
from caas_tui.index.chunkdb import ChunkDB
from caas_tui.index.manifest import MANIFEST_NAME, read_manifest
from caas_tui.ingest import chunk_file
from caas_tui.models import Claim, Fix, SourceFile, Verdict
from caas_tui.review.claims import extract_claims
from caas_tui.review.decisions.codec import checks_from, evidence_from, fix_from, verdict_from
from caas_tui.review.decisions.store import VerdictStore

SOAK = os.environ.get("CAAS_SOAK") == "1"
EXAMPLES = 2_000 if SOAK else 60
CHECK = settings(max_examples=EXAMPLES, derandomize=not SOAK, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

_json_leaf = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
_json = st.recursive(_json_leaf, lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=6), kids, max_size=4),
                     max_leaves=20)
# JSON that looks like a manifest: the right keys with any values
_manifest_like = st.fixed_dictionaries(
    {}, optional={k: _json for k in ("model_id", "dims", "schema", "state", "files", "skipped", "warnings", "checksums")}
)
_doc_text = st.lists(st.sampled_from(list("`~#=-*:.> \n\tab_()[]|{}\\\"'") + ["def ", "```", "::", ".. "]),
                     max_size=120).map("".join) | st.text(max_size=200)


def _one_line_or_result(fn, *args) -> None:  # noqa: ANN001 - any loader
    try:
        fn(*args)
    except CaasError as exc:
        assert "\n" not in str(exc).strip(), str(exc)


@CHECK
@given(st.binary(max_size=300) | _json.map(lambda v: json.dumps(v).encode()) | _manifest_like.map(lambda v: json.dumps(v).encode()))
def test_manifest_loader(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, MANIFEST_NAME).write_bytes(data)
        _one_line_or_result(read_manifest, Path(tmp))


@CHECK
@given(st.binary(max_size=300) | st.lists(_json.map(json.dumps), max_size=4).map(lambda ls: "\n".join(ls).encode()))
def test_graph_fragments_loader(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "graph.jsonl").write_bytes(data)
        _one_line_or_result(load_fragments, Path(tmp))


_cell = st.none() | st.integers(-(2**63), 2**63 - 1) | st.floats(allow_nan=False) | st.text(max_size=10) | st.binary(max_size=10)


@CHECK
@given(st.lists(st.lists(_cell, min_size=16, max_size=16), max_size=3))
def test_chunk_store_rows(rows: list[list]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = ChunkDB(Path(tmp, "chunks.sqlite"))
        try:
            with sqlite3.connect(db.path) as raw:
                width = len(raw.execute("PRAGMA table_info(chunks)").fetchall())  # the schema's own width
                assert width <= 16
                raw.executemany(f"INSERT OR REPLACE INTO chunks VALUES ({','.join('?' * width)})",
                                [row[:width] for row in rows])
            _one_line_or_result(db.all)
        finally:
            db.close()


@CHECK
@given(st.none() | st.text(max_size=200) | _json.map(json.dumps))
def test_verdict_store_rows(text: str | None) -> None:
    _one_line_or_result(fix_from, text)
    _one_line_or_result(evidence_from, text)
    _one_line_or_result(checks_from, text)
    _one_line_or_result(verdict_from, text)


@settings(max_examples=max(10, EXAMPLES // 6), derandomize=not SOAK, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["fix", "evidence", "checks", "original", "decided", "symbols"]),
       st.text(max_size=60) | _json.map(json.dumps))
def test_verdict_store_corrupt_row_is_skipped_not_the_others(column: str, junk: str) -> None:
    """A corrupt cell costs its own row (one warning line), never the user's other decisions."""
    with tempfile.TemporaryDirectory() as tmp:
        store = VerdictStore(Path(tmp, "verdicts.sqlite"))
        try:
            for n in range(3):
                claim = Claim(f"c{n}", "README.md", n + 1, n + 1, f"claim {n}", "prose", (), (), None, "")
                fix = Fix(n + 1, n + 1, f"fixed {n}\n")
                store.record(claim, Verdict(f"c{n}", "wrong", "static", "why", (), fix))
            with sqlite3.connect(store.path) as raw:
                raw.execute(f"UPDATE verdicts SET {column}=? WHERE claim_id='c1'", (junk,))
            rows = store.all()
        finally:
            store.close()
        ids = [sv.claim.id for sv in rows]
        assert "c0" in ids and "c2" in ids, ids
        assert [sv.verdict.fix.replacement for sv in rows if sv.claim.id != "c1"] == ["fixed 0\n", "fixed 2\n"]


@CHECK
@given(_doc_text, st.sampled_from(["a.md", "a.rst", "a.py", "a.txt"]))
def test_doc_parsers_markdown_rst_docstrings(text: str, path: str) -> None:
    _one_line_or_result(extract_claims, path, text)
    language = {"md": "markdown", "rst": "rst", "py": "python", "txt": "text"}[path.rsplit(".", 1)[1]]
    src = SourceFile(path, "doc" if language != "python" else "code", language, text, 0.0, "0" * 64, len(text))
    _one_line_or_result(chunk_file, src)


@CHECK
@given(st.binary(max_size=200) | st.lists(st.sampled_from(list("[]=\"'.,\n ") + ["index", "search", "review",
       "max_file_bytes", "include", "model", "rrf_k", "1", "true", "-3", "{}"]), max_size=40).map("".join).map(str.encode))
def test_caas_toml(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, CONFIG_FILE).write_bytes(data)
        _one_line_or_result(load_config, Path(tmp))


def test_a_corrupt_verdict_row_gives_one_warning_naming_it(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    store = VerdictStore(tmp_path / "verdicts.sqlite")
    try:
        for n in range(2):
            claim = Claim(f"c{n}", "docs/guide.md", n + 1, n + 1, f"claim {n}", "prose", (), (), None, "")
            store.record(claim, Verdict(f"c{n}", "wrong", "static", "why", (), Fix(n + 1, n + 1, "x\n")))
        with sqlite3.connect(store.path) as raw:
            raw.execute("UPDATE verdicts SET evidence='[{\"path\": 3' WHERE claim_id='c0'")
        with caplog.at_level("WARNING"):
            rows = store.all()
        with pytest.raises(CaasError, match=r"docs/guide.md claim c0 \(static\): corrupt evidence"):
            store.get("docs/guide.md", "c0", "static")
    finally:
        store.close()
    assert [sv.claim.id for sv in rows] == ["c1"]
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1 and "\n" not in warnings[0]
    assert warnings[0].startswith("skipped: docs/guide.md claim c0 (static): corrupt evidence in the verdict store")
