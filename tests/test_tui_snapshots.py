"""Snapshot tests of the review app (pytest-textual-snapshot; SVGs in tests/__snapshots__/).

Sync tests (snap_compare runs its own event loop). Each run builds a fresh index of a
small project in tmp_path; the screen shows no paths outside the project, no clock and
no timings, so the pictures are stable. Update with ``--snapshot-update`` after a
deliberate UI change, and look at the report before committing.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from caas_tui.tui.app import CaasApp
from caas_tui.tui.screens.docpicker import DocPicker
from caas_tui.tui.screens.main import MainScreen
from caas_tui.tui.testing import no_blink, settle
from caas_tui.tui.widgets.evidence import HitTable
from caas_tui.tui.widgets.lists import ClaimList

WIDE = (120, 36)
SMALL = (80, 24)


def app_for(project: Path, tmp_path: Path) -> CaasApp:
    return CaasApp(project, index_dir=tmp_path / "index", initial_doc="docs/guide.md")


async def _ready(pilot: Pilot) -> MainScreen:
    await settle(pilot)
    no_blink(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, MainScreen)
    screen.query_one(ClaimList).focus()
    return screen


async def _select(pilot: Pilot, screen: MainScreen, needle: str) -> None:
    claims = screen.query_one(ClaimList)
    claims.select_claim(next(c.id for c in claims.claims if needle in c.text))
    await settle(pilot)


async def _picker_open(pilot: Pilot, timeout: float = 30.0) -> None:
    """Wait until the picker is on screen with its counts, so its input's cursor is stopped too."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        screen = pilot.app.screen
        if isinstance(screen, DocPicker) and screen.shows_counts and screen.query_one(Input).has_focus:
            return
        await pilot.pause(0.05)
    raise TimeoutError("the doc picker did not open")


async def _quiet(pilot: Pilot) -> None:
    await settle(pilot)
    pilot.app.clear_notifications()
    no_blink(pilot)
    await pilot.pause(0.1)


def test_triage_after_static_review(snap_compare, tiny_project: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot) -> None:
        screen = await _ready(pilot)
        await pilot.press("C")
        await settle(pilot)
        await _select(pilot, screen, "remove_body")
        await _quiet(pilot)

    assert snap_compare(app_for(tiny_project, tmp_path), terminal_size=WIDE, run_before=run_before)


def test_small_terminal(snap_compare, tiny_project: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot) -> None:
        screen = await _ready(pilot)
        await _select(pilot, screen, "remove_body")
        await _quiet(pilot)

    assert snap_compare(app_for(tiny_project, tmp_path), terminal_size=SMALL, run_before=run_before)


def test_help_screen(snap_compare, tiny_project: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot) -> None:
        await _ready(pilot)
        await pilot.press("f1")
        await _quiet(pilot)

    assert snap_compare(app_for(tiny_project, tmp_path), terminal_size=SMALL, run_before=run_before)


def test_export_after_edit(snap_compare, tiny_project: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot) -> None:
        screen = await _ready(pilot)
        await _select(pilot, screen, "remove_body")
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        pilot.app.screen.query_one("#fix-text").text = "Call `World.remove_body` to remove a body at the end of the step."  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await settle(pilot)
        await pilot.press("p")
        await _quiet(pilot)

    assert snap_compare(app_for(tiny_project, tmp_path), terminal_size=WIDE, run_before=run_before)


def test_chain_from_hit(snap_compare, tiny_project: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot) -> None:
        screen = await _ready(pilot)
        await pilot.press("ctrl+f")
        screen.query_one("#query", Input).value = "remove_body"
        await settle(pilot)
        screen.query_one(HitTable).focus()
        await pilot.press("x")
        await settle(pilot)
        await pilot.press("down")
        await _quiet(pilot)

    assert snap_compare(app_for(tiny_project, tmp_path), terminal_size=WIDE, run_before=run_before)


# -- issue 15: the triage screen, the doc picker and the legend, at 80x24 and 160x45 ---------
BIG = (160, 45)
SIZES = {"80x24": SMALL, "160x45": BIG}


def _size(name: str) -> tuple[int, int]:
    return SIZES[name]


@pytest.mark.parametrize("size", list(SIZES))
def test_triage_glyphs(snap_compare, tiny_project: Path, tmp_path: Path, size: str) -> None:  # type: ignore[no-untyped-def]
    """Verdicts as glyphs and words beside the colour; evidence columns that fit the width."""
    async def run_before(pilot: Pilot) -> None:
        screen = await _ready(pilot)
        await pilot.press("C")
        await settle(pilot)
        await _select(pilot, screen, "remove_body")
        await _quiet(pilot)

    assert snap_compare(app_for(tiny_project, tmp_path), terminal_size=_size(size), run_before=run_before)


@pytest.mark.parametrize("size", list(SIZES))
def test_doc_picker(snap_compare, tiny_project: Path, tmp_path: Path, size: str) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot) -> None:
        await _ready(pilot)
        await pilot.press("C")
        await settle(pilot)
        await pilot.press("d")
        await _picker_open(pilot)
        await _quiet(pilot)

    assert snap_compare(app_for(tiny_project, tmp_path), terminal_size=_size(size), run_before=run_before)


@pytest.mark.parametrize("size", list(SIZES))
def test_evidence_legend(snap_compare, tiny_project: Path, tmp_path: Path, size: str) -> None:  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot) -> None:
        screen = await _ready(pilot)
        screen.query_one(HitTable).focus()
        await pilot.press("question_mark")
        await _quiet(pilot)

    assert snap_compare(app_for(tiny_project, tmp_path), terminal_size=_size(size), run_before=run_before)
