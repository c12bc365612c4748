"""What every full screen of the app shares: worker failures become notifications."""

from __future__ import annotations

from textual.screen import Screen
from textual.worker import Worker, WorkerState

from caas_tui.errors import CaasError


class CaasScreen(Screen[None]):
    """Workers here run with ``exit_on_error=False``; this turns their failures into toasts.

    A ``CaasError`` is something the user can act on: its one-line message is shown.
    Anything else is a bug: the traceback goes to the Textual log, a short note on
    screen, and the app keeps running (decisions are already stored).
    """

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state != WorkerState.ERROR:
            return
        error = event.worker.error
        if isinstance(error, CaasError):
            self.app.notify(str(error), severity="error", markup=False, timeout=8)
            return
        self.log.error(f"worker {event.worker.name!r} failed", error)
        self.app.notify(
            f"Internal error in {event.worker.name}: {type(error).__name__}: {error}",
            title="caas-tui bug",
            severity="error",
            markup=False,
            timeout=10,
        )
