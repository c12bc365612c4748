"""issue 18 in the app: ``E`` runs the open doc's code (reviewer ``execute``) on sample_project's
quickstart, whose planted failures (FINDINGS.toml quickstart-*) only a run finds; and a
review's doc warnings reach the writer as a notification."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console, RenderableType

from caas_tui.models import Claim
from caas_tui.retrieve.evaluate import load_findings
from caas_tui.tui.app import CaasApp
from caas_tui.tui.render import verdict_view
from caas_tui.tui.screens.help import help_table
from caas_tui.tui.screens.main import MainScreen
from caas_tui.tui.state import ClaimState
from caas_tui.tui.testing import settle
from caas_tui.tui.widgets.lists import ClaimList
from caas_tui.tui.widgets.panes import DocView

from .conftest import SAMPLE, write

QUICKSTART = "docs/quickstart.md"


def text_of(renderable: RenderableType, width: int = 200) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


def main_screen(app: CaasApp) -> MainScreen:
    assert isinstance(app.screen, MainScreen)
    return app.screen


def claim_on(screen: MainScreen, line: int) -> tuple[Claim, ClaimState]:
    claim = next(c for c in screen.claims if c.start_line <= line <= c.end_line)
    return claim, screen.states[claim.id]


def pane_text(screen: MainScreen, claim: Claim) -> str:
    return text_of(verdict_view(claim, screen.states[claim.id], screen.query_one(DocView).lines))


async def test_run_code_key_finds_the_planted_quickstart_failures(tmp_path: Path) -> None:
    planted = {f.id: f for f in load_findings(SAMPLE / "FINDINGS.toml") if f.id.startswith("quickstart-")}
    assert set(planted) == {"quickstart-add-after-spawn", "quickstart-stale-normalized-output"}
    app = CaasApp(SAMPLE, index_dir=tmp_path / "index", initial_doc=QUICKSTART)
    async with app.run_test(size=(160, 45), notifications=True) as pilot:
        await settle(pilot, timeout=120)
        screen = main_screen(app)
        assert screen.doc is not None and screen.doc.path == QUICKSTART
        screen.query_one(ClaimList).focus()
        await pilot.press("C")  # the static verdicts first, so both reviewers have judged each block
        await settle(pilot, timeout=120)
        static_before = {cid: s.verdict for cid, s in screen.states.items()}
        assert all(v is not None and v.reviewer == "static" for v in static_before.values())
        await pilot.press("E")
        await settle(pilot, timeout=120)
        messages = " ".join(n.message for n in app._notifications)
        assert f"Ran the code of {QUICKSTART}: " in messages and "judged by the run" in messages

        for finding in planted.values():
            claim, state = claim_on(screen, finding.line)
            assert state.verdict is not None
            assert (state.verdict.reviewer, state.verdict.verdict) == ("execute", finding.verdict), finding.id
            # Both reviewers judged the block: the run decides, the static verdict is shown beside it.
            assert [v.reviewer for v in state.also] == ["static"]
            text = pane_text(screen, claim)
            assert text.index("by execute") < text.index("also: static: ")
            assert f"also: static: {state.also[0].verdict} — " in text
            assert "Ran: " in text  # the block's outcome, from execution_view
        add_claim, add_state = claim_on(screen, planted["quickstart-add-after-spawn"].line)
        assert add_state.verdict is not None and "SceneError" in add_state.verdict.rationale
        assert "xrkit/scene.py" in {e.path for e in add_state.verdict.evidence}
        assert "xrkit/scene.py" in pane_text(screen, add_claim)  # the project frames, openable evidence
        _, doctest_state = claim_on(screen, planted["quickstart-stale-normalized-output"].line)
        fix = doctest_state.fix
        assert fix is not None and "0.8" in fix.replacement and "0.75" not in fix.replacement

        # Static leaves a block's run unchecked (both verdicts are unverified): the run's
        # "ran without error" is shown with the static one beside it; prose is untouched.
        first, first_state = claim_on(screen, 11)
        assert first.kind == "code" and first_state.verdict is not None
        assert (first_state.verdict.reviewer, first_state.verdict.rationale) == ("execute", "ran without error")
        assert [v.reviewer for v in first_state.also] == ["static"]
        assert "what the code does when run was not" in first_state.also[0].rationale
        assert all(s.verdict is not None and s.verdict.reviewer == "static"
                   for c in screen.claims if c.kind != "code" for s in [screen.states[c.id]])

        # A later static review is newer, yet the real traceback still decides.
        await pilot.press("C")
        await settle(pilot, timeout=120)
        _, again = claim_on(screen, planted["quickstart-add-after-spawn"].line)
        assert again.verdict is not None and again.verdict.reviewer == "execute"
        assert [v.reviewer for v in again.also] == ["static"]


async def test_run_code_is_a_listed_key(tiny_project: Path, tmp_path: Path) -> None:
    assert "Run code" in text_of(help_table([]))
    app = CaasApp(tiny_project, index_dir=tmp_path / "index", initial_doc="docs/guide.md")
    async with app.run_test(size=(160, 45), notifications=True) as pilot:
        await settle(pilot)
        keys = {k.action for k in app.screen.query("FooterKey")}  # type: ignore[attr-defined]
        assert "run_code" in keys


async def test_review_warnings_are_notified(tiny_project: Path, tmp_path: Path) -> None:
    write(tiny_project, "docs/broken.md", """
        # Broken

        Call `World.add_body` to add a body.

        ```python
        from pkg.world import World
        World().add_body("crate", mass=2.0)
        """)
    app = CaasApp(tiny_project, index_dir=tmp_path / "index", initial_doc="docs/broken.md")
    async with app.run_test(size=(160, 45), notifications=True) as pilot:
        await settle(pilot)
        assert main_screen(app).doc is not None and main_screen(app).doc.path == "docs/broken.md"  # type: ignore[union-attr]
        main_screen(app).query_one(ClaimList).focus()
        await pilot.press("C")
        await settle(pilot)
        warned = [n for n in app._notifications if n.title == "Review warnings"]
        assert len(warned) == 1 and "docs/broken.md:" in warned[0].message and "never closed" in warned[0].message
        app._notifications.clear()
        await pilot.press("E")
        await settle(pilot, timeout=120)
        assert [n for n in app._notifications if n.title == "Review warnings"]
