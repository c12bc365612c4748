"""The review app stays live: saves reach search, the docs list and the verdict colours,
stale verdicts can be re-reviewed, and quitting stops the watcher cleanly.

Every wait polls with a deadline (the watcher batches saves within ~0.1 s; the deadline
is generous for two busy cores), never a fixed sleep.
"""

from __future__ import annotations

import asyncio
import json
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, TextArea
from textual.worker import WorkerState

from caas_tui.cli.main import main as cli_main
from caas_tui.index.refresh import RefreshStats
from caas_tui.live import RefreshEvent
from caas_tui.tui.app import CaasApp
from caas_tui.tui.render import VERDICT_FG
from caas_tui.tui.screens.main import MainScreen
from caas_tui.tui.testing import settle
from caas_tui.tui.widgets.evidence import HitTable
from caas_tui.tui.widgets.lists import ClaimList, DocList
from caas_tui.tui.widgets.panes import DocView

GUIDE = "docs/guide.md"
DEADLINE_S = 8.0
OLD_LINE = "Call `World.remove_body` to delete a body immediately."
NEW_LINE = "Call `World.remove_body` to delete a body right away."


def make_app(project: Path, tmp_path: Path) -> CaasApp:
    return CaasApp(project, index_dir=tmp_path / "index", initial_doc=GUIDE)


def main_screen(app: CaasApp) -> MainScreen:
    screen = app.screen
    assert isinstance(screen, MainScreen)
    return screen


async def until(pilot: Pilot, check: Callable[[], object], what: str, timeout: float = DEADLINE_S) -> float:
    """Poll ``check`` until it holds; returns the seconds it took."""
    start = time.monotonic()
    while not check():
        if time.monotonic() - start > timeout:
            notes = [n.message for n in pilot.app._notifications]
            raise AssertionError(f"timed out waiting for: {what}; notifications: {notes}")
        await pilot.pause(0.05)
    return time.monotonic() - start


async def watching(pilot: Pilot) -> MainScreen:
    """The project is open and the watcher has caught up (settle waits for both)."""
    await settle(pilot)
    screen = main_screen(pilot.app)  # type: ignore[arg-type]
    assert screen.watch_ready
    return screen


def claim_state(screen: MainScreen, needle: str):  # type: ignore[no-untyped-def]
    claim = next((c for c in screen.claims if needle in c.text), None)
    return None if claim is None else screen.states.get(claim.id)


async def test_edit_to_code_reaches_the_running_search(tiny_project: Path, tmp_path: Path) -> None:
    app = make_app(tiny_project, tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await watching(pilot)
        await pilot.press("ctrl+f")
        screen.query_one("#query", Input).value = "zorblewax_quux"
        await settle(pilot)
        table = screen.query_one(HitTable)
        assert not any("zorblewax_quux" in h.chunk.text for h in table.hits)

        world = tiny_project / "pkg/world.py"
        world.write_text(world.read_text() + "\n\ndef zorblewax_quux() -> int:\n    return 42\n")
        took = await until(pilot, lambda: any("zorblewax_quux" in h.chunk.text for h in table.hits),
                           "the new function among the hits")
        assert took < DEADLINE_S
        assert screen.query_one("#query", Input).value == "zorblewax_quux"  # the writer's query is kept


async def test_edited_claim_turns_stale_and_rereview_refreshes_it(
    tiny_project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    app = make_app(tiny_project, tmp_path)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        screen = await watching(pilot)
        claims = screen.query_one(ClaimList)
        claims.focus()
        await pilot.press("C")  # review the whole doc
        await settle(pilot)
        reviewed = {c.id for c in screen.claims if screen.states.get(c.id) and screen.states[c.id].verdict}
        assert len(reviewed) == len(screen.claims) > 1
        assert screen.check_action("rereview_stale", ()) is False  # nothing stale: not offered

        old_id = next(c.id for c in screen.claims if c.text == OLD_LINE)
        guide = tiny_project / GUIDE
        guide.write_text(guide.read_text().replace(OLD_LINE, NEW_LINE))
        await until(pilot, lambda: (s := claim_state(screen, "right away")) is not None and s.stale,
                    "the edited claim shown stale")
        edited = next(c for c in claims.claims if "right away" in c.text)
        prompt = claims.get_option(edited.id).prompt
        assert any(VERDICT_FG["stale"] in str(span.style) for span in prompt.spans)  # type: ignore[union-attr]
        others = [c.id for c in screen.claims if c.id != edited.id]
        assert all(not screen.states[cid].stale for cid in others)
        await until(pilot, lambda: any("R re-reviews" in n.message for n in app._notifications),
                    "the offer to re-review")
        assert screen.check_action("rereview_stale", ()) is True
        assert "R" in {b.binding.key for b in screen.active_bindings.values()}

        await pilot.press("R")
        await until(pilot, lambda: (s := claim_state(screen, "right away")) is not None and not s.stale
                    and s.verdict is not None, "the re-reviewed claim fresh again")
        await settle(pilot)
        state = claim_state(screen, "right away")
        assert state.verdict.reviewer == "static" and state.verdict.verdict != "stale"
        # Only the stale claim was re-reviewed: the others kept their verdicts.
        assert all(screen.states[cid].verdict is not None for cid in others)
        assert screen.check_action("rereview_stale", ()) is False
        # The verdict on the claim's old text was replaced: nothing keeps counting it as stale.
        port = screen.session.need_port()
        stored = await screen.session.store_call(port.store.all, GUIDE)
        assert old_id not in {sv.claim.id for sv in stored}
        assert not [sv.key for sv in stored if sv.verdict.verdict == "stale"]
    code = cli_main(["status", "--root", str(tiny_project), "--index-dir", str(tmp_path / "index"), "--json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["stale_verdicts"] == []


async def test_line_inserted_above_a_reviewed_claim_keeps_it_fresh_and_moves_its_highlight(
    tiny_project: Path, tmp_path: Path
) -> None:
    app = make_app(tiny_project, tmp_path)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        screen = await watching(pilot)
        claims = screen.query_one(ClaimList)
        claims.focus()
        await pilot.press("C")  # review the whole doc
        await settle(pilot)
        claim = next(c for c in screen.claims if c.text == OLD_LINE)
        claims.select_claim(claim.id)
        await settle(pilot)
        await pilot.press("e")  # an edited fix, to export after the move
        await settle(pilot)
        app.screen.query_one(TextArea).text = NEW_LINE
        await pilot.press("ctrl+s")
        await settle(pilot)
        label = screen.states[claim.id].label
        assert label != "stale" and screen.states[claim.id].decision == "edited"

        guide = tiny_project / GUIDE
        guide.write_text(guide.read_text().replace(OLD_LINE, "Bodies live in a world.\n\n" + OLD_LINE))
        new_line = claim.start_line + 2
        await until(pilot, lambda: (c := screen.current_claim) is not None and c.start_line == new_line,
                    "the claim shown on its new line")
        await settle(pilot)
        assert screen.current_claim.id == claim.id
        state = screen.states[claim.id]
        assert not state.stale and state.label == label and state.decision == "edited"
        pairs = screen.query_one(DocView)._pairs  # (gutter, line) per doc line
        gutter = pairs[new_line - 1][0]
        assert OLD_LINE in pairs[new_line - 1][1].plain
        assert "▌" in gutter.plain and any(VERDICT_FG[label] in str(span.style) for span in gutter.spans)
        assert "▌" not in pairs[claim.start_line - 1][0].plain  # the highlight left the old line
        assert screen.check_action("rereview_stale", ()) is False
        assert not any("stale" in n.message for n in app._notifications)
        # The store moved the verdict with its claim: the app's export writes the right line.
        port = screen.session.need_port()
        stored = {sv.claim.id: sv for sv in await screen.session.store_call(port.store.all, GUIDE)}
        assert stored[claim.id].claim.start_line == new_line and stored[claim.id].verdict.verdict == label
        diff, refused = await screen.session.store_call(port.patch)
        assert refused == []
        assert f"-{OLD_LINE}\n+{NEW_LINE}\n" in diff and f"@@ -{new_line - 3}," in diff


async def test_docs_list_follows_new_and_removed_docs(tiny_project: Path, tmp_path: Path) -> None:
    app = make_app(tiny_project, tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await watching(pilot)
        docs = screen.query_one(DocList)
        (tiny_project / "docs/howto.md").write_text("# How to\n\nCall `World.add_body` to add a body.\n")
        await until(pilot, lambda: "docs/howto.md" in [d.path for d in docs.docs], "the new doc listed")
        await settle(pilot)
        assert screen.doc is not None and screen.doc.path == GUIDE  # the open doc stays open
        docs.select_path("docs/howto.md")
        await until(pilot, lambda: screen.doc is not None and screen.doc.path == "docs/howto.md", "the new doc open")
        assert any("add_body" in c.text for c in screen.claims)

        (tiny_project / "docs/howto.md").unlink()  # the open doc goes: the list moves on to the first doc
        await until(pilot, lambda: "docs/howto.md" not in [d.path for d in docs.docs], "the removed doc unlisted")
        await until(pilot, lambda: screen.doc is not None and screen.doc.path == GUIDE, "the first doc open")


async def test_stale_on_open_is_shown_and_offered(tiny_project: Path, tmp_path: Path) -> None:
    app = make_app(tiny_project, tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await watching(pilot)
        main_screen(app).query_one(ClaimList).focus()
        await pilot.press("C")
        await settle(pilot)
    guide = tiny_project / GUIDE  # edited while the app is closed
    guide.write_text(guide.read_text().replace(OLD_LINE, NEW_LINE))
    again = make_app(tiny_project, tmp_path)
    async with again.run_test(size=(120, 36), notifications=True) as pilot:
        screen = await watching(pilot)
        state = claim_state(screen, "right away")
        assert state is not None and state.stale
        assert any("1 stale verdict" in n.message for n in again._notifications)
        assert screen.check_action("rereview_stale", ()) is True


async def test_refresh_errors_are_one_line_warnings(tiny_project: Path, tmp_path: Path) -> None:
    app = make_app(tiny_project, tmp_path)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        screen = await watching(pilot)
        event = RefreshEvent((), RefreshStats(), error="refresh failed: disk full\nTraceback (most recent call last): ...")
        await screen.on_refresh(event)
        await until(pilot, lambda: list(app._notifications), "a notification")
        await settle(pilot)
        warning = [n for n in app._notifications if n.severity == "warning"]
        assert len(warning) == 1 and "\n" not in warning[0].message and "disk full" in warning[0].message
        assert screen.doc is not None and screen.doc.path == GUIDE  # nothing else moved


async def test_quitting_stops_the_watcher(tiny_project: Path, tmp_path: Path) -> None:
    app = make_app(tiny_project, tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        async with app.run_test(size=(120, 36)) as pilot:
            screen = await watching(pilot)
            worker = next(w for w in app.workers if w.group == "watch")
            # A save just before quitting: its refresh may be in flight while the app closes.
            world = tiny_project / "pkg/world.py"
            world.write_text(world.read_text() + "\n\ndef last_minute() -> None:\n    pass\n")
            await pilot.pause(0.15)
        assert worker.state == WorkerState.SUCCESS  # stopped by its flag, not cancelled mid-refresh
        assert not screen.watch_ready
        await asyncio.sleep(0)
        leftover = [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()]
        assert leftover == []
    assert [str(w.message) for w in caught] == []
