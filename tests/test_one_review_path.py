"""One review path: every claim of every findings-manifest doc gets the same verdict from
the static reviewer whether it is reviewed alone or with the whole doc in the app, in
arbitrary batches, by the CLI (``review --json``) or through MCP ``review_claim``.

A single claim used to lose the names earlier code blocks bound (``scene = Scene(...)``),
so the app's ``c`` and MCP called a wrong-arity call on ``scene`` consistent while the CLI
contradicted it."""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import mcp
import pytest

from caas_tui.cli.main import main
from caas_tui.mcp_server.server import build_server
from caas_tui.models import Claim
from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.evaluate import load_findings
from caas_tui.review.claims import extract_claims
from caas_tui.review.runner import review_claims
from caas_tui.review.static import StaticReviewer
from caas_tui.review.textutil import normalise_ws, read_text
from caas_tui.tui.review_port import ReviewPort

from .conftest import REPO, SAMPLE

PROJECTS = [SAMPLE, *sorted(p.parent for p in (REPO / "demo_projects").glob("*/FINDINGS.toml"))]
BATCH = 5


def manifest_docs(root: Path) -> list[str]:
    return sorted({f.doc for f in load_findings(root / "FINDINGS.toml")})


@pytest.fixture(scope="module", params=PROJECTS, ids=lambda p: p.name)
def project(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path, Engine]]:
    root: Path = request.param
    index_dir = tmp_path_factory.mktemp(f"one-path-{root.name}")
    engine = Engine.open(root, index_dir=index_dir)
    yield root, index_dir, engine
    engine.close()


def doc_claims(engine: Engine, doc: str) -> list[Claim]:
    return extract_claims(doc, read_text(engine.resolve_path(doc)))


def app_review(port: ReviewPort, claims: list[Claim]) -> dict[str, str]:
    batch = port.review(claims, "static", progress=lambda *_: None, on_usage=lambda _u: None,
                        cancel=threading.Event())
    return {v.claim_id: v.verdict for v in batch.verdicts}


def cli_review(root: Path, index_dir: Path, docs: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, str]]:
    capsys.readouterr()
    assert main(["review", "--root", str(root), "--index-dir", str(index_dir), "--json", *docs]) == 0
    out: dict[str, dict[str, str]] = {}
    for line in capsys.readouterr().out.splitlines():
        item = json.loads(line)
        out[item["doc"]] = {c["id"]: c["verdict"] for c in item["claims"]}
    return out


def mcp_review(engine: Engine, asks: list[tuple[str, str]]) -> list[dict[str, Any]]:
    async def run() -> list[dict[str, Any]]:
        results = []
        async with mcp.Client(build_server(engine)) as client:
            for doc, text in asks:
                result = await client.call_tool("review_claim", {"text": text, "doc_path": doc})
                assert not result.is_error, result.content
                assert result.structured_content is not None
                results.append(result.structured_content)
        return results

    return anyio.run(run)


def test_every_manifest_claim_gets_one_verdict_four_ways(
    project: tuple[Path, Path, Engine], capsys: pytest.CaptureFixture[str]
) -> None:
    root, index_dir, engine = project
    docs = manifest_docs(root)
    reviewer = StaticReviewer()
    whole = {doc: review_claims(engine, doc, None, reviewer) for doc in docs}
    expected = {doc: {v.claim_id: v.verdict for v in r.verdicts} for doc, r in whole.items()}
    assert sum(len(v) for v in expected.values()) > 50
    # The planted defects make this comparison meaningful: not everything is one label.
    labels = Counter(label for per_doc in expected.values() for label in per_doc.values())
    assert labels["contradicted"] and labels["consistent"]

    port = ReviewPort(engine, engine.cfg)
    try:
        for doc in docs:
            claims = doc_claims(engine, doc)
            assert [c.id for c in claims] == list(expected[doc])
            # the app: `c` on each claim, then `C` on the whole doc
            single = {}
            for claim in claims:
                single.update(app_review(port, [claim]))
            assert single == expected[doc], doc
            assert app_review(port, claims) == expected[doc], doc
            # batches that split the doc anywhere, reviewed last batch first
            batched: dict[str, str] = {}
            for start in reversed(range(0, len(claims), BATCH)):
                ids = [c.id for c in claims[start : start + BATCH]]
                got = review_claims(engine, doc, ids, reviewer)
                assert [c.id for c in got.claims] == ids
                batched.update((v.claim_id, v.verdict) for v in got.verdicts)
            assert batched == expected[doc], doc
    finally:
        port.close()

    assert cli_review(root, index_dir, docs, capsys) == expected

    # MCP: a claim's text (unique in its doc) with its doc_path is reviewed in the doc's context
    asks: list[tuple[str, str, str]] = []
    for doc in docs:
        claims = doc_claims(engine, doc)
        texts = Counter(normalise_ws(c.text) for c in claims)
        # containment matching picks the first claim holding the text: only texts no other claim holds
        asks += [(doc, c.text, c.id) for c in claims if texts[normalise_ws(c.text)] == 1
                 and not any(o is not c and normalise_ws(c.text) in normalise_ws(o.text) for o in claims)]
    assert len(asks) > 40
    results = mcp_review(engine, [(doc, text) for doc, text, _ in asks])
    got = {(doc, cid): r["verdict"] for (doc, _, cid), r in zip(asks, results, strict=True)}
    assert got == {(doc, cid): expected[doc][cid] for doc, _, cid in asks}
    assert all(r["claim_lines"] is not None for r in results)


def test_single_claim_keeps_bindings_of_earlier_blocks(tmp_path: Path) -> None:
    """The tester's case: ``scene`` bound in step 1, a wrong-arity call on it in step 2."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "scene.py").write_text(
        "class Scene:\n    def __init__(self, name: str) -> None:\n        self.name = name\n\n"
        "    def spawn(self, kind: str) -> str:\n        return kind\n",
        encoding="utf-8",
    )
    (root / "docs" / "tutorial.md").write_text(
        "# Tutorial\n\nStep 1:\n\n```python\nfrom pkg.scene import Scene\nscene = Scene('lab')\n```\n\n"
        "Step 2:\n\n```python\nscene.spawn('cube', 'red', 3)\n```\n",
        encoding="utf-8",
    )
    engine = Engine.open(root)
    try:
        claims = doc_claims(engine, "docs/tutorial.md")
        spawn = next(c for c in claims if "spawn" in c.text)
        whole = review_claims(engine, "docs/tutorial.md", None, StaticReviewer())
        alone = review_claims(engine, "docs/tutorial.md", [spawn.id], StaticReviewer())
        [verdict] = alone.verdicts
        assert verdict.verdict == "contradicted"
        assert verdict == whole.verdicts[whole.claims.index(spawn)]
        # without the doc context the same claim has nothing to check against
        assert StaticReviewer().review([spawn], engine)[0].verdict != "contradicted"
    finally:
        engine.close()


def test_unknown_claim_id_is_an_error(project: tuple[Path, Path, Engine]) -> None:
    root, _, engine = project
    doc = manifest_docs(root)[0]
    with pytest.raises(Exception, match="no longer in the doc"):
        review_claims(engine, doc, ["no-such-claim"], StaticReviewer())


def test_checked_list_never_contradicts_a_finding(tmp_path: Path) -> None:
    """The tester's item 2: "omits required parameter" above "passes every required parameter"."""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "xr.py").write_text(
        "class XRSession:\n    def __init__(self, mode: str, reference_space: str) -> None:\n        self.mode = mode\n",
        encoding="utf-8",
    )
    (root / "docs" / "guide.md").write_text(
        "# Guide\n\n```python\nfrom pkg.xr import XRSession\nfull = XRSession('vr', 'local')\nhalf = XRSession('vr')\n```\n",
        encoding="utf-8",
    )
    engine = Engine.open(root)
    try:
        [verdict] = [v for c, v in review_claims(engine, "docs/guide.md", None, StaticReviewer()).pairs() if c.kind == "code"]
        assert verdict.verdict == "incomplete" and "reference_space" in verdict.rationale
        assert not any("passes every required parameter" in check for check in verdict.checks)
    finally:
        engine.close()
