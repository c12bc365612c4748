"""The review app: live search, filters, keys typed into the query box, chain, help."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Tree

from caas_tui.tui.app import CaasApp
from caas_tui.tui.screens.chain import ChainScreen
from caas_tui.tui.screens.help import HelpScreen
from caas_tui.tui.screens.main import MainScreen
from caas_tui.tui.testing import settle
from caas_tui.tui.widgets.evidence import HitPreview, HitTable
from caas_tui.tui.widgets.lists import ClaimList, DocList
from caas_tui.tui.widgets.query import FilterBar


def make_app(project: Path, tmp_path: Path, **kwargs: object) -> CaasApp:
    return CaasApp(project, index_dir=tmp_path / "index", **kwargs)  # type: ignore[arg-type]


async def test_opens_builds_index_and_lists_docs(tiny_project: Path, tmp_path: Path) -> None:
    app = make_app(tiny_project, tmp_path)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await settle(pilot)
        docs = [d.path for d in app.screen.query_one(DocList).docs]
        assert docs[0] == "docs/guide.md"
        assert "pkg/world.py" in docs  # Python modules are listed for their docstrings
        assert not (tiny_project / ".caas").exists()  # the index went to --index-dir
        claims = app.screen.query_one(ClaimList)
        assert any("remove_body" in c.text for c in claims.claims)


async def test_search_as_you_type_and_mode_toggle(tiny_project: Path, tmp_path: Path) -> None:
    app = make_app(tiny_project, tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+f")
        box = app.screen.query_one("#query", Input)
        assert app.focused is box
        box.value = ""
        await pilot.press(*"remove_body")
        table = app.screen.query_one(HitTable)
        await settle(pilot)  # the debounce has run, then the search
        assert table.hits and table.hits[0].chunk.symbol == "pkg.world.World.remove_body"
        assert table.hits[0].bm25_rank is not None and table.hits[0].dense_rank is not None
        preview = app.screen.query_one(HitPreview)
        assert preview.border_subtitle == f"pkg/world.py:{table.hits[0].chunk.start_line}"

        await pilot.press("f2")  # hybrid -> bm25
        await settle(pilot)
        assert app.screen.query_one(FilterBar).mode == "bm25"
        assert all(h.dense_rank is None for h in table.hits)
        await pilot.press("f2")  # -> dense
        await settle(pilot)
        assert all(h.bm25_rank is None for h in table.hits)


async def test_debounce_cancels_stale_searches(tiny_project: Path, tmp_path: Path) -> None:
    app = make_app(tiny_project, tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        calls: list[str] = []
        original = app.session.search

        def counting(query: str, **kw: object) -> list:
            calls.append(query)
            return original(query, **kw)  # type: ignore[arg-type]

        app.session.search = counting  # type: ignore[method-assign]
        await pilot.press("ctrl+f")
        screen.query_one("#query", Input).value = ""
        await pilot.press(*"scheduler")
        await settle(pilot)
        assert calls[-1] == "scheduler"
        assert len(calls) <= 2  # typed faster than the debounce: one search (plus the clearing)


async def test_kind_filter(tiny_project: Path, tmp_path: Path) -> None:
    app = make_app(tiny_project, tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        bar = app.screen.query_one(FilterBar)
        bar.focus()
        await pilot.press("right", "right", "right", "right")  # -> the "test" chip
        await pilot.press("enter")  # only tests
        await settle(pilot)
        assert bar.kind_filter == ("test",)
        await pilot.press("ctrl+f")
        app.screen.query_one("#query", Input).value = "world body"
        await settle(pilot)
        hits = app.screen.query_one(HitTable).hits
        assert hits and {h.chunk.kind for h in hits} == {"test"}


async def test_letter_keys_in_query_box_are_text(tiny_project: Path, tmp_path: Path) -> None:
    app = make_app(tiny_project, tmp_path)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await settle(pilot)
        screen = app.screen
        fired: list[str] = []
        for name in ("accept", "reject", "edit", "undo", "review_claim", "review_doc", "chain", "export",
                     "open_editor", "move_claim", "focus_docs"):
            setattr(screen, f"action_{name}", lambda *a, _n=name: fired.append(_n))
        claims = screen.query_one(ClaimList)
        before = claims.highlighted
        await pilot.press("ctrl+f")
        box = screen.query_one("#query", Input)
        box.value = ""
        await pilot.press(*"arecuxpojkdC?")
        await settle(pilot)
        assert box.value == "arecuxpojkdC?"
        assert fired == []
        assert claims.highlighted == before
        assert isinstance(app.screen, MainScreen)  # neither help (?) nor export (p) opened
        await pilot.press("escape")  # leave the box: now letters are commands again
        assert app.focused is claims
        await pilot.press("u")
        assert fired == ["undo"]


async def test_chain_from_hit_and_help(tiny_project: Path, tmp_path: Path) -> None:
    app = make_app(tiny_project, tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+f")
        app.screen.query_one("#query", Input).value = "remove_body"
        await settle(pilot)
        app.screen.query_one(HitTable).focus()
        await pilot.press("x")
        await settle(pilot)
        assert isinstance(app.screen, ChainScreen)
        tree = app.screen.query_one(Tree)
        labels = [str(n.label) for n in _walk(tree.root)]
        assert any("pkg.world.World.remove_body" in label for label in labels)
        assert "delegates to (1)" in labels  # remove_body only hands its work to Scheduler.defer
        assert any("Scheduler.defer" in label for label in labels)
        assert any("test_remove_is_deferred" in label for label in labels)
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)
        app.screen.query_one(ClaimList).focus()
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")


def _walk(node):  # type: ignore[no-untyped-def]
    for child in node.children:
        yield child
        yield from _walk(child)


async def test_editor_unset_is_a_clear_notification(
    tiny_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("EDITOR", raising=False)
    monkeypatch.delenv("VISUAL", raising=False)
    app = make_app(tiny_project, tmp_path)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await settle(pilot)
        app.screen.query_one(ClaimList).focus()
        await pilot.press("o")
        await pilot.pause(0.1)
        messages = [n.message for n in app._notifications]
        assert any("$EDITOR is not set" in m for m in messages)


async def test_missing_project_is_a_notification(tmp_path: Path) -> None:
    app = CaasApp(tmp_path / "nope", index_dir=tmp_path / "index")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        for _ in range(40):
            await pilot.pause(0.05)
            if app._notifications:
                break
        messages = [n.message for n in app._notifications]
        assert any("no such directory" in m for m in messages)


async def test_first_open_shows_index_progress(tiny_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from caas_tui.tui.widgets.status import StatusLine

    seen: list[str] = []
    original = StatusLine.message

    def record(self: StatusLine, text: object) -> None:
        seen.append(str(text))
        original(self, text)  # type: ignore[arg-type]

    monkeypatch.setattr(StatusLine, "message", record)
    app = make_app(tiny_project, tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
    assert any(m.startswith("Indexing proj:") for m in seen)
    assert seen[-1].startswith("proj: ") and "chunks" in seen[-1]


async def test_command_palette_switches_mode(tiny_project: Path, tmp_path: Path) -> None:
    app = make_app(tiny_project, tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+k")  # ctrl+p picks a doc since issue 15
        await pilot.pause(0.2)
        await pilot.press(*"mode dense")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert app.screen.query_one(FilterBar).mode == "dense"


def test_cli_missing_dir_is_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from caas_tui.cli.main import main

    assert main([str(tmp_path / "nope"), "--index-dir", str(tmp_path / "index")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("caas-tui: error:") and "no such directory" in err and "Traceback" not in err


def test_a_claim_is_no_evidence_for_itself() -> None:
    from caas_tui.models import Chunk, Hit
    from caas_tui.tui.widgets.evidence import without_own_lines

    def hit(path: str, start: int, end: int, rank: int) -> Hit:
        chunk = Chunk(id=f"{path}{start}", kind="doc", path=path, start_line=start, end_line=end,
                      symbol=None, text="", mtime=0.0, sha256="")
        return Hit(chunk=chunk, rank=rank, score=1.0 / rank)

    hits = [hit("docs/a.md", 1, 20, 1), hit("pkg/x.py", 3, 9, 2), hit("docs/a.md", 30, 40, 3)]
    kept = without_own_lines(hits, ("docs/a.md", 12, 14))
    assert [(h.chunk.path, h.chunk.start_line, h.rank) for h in kept] == [("pkg/x.py", 3, 1), ("docs/a.md", 30, 2)]
    assert without_own_lines(hits, None) == hits
