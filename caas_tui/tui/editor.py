"""Handing the terminal to ``$EDITOR`` at a line, from any screen."""

from __future__ import annotations

import subprocess

from textual.app import App, SuspendNotSupported

from caas_tui.errors import CaasError
from caas_tui.tui.session import Session


def open_in_editor(app: App[object], session: Session, path: str, line: int) -> bool:
    """Suspend the app and run ``$EDITOR +LINE path``; True if the editor ran.

    Blocking here is the point: the editor owns the terminal until it exits.
    """
    try:
        command = session.editor_command(path, line)
    except CaasError as exc:
        app.notify(str(exc), severity="warning", markup=False, timeout=6)
        return False
    try:
        with app.suspend():
            subprocess.run(command, check=False)
    except OSError as exc:  # editor binary missing
        app.notify(f"cannot run {command[0]}: {exc.strerror or exc}", severity="error", markup=False)
        return False
    except SuspendNotSupported:  # headless or web: nothing to hand the terminal to
        app.notify("This terminal can't hand over to an editor.", severity="warning")
        return False
    app.refresh()
    return True
