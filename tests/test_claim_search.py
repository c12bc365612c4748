"""Issue 21: one search for a claim (``retrieve.claimquery.claim_request``) behind the
Claude reviewer's evidence, the app's evidence pane and MCP ``review_claim``; the doc
picker counts verdicts without writing to the store."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import mcp
import pytest
from textual.widgets import Input

from caas_tui.models import KINDS, Chunk, Claim, Hit
from caas_tui.retrieve.claimquery import EVIDENCE_KINDS, claim_request, claim_text
from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.request import SearchRequest, SearchResult
from caas_tui.review.claims import extract_claims
from caas_tui.review.claude.tools import EVIDENCE_K, gather_evidence
from caas_tui.tui.widgets.evidence import CLAIM_HITS, claim_search, documents_code, prefill_text, without_own_lines
from caas_tui.tui.widgets.query import Query

DOCSTRING = Claim(id="d1", doc_path="pkg/retry.py", start_line=3, end_line=3, text="Waits between attempts.",
                  kind="prose", symbols=(), section="pkg.retry.Retry.wait")


def _chunk(cid: str, kind: str, path: str, start: int, end: int, symbol: str | None) -> Chunk:
    return Chunk(id=cid, kind=kind, path=path, start_line=start, end_line=end,  # type: ignore[arg-type]
                 symbol=symbol, text=f"{symbol} waits", mtime=0.0, sha256=cid)


class RecordingEngine:
    """Answers every search with the same chunks (those of the kinds asked for) and keeps the requests."""

    def __init__(self, chunks: Sequence[Chunk]) -> None:
        self.chunks = list(chunks)
        self.requests: list[SearchRequest] = []

    def run(self, request: SearchRequest) -> SearchResult:
        self.requests.append(request)
        found = [c for c in self.chunks if request.kinds is None or c.kind in request.kinds]
        return SearchResult(tuple(Hit(chunk=c, rank=i, score=1.0 / i) for i, c in enumerate(found, 1)))


def test_claude_prefetch_runs_the_claim_request_and_keeps_a_docstrings_own_code() -> None:
    owner = _chunk("own", "code", "pkg/retry.py", 1, 9, "pkg.retry.Retry.wait")  # holds the docstring's lines
    doc = _chunk("doc", "api", "pkg/retry.py", 3, 3, "pkg.retry.Retry.wait")
    other = _chunk("t", "test", "tests/test_retry.py", 1, 5, "tests.test_retry.test_wait")
    engine = RecordingEngine([owner, doc, other])
    hits, notes, _ = gather_evidence(engine, [DOCSTRING], rerank=True)  # type: ignore[arg-type]
    assert engine.requests == [replace(claim_request(DOCSTRING, EVIDENCE_K), rerank=True)]
    assert engine.requests[0].query.startswith("`pkg.retry.Retry.wait`")  # the owner a docstring never names
    # the function whose docstring it is, is the first evidence (the docstring itself is not asked for)
    assert [h.chunk.id for h in hits] == ["own", "t"] and notes == []


def test_the_app_searches_a_claim_by_its_claim_request_under_the_chips() -> None:
    plain = Query("whatever the box shows", "hybrid", None)
    assert claim_search(DOCSTRING, plain) == claim_request(DOCSTRING, CLAIM_HITS)
    assert claim_search(DOCSTRING, plain).kinds == EVIDENCE_KINDS
    assert claim_search(DOCSTRING, Query("q", "bm25", ("test",))) == replace(
        claim_request(DOCSTRING, CLAIM_HITS), mode="bm25", kinds=("test",))
    assert claim_search(DOCSTRING, Query("q", "dense", None, own_doc=True)).kinds == KINDS
    assert prefill_text(DOCSTRING) == claim_text(DOCSTRING)


def test_a_docstrings_own_code_stays_in_the_pane_but_its_doc_lines_go() -> None:
    def hit(kind: str, start: int, end: int, rank: int) -> Hit:
        return Hit(chunk=_chunk(f"{kind}{start}", kind, "pkg/retry.py", start, end, "s"), rank=rank, score=1.0)

    hits = [hit("api", 3, 3, 1), hit("code", 1, 9, 2), hit("code", 20, 30, 3)]
    assert documents_code(DOCSTRING) and not documents_code(replace(DOCSTRING, doc_path="docs/a.md"))
    kept = without_own_lines(hits, ("pkg/retry.py", 3, 3), keep_code=True)
    assert [(h.chunk.id, h.rank) for h in kept] == [("code1", 1), ("code20", 2)]


def test_the_pane_and_the_reviewers_get_the_same_hits_for_a_claim(tiny_project: Path, tmp_path: Path) -> None:
    from caas_tui.tui.session import Session

    session = Session(tiny_project, index_dir=tmp_path / "index")
    session.open()
    try:
        [claim] = [c for c in session.claims("docs/guide.md") if "remove_body" in c.text]
        pane = session.run(claim_search(claim, Query(prefill_text(claim), "hybrid", None)))
        direct = session.need_engine().run(claim_request(claim, CLAIM_HITS)).hits
        assert [h.chunk.id for h in pane] == [h.chunk.id for h in direct]
        assert pane and {h.chunk.kind for h in pane} <= set(EVIDENCE_KINDS)
        assert pane[0].chunk.symbol == "pkg.world.World.remove_body"
    finally:
        session.close()


@pytest.fixture()
def engine(tiny_project: Path, tmp_path: Path) -> Iterator[Engine]:
    eng = Engine.open(tiny_project, index_dir=tmp_path / "index")
    yield eng
    eng.close()


async def test_mcp_review_claim_gives_the_claim_searchs_hits_as_leads(engine: Engine) -> None:
    from caas_tui.mcp_server.server import build_server
    from caas_tui.mcp_server.tools import LEADS

    text = "Call `World.remove_body` to delete a body immediately."
    async with mcp.Client(build_server(engine)) as client:
        out = (await client.call_tool("review_claim", {"text": text, "doc_path": "docs/guide.md"})).structured_content
    assert out is not None
    [claim] = [c for c in extract_claims("docs/guide.md", (engine.root / "docs/guide.md").read_text())
               if "remove_body" in c.text]
    want = engine.run(claim_request(claim, LEADS)).hits
    assert [(h["path"], h["start_line"], h["kind"]) for h in out["leads"]] == [
        (h.chunk.path, h.chunk.start_line, h.chunk.kind) for h in want]
    assert out["leads"][0]["symbol"] == "pkg.world.World.remove_body"


def test_opening_the_doc_picker_counts_without_marking_anything_stale(tiny_project: Path, tmp_path: Path) -> None:
    from caas_tui.tui.screens.docpicker import doc_counts
    from caas_tui.tui.session import Session

    session = Session(tiny_project, index_dir=tmp_path / "index")
    session.open()
    try:
        port = session.need_port()
        claims = session.claims("docs/guide.md")
        batch = port.review(claims, "static", progress=lambda *_: None, on_usage=lambda _: None,
                            cancel=threading.Event())
        session.store_call_sync(port.record, claims, batch.verdicts, whole_doc=True)
        guide = tiny_project / "docs/guide.md"
        guide.write_text(guide.read_text().replace("immediately", "at once"))
        session.forget_claims()
        before = session.store_call_sync(port.store.all, "docs/guide.md")
        counts = doc_counts(session, "docs/guide.md")
        after = session.store_call_sync(port.store.all, "docs/guide.md")
        assert counts.flagged >= 1  # the edited claim's verdict counts as stale
        assert after == before and not any(sv.verdict.verdict == "stale" for sv in after)
        # opening the doc is what marks it
        _, opened, states = session.open_doc("docs/guide.md")
        assert any(s.stale for s in states.values()) and opened
        assert any(sv.verdict.verdict == "stale" for sv in session.store_call_sync(port.store.all, "docs/guide.md"))
    finally:
        session.close()


async def test_selecting_a_claim_fills_the_pane_from_its_claim_request(tiny_project: Path, tmp_path: Path) -> None:
    from caas_tui.tui.app import CaasApp
    from caas_tui.tui.screens.main import MainScreen
    from caas_tui.tui.testing import settle
    from caas_tui.tui.widgets.evidence import HitTable
    from caas_tui.tui.widgets.lists import ClaimList

    app = CaasApp(tiny_project, index_dir=tmp_path / "index")
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        claims = screen.query_one(ClaimList)
        claim = next(c for c in claims.claims if "remove_body" in c.text)
        claims.select_claim(claim.id)
        await settle(pilot)
        table = screen.query_one(HitTable)
        assert screen.query_one("#query", Input).value == prefill_text(claim)
        want = screen.session.run(claim_search(claim, Query("", "hybrid", None)))
        assert [h.chunk.id for h in table.hits] == [h.chunk.id for h in want if h.chunk.path != claim.doc_path]
        assert table.hits[0].chunk.symbol == "pkg.world.World.remove_body"
        assert "code/test/upstream" in str(table.border_subtitle)
        # typing in the box is a plain search again, over every kind
        await pilot.press("ctrl+f", "end", *" guide")
        await settle(pilot)
        assert "all kinds" in str(table.border_subtitle)
