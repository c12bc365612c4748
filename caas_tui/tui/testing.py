"""Helpers for driving the app headless: tests, snapshot tests and scripts/screenshots.py."""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input, TextArea
from textual.worker import WorkerState

_SKIP = shutil.ignore_patterns(".caas", "__pycache__", "*.pyc", ".pytest_cache", "caas-fixes.patch")


def copy_project(src: Path, dest_parent: Path, name: str | None = None) -> Path:
    """Copy a project (without any index or caches) to ``dest_parent/name``."""
    dest = dest_parent / (name or src.name)
    shutil.copytree(src, dest, ignore=_SKIP)
    return dest


def busy(app: App[object]) -> bool:
    """A worker is pending or running; the project watcher counts only until it is ready
    (it runs for the app's lifetime, and while it starts up it may still refresh)."""
    for w in app.workers:
        if w.state not in (WorkerState.PENDING, WorkerState.RUNNING):
            continue
        if w.group == "watch" and getattr(w.node, "watch_ready", False):
            continue
        return True
    return False


async def settle(pilot: Pilot, timeout: float = 60.0) -> None:
    """Wait until the project is open and no worker is pending or running (twice in a row)."""
    app = pilot.app
    deadline = time.monotonic() + timeout
    quiet = 0
    while time.monotonic() < deadline:
        await pilot.pause(0.05)
        ready = app.session.ready  # type: ignore[attr-defined]
        quiet = quiet + 1 if ready and not busy(app) else 0
        if quiet >= 3:
            await pilot.wait_for_scheduled_animations()
            return
    raise TimeoutError("the app did not settle")


def no_blink(pilot: Pilot) -> None:
    """Stop cursors blinking, so screenshots don't depend on when they are taken."""
    # ``app.query`` searches only the app's default screen; the main screen and modals such as
    # the doc picker are pushed above it.
    inputs = [w for screen in pilot.app.screen_stack for w in screen.query(Input)]
    areas = [w for screen in pilot.app.screen_stack for w in screen.query(TextArea)]
    for widget in inputs:
        widget.cursor_blink = False
        # Pausing is not enough: a later focus event resets (and so resumes) the blink timer,
        # which can hide the cursor again just before the screenshot. Stop the timer for good,
        # then show the cursor, as a focused input does.
        timer = getattr(widget, "_blink_timer", None)
        if timer is not None:
            timer.stop()
        widget._cursor_visible = True
        widget.refresh()
    for area in areas:
        area.cursor_blink = False


def svg_for_cairo(svg: str) -> str:
    """Point the SVG at a local monospace font (the web font can't load offline)."""
    svg = re.sub(r"@font-face\s*\{[^}]*\}", "", svg)
    return re.sub(r"font-family:[^;\"']*", "font-family: 'DejaVu Sans Mono'", svg)
