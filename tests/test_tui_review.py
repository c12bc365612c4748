"""The review app: reviewing, decisions (accept/reject/edit/undo), persistence, export."""

from __future__ import annotations

import io
import shutil
import subprocess
import threading
from pathlib import Path

import pytest
from rich.console import Console, RenderableType
from textual.widgets import Static, TextArea

from caas_tui.tui.app import CaasApp
from caas_tui.tui.screens.export import ExportScreen
from caas_tui.tui.screens.main import MainScreen
from caas_tui.tui.screens.modals import ConfirmScreen, EditFixScreen, PathScreen
from caas_tui.tui.testing import settle
from caas_tui.tui.widgets.lists import ClaimList
from caas_tui.tui.widgets.panes import DocView, ScrollPane

from .conftest import write

GUIDE = "docs/guide.md"


def make_app(project: Path, tmp_path: Path) -> CaasApp:
    return CaasApp(project, index_dir=tmp_path / "index", initial_doc=GUIDE)


def main_screen(app: CaasApp) -> MainScreen:
    screen = app.screen
    assert isinstance(screen, MainScreen)
    return screen


async def select_claim(pilot, needle: str) -> None:  # type: ignore[no-untyped-def]
    screen = main_screen(pilot.app)
    claims = screen.query_one(ClaimList)
    claim = next(c for c in claims.claims if needle in c.text)
    claims.focus()
    claims.select_claim(claim.id)
    await settle(pilot)
    assert screen.current_claim is not None and screen.current_claim.id == claim.id


def plain_text(renderable: RenderableType) -> str:
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def state_of(app: CaasApp, needle: str):  # type: ignore[no-untyped-def]
    screen = main_screen(app)
    claim = next(c for c in screen.claims if needle in c.text)
    return screen.states.get(claim.id)


async def test_review_then_accept_reject_edit_undo(tiny_project: Path, tmp_path: Path) -> None:
    app = make_app(tiny_project, tmp_path)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await settle(pilot)
        await select_claim(pilot, "remove_body")
        await pilot.press("c")
        await settle(pilot)
        state = state_of(app, "remove_body")
        assert state is not None and state.verdict is not None and state.verdict.reviewer == "static"

        await pilot.press("a")
        await settle(pilot)
        assert state_of(app, "remove_body").decision == "accepted"
        await pilot.press("r")
        await settle(pilot)
        assert state_of(app, "remove_body").decision == "rejected"

        await pilot.press("e")
        await settle(pilot)
        assert isinstance(app.screen, EditFixScreen)
        area = app.screen.query_one(TextArea)
        area.text = "Call `World.remove_body` to queue a body for removal at the end of the step."
        await pilot.press("ctrl+s")
        await settle(pilot)
        edited = state_of(app, "remove_body")
        assert edited.decision == "edited" and "end of the step" in (edited.replacement or "")

        await pilot.press("u")
        await settle(pilot)
        assert state_of(app, "remove_body").decision == "rejected"
        await pilot.press("u")
        await settle(pilot)
        assert state_of(app, "remove_body").decision == "accepted"


async def test_reopen_keeps_decisions(tiny_project: Path, tmp_path: Path) -> None:
    app = make_app(tiny_project, tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await select_claim(pilot, "remove_body")
        await pilot.press("C")  # the whole doc
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        reviewed = sum(1 for s in main_screen(app).states.values() if s.verdict is not None)
        assert reviewed == len(main_screen(app).claims)
    # A new app on the same project and index: the verdicts and the decision are there.
    again = make_app(tiny_project, tmp_path)
    async with again.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        state = state_of(again, "remove_body")
        assert state is not None and state.decision == "rejected" and state.verdict is not None


async def edit_fix_and_export(pilot, app: CaasApp, text: str) -> None:  # type: ignore[no-untyped-def]
    """Review the remove_body claim, replace its fix with ``text``, open the export screen."""
    await settle(pilot)
    await select_claim(pilot, "remove_body")
    await pilot.press("c")
    await settle(pilot)
    await pilot.press("e")
    await settle(pilot)
    app.screen.query_one(TextArea).text = text
    await pilot.press("ctrl+s")
    await settle(pilot)
    await pilot.press("p")
    await settle(pilot)


async def test_export_writes_a_patch_git_applies(tiny_project: Path, tmp_path: Path) -> None:
    app = make_app(tiny_project, tmp_path)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await edit_fix_and_export(pilot, app, "Call `World.remove_body` to remove a body at the end of the step.")
        assert isinstance(app.screen, ExportScreen)
        patch = app.screen.patch
        assert "+Call `World.remove_body` to remove a body at the end of the step." in patch
        assert "-Call `World.remove_body` to delete a body immediately." in patch
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(app.screen, PathScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ExportScreen)
    # issue 15: the default is <index dir>/exports/caas-fixes-<timestamp>.patch, not the project root
    (written,) = (tmp_path / "index" / "exports").glob("caas-fixes-*.patch")
    assert written.read_text(encoding="utf-8") == patch
    git_apply_check(tiny_project, written, tmp_path / "repo")


def git_apply_check(project: Path, patch: Path, repo: Path) -> None:
    """``git apply --check`` of ``patch`` on a pristine copy of ``project`` in a fresh git repo."""
    if shutil.which("git") is None:
        pytest.skip("git not installed")
    shutil.copytree(project, repo, ignore=shutil.ignore_patterns("caas-fixes.patch"))
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    check = subprocess.run(["git", "apply", "--check", str(patch)], cwd=repo, capture_output=True, text=True,
                           check=False)
    assert check.returncode == 0, check.stderr


async def test_apply_asks_first_then_changes_the_doc(tiny_project: Path, tmp_path: Path) -> None:
    app = make_app(tiny_project, tmp_path)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await edit_fix_and_export(pilot, app, "Call `World.remove_body` to defer a removal.")
        await pilot.press("A")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await settle(pilot)
        assert "delete a body immediately" in (tiny_project / GUIDE).read_text(encoding="utf-8")
        await pilot.press("A")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert "to defer a removal." in (tiny_project / GUIDE).read_text(encoding="utf-8")


async def test_review_runs_in_a_worker_and_can_be_cancelled(tiny_project: Path, tmp_path: Path) -> None:
    app = make_app(tiny_project, tmp_path)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await settle(pilot)
        port = app.session.need_port()
        release = threading.Event()
        original = port.review
        seen_cancel: list[bool] = []

        def slow_review(claims, reviewer, *, progress, on_usage, cancel):  # type: ignore[no-untyped-def]
            release.wait(10)
            seen_cancel.append(cancel.is_set())
            return original(claims[:1], reviewer, progress=progress, on_usage=on_usage, cancel=cancel)

        port.review = slow_review  # type: ignore[method-assign]
        claims = main_screen(app).query_one(ClaimList)
        claims.focus()
        claims.highlighted = 0
        await pilot.press("C")
        await pilot.pause(0.2)
        # The review is blocked in its thread, yet keys still move the panes.
        await pilot.press("j")
        await pilot.pause(0.1)
        assert claims.highlighted == 1
        await pilot.press("escape")  # cancel
        release.set()
        await settle(pilot)
        assert seen_cancel == [True]
        messages = " ".join(n.message for n in app._notifications)
        assert "cancelled" in messages


async def test_claude_without_key_falls_back_to_static(
    tiny_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    app = make_app(tiny_project, tmp_path)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await settle(pilot)
        main_screen(app).query_one(ClaimList).focus()
        await pilot.press("ctrl+r")
        await settle(pilot)
        messages = [n.message for n in app._notifications]
        assert any("ANTHROPIC_API_KEY is not set" in m for m in messages)
        states = main_screen(app).states.values()
        assert states and all(s.verdict is not None and s.verdict.reviewer == "static" for s in states)


async def test_doc_text_is_never_markup(tiny_project: Path, tmp_path: Path) -> None:
    write(tiny_project, "docs/markup.md", "# Markup\n\nThe [bold]World[/bold] class has [red]no[/] colour.\n")
    app = CaasApp(tiny_project, index_dir=tmp_path / "index", initial_doc="docs/markup.md")
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        view = main_screen(app).query_one(DocView)
        plain = "\n".join(strip.text for strip in view._rows)
        assert "The [bold]World[/bold] class has" in plain and "[red]no[/] colour." in plain
        claims = main_screen(app).query_one(ClaimList)
        assert any("[bold]" in c.text for c in claims.claims)


class _ToolUse:
    type = "tool_use"

    def __init__(self, name: str, payload: dict) -> None:
        self.id, self.name, self.input = "toolu_1", name, payload

    def to_dict(self) -> dict:
        return {"type": "tool_use", "id": self.id, "name": self.name, "input": self.input}


class _Usage:
    input_tokens, output_tokens = 1200, 300
    cache_creation_input_tokens = cache_read_input_tokens = 0


class _Response:
    stop_reason = "tool_use"

    def __init__(self, content: list) -> None:
        self.content, self.usage = content, _Usage()


class FakeClaude:
    """Answers every claim at once with a contradicted verdict whose text looks like markup."""

    def __init__(self) -> None:
        self.messages = self
        self.calls = 0

    def with_options(self, **_: object) -> FakeClaude:
        return self

    def create(self, **params: object) -> _Response:
        self.calls += 1
        answer = {"verdict": "contradicted", "rationale": "Removal is [bold]deferred[/bold] by the scheduler.",
                  "evidence": [{"path": "pkg/world.py", "start_line": 18, "end_line": 20}], "fix": None}
        return _Response([_ToolUse("submit_verdict", answer)])


async def test_claude_review_reports_progress_and_cost(
    tiny_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from caas_tui.review.claude import ClaudeReviewer
    from caas_tui.tui.widgets.status import StatusLine

    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key-not-real")
    fake = FakeClaude()
    monkeypatch.setattr(ClaudeReviewer, "from_env", classmethod(lambda cls, cfg, **kw: cls(fake, **kw)))
    app = make_app(tiny_project, tmp_path)
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await settle(pilot)
        main_screen(app).query_one(ClaimList).focus()
        await pilot.press("ctrl+r")
        await settle(pilot)
        screen = main_screen(app)
        assert fake.calls == len(screen.claims)
        state = state_of(app, "remove_body")
        assert state.verdict.reviewer == "claude" and "[bold]deferred[/bold]" in state.verdict.rationale
        status = str(screen.query_one(StatusLine).query_one("#status-msg", Static).content)
        assert "with Claude" in status and "~$" in status
        await select_claim(pilot, "remove_body")
        verdict_text = plain_text(screen.query_one("#verdict", ScrollPane).renderable)
        assert "[bold]deferred[/bold]" in verdict_text  # shown as text, not parsed as markup
