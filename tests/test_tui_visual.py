"""Issue 15, the visual half: verdict glyphs, readable evidence columns that fit a width,
the doc picker's ordering and filter, the remembered doc and ``--doc`` checks."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from rich.text import Text

from caas_tui.cli.app_cmd import check_doc
from caas_tui.errors import ProjectError
from caas_tui.models import Chunk, Claim, Hit
from caas_tui.tui.app_state import last_doc, remember_doc
from caas_tui.tui.hits_view import cells, hit_rows, location, plan
from caas_tui.tui.render import VERDICT_GLYPH, claim_prompt, tally_text
from caas_tui.tui.screens.docpicker import fuzzy_score, ordered
from caas_tui.tui.state import DocEntry
from caas_tui.tui.widgets.evidence import section_span, without_own_lines


def _hit(path: str, rank: int, score: float, bm25: int | None, dense: int | None, via: str | None = None,
         start: int = 1, end: int = 9) -> Hit:
    chunk = Chunk(id=f"{path}:{start}", kind="code", path=path, start_line=start, end_line=end, symbol="s",
                  text="", mtime=0.0, sha256="")
    return Hit(chunk=chunk, rank=rank, score=score, bm25_rank=bm25, dense_rank=dense, via=via)


def test_glyphs_are_distinct_and_tally_reads_without_colour() -> None:
    assert len(set(VERDICT_GLYPH.values())) == len(VERDICT_GLYPH)
    counts = {"consistent": 13, "contradicted": 1, "incomplete": 1, "unverified": 19}
    assert tally_text(counts, compact=True).plain.split() == ["✓13", "✗1", "◐1", "?19"]
    wide = tally_text(counts).plain
    assert "✓ 13 consistent" in wide and "✗ 1 contradicted" in wide
    from caas_tui.tui.state import PENDING

    claim = Claim(id="c", doc_path="d.md", start_line=3, end_line=3, text="x", kind="prose")
    assert claim_prompt(claim, PENDING).plain.startswith("· ")


def test_rows_explain_scores_ranks_and_pins() -> None:
    hits = [_hit("pkg/a.py", 1, 0.5, None, None, via="exact symbol"), _hit("pkg/b.py", 2, 0.032, 7, 40),
            _hit("pkg/c.py", 3, 0.016, None, 12), _hit("pkg/d.py", 4, 0.01, None, None, via="calls <- pkg.X")]
    rows = hit_rows(hits)
    assert [r.rel for r in rows] == ["pin", "100", "50", "link"]  # pinned/added rows don't skew the scale
    assert [r.why for r in rows] == ["exact name", "both", "meaning", "via calls <- pkg.X"]
    # channel ranks renumbered among the shown hits: no gaps
    assert rows[1].agree == "1·2" and rows[2].agree == "-·1"


@pytest.mark.parametrize("width", [20, 26, 30, 40, 60, 90, 140])
def test_location_is_never_cut(width: int) -> None:
    hits = [_hit("xrkit/geometry/shapes.py", 1, 0.03, 1, 1, start=127, end=155),
            _hit("tests/test_xr_collision.py", 2, 0.02, 2, None)]
    rows = hit_rows(hits)
    columns = plan(rows, width)
    names = [c for c, _ in columns]
    assert "location" in names
    for row in rows:
        shown = cells(row, columns)[names.index("location")].plain
        assert shown.endswith(f"{row.path.rsplit('/', 1)[-1]}:{row.lines}")
    used = sum(w + 2 for _, w in columns)
    full = max(len(r.path) + 1 + len(r.lines) for r in rows)
    if width >= 60:
        assert dict(columns)["location"] >= full and "rel" in names and used <= width
    if width <= 26:
        assert names == ["location"]


def test_location_shortens_from_the_left() -> None:
    assert location("a/b/c/file.py", "10-20", 40) == "a/b/c/file.py:10-20"
    assert location("aaaa/bbbb/file.py", "10-20", 18) == "…bbb/file.py:10-20"
    assert location("aaaa/bbbb/file.py", "10-20", 10) == "file.py:10-20"


def test_own_section_spans_sub_sections() -> None:
    def claim(line: int, section: str) -> Claim:
        return Claim(id=str(line), doc_path="d.md", start_line=line, end_line=line, text="t", kind="prose",
                     section=section)

    claims = [claim(3, "T"), claim(12, "T > Step 1"), claim(30, "T > Step 2"), claim(50, "U")]
    assert section_span(claims[1], claims) == ("d.md", 12, 12)
    assert section_span(claims[0], claims) == ("d.md", 3, 30)
    hits = [_hit("d.md", 1, 0.1, 1, 1, start=10, end=14), _hit("d.md", 2, 0.1, 2, 2, start=48, end=52)]
    assert [h.chunk.start_line for h in without_own_lines(hits, section_span(claims[0], claims))] == [48]


def test_picker_orders_guides_first_and_filters_fuzzily() -> None:
    docs = [DocEntry("README.md", "markdown"), DocEntry("docs/tutorial.md", "markdown"),
            DocEntry("docs/api_guide.md", "markdown"), DocEntry("xrkit/scene.py", "python"),
            DocEntry("xrkit/tutorials.py", "python")]
    guides, modules = ordered(docs, "")
    assert [d.path for d in guides] == ["README.md", "docs/tutorial.md", "docs/api_guide.md"]
    assert [d.path for d in modules] == ["xrkit/scene.py", "xrkit/tutorials.py"]
    guides, modules = ordered(docs, "tut")
    assert [d.path for d in guides] == ["docs/tutorial.md"] and [d.path for d in modules] == ["xrkit/tutorials.py"]
    assert fuzzy_score("apgd", "docs/api_guide.md") is not None
    assert fuzzy_score("zzz", "docs/api_guide.md") is None


def test_last_doc_is_remembered(tmp_path: Path) -> None:
    assert last_doc(tmp_path / "idx") is None
    remember_doc(tmp_path / "idx", "docs/tutorial.md")
    assert last_doc(tmp_path / "idx") == "docs/tutorial.md"
    (tmp_path / "idx" / "app-state.json").write_text("{not json")
    assert last_doc(tmp_path / "idx") is None


def test_doc_flag_errors(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "guide.md").write_text("# Guide\n\nText.\n")
    (root / "docs" / "secret.md").write_text("# Secret\n")
    (root / ".gitignore").write_text("docs/secret.md\n")
    (root / "data.bin").write_bytes(b"\0")
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    assert check_doc(root, "docs/guide.md", tmp_path / "idx") == "docs/guide.md"
    assert check_doc(root, str(root / "docs" / "guide.md"), tmp_path / "idx") == "docs/guide.md"
    for doc, why in [("docs/nope.md", "no such file"), ("/etc/passwd", "outside the project"),
                     ("../x.md", "outside the project"), ("docs/secret.md", "ignored"), ("data.bin", "not a doc")]:
        with pytest.raises(ProjectError, match=why):
            check_doc(root, doc, tmp_path / "idx")


def test_cells_are_text() -> None:
    row = hit_rows([_hit("p.py", 1, 0.1, 1, 1)])[0]
    assert all(isinstance(c, Text) for c in cells(row, plan([row], 80)))


async def test_own_doc_chip_and_picker_and_remembered_doc(tiny_project: Path, tmp_path: Path) -> None:
    from caas_tui.tui.app import CaasApp
    from caas_tui.tui.screens.docpicker import DocPicker
    from caas_tui.tui.screens.main import MainScreen
    from caas_tui.tui.testing import settle
    from caas_tui.tui.widgets.evidence import HitTable
    from caas_tui.tui.widgets.lists import ClaimList
    from caas_tui.tui.widgets.query import OWN_DOC, FilterBar

    (tiny_project / "docs" / "intro.md").write_text(
        "# Intro\n\nThe World keeps every body until remove_body runs.\n\n"
        "## Removing bodies\n\nWorld.remove_body queues a body: the world removes it at the end of the step.\n")
    app = CaasApp(tiny_project, index_dir=tmp_path / "index", initial_doc="docs/intro.md")
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen) and screen.doc is not None and screen.doc.path == "docs/intro.md"
        claims = screen.query_one(ClaimList)
        claims.select_claim(next(c.id for c in claims.claims if c.start_line == 3))
        await settle(pilot)

        def intro_lines() -> set[int]:
            return {h.chunk.start_line for h in screen.query_one(HitTable).hits if h.chunk.path == "docs/intro.md"}

        assert intro_lines() == set()  # the claim's section and its sub-section are no evidence by default
        screen.query_one(FilterBar).toggle_kind(OWN_DOC)
        await settle(pilot)
        assert intro_lines() and all(line > 3 for line in intro_lines())  # back, but never the claim's own lines
        claims.focus()
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, DocPicker)
        await pilot.press(*"world")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen) and screen.doc is not None and screen.doc.path == "pkg/world.py"
    assert last_doc(tmp_path / "index") == "pkg/world.py"
    app = CaasApp(tiny_project, index_dir=tmp_path / "index")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.screen.doc is not None and app.screen.doc.path == "pkg/world.py"  # type: ignore[attr-defined]


async def test_picker_pads_counts_to_its_width_when_they_arrive_before_layout(
        tiny_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Counts that are ready before the list has a width must not be padded to a made-up one."""
    from caas_tui.tui.app import CaasApp
    from caas_tui.tui.screens.docpicker import DocCounts, DocPicker
    from caas_tui.tui.testing import settle
    from caas_tui.tui.widgets.lists import ClaimList

    def at_once(self: DocPicker) -> None:
        self._counted({d.path: DocCounts(2, 1, 0) for d in self.docs})

    monkeypatch.setattr(DocPicker, "count_all", at_once)
    app = CaasApp(tiny_project, index_dir=tmp_path / "index", initial_doc="docs/guide.md")
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        app.screen.query_one(ClaimList).focus()
        await pilot.press("d")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, DocPicker) and picker.shows_counts
        region = picker.options.scrollable_content_region.width
        assert region > 60 and picker.filled_width == region - 1
