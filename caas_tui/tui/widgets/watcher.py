"""The project: opening it (index build or refresh) and then watching it, as messages.

Opening reports ``Status`` while the index builds, then ``Opened`` or ``OpenFailed``.
The watch (``caas_tui.live.watch_project`` in one worker) runs from the moment the
project is open until its screen unmounts; while the app
runs it is the only thing that refreshes the index (the watcher marks verdicts stale
itself, see ``caas_tui.live.freshness``). Each ``RefreshEvent`` becomes a ``Refreshed``
message for the screen to move its panes.

Unmounting sets the stop flag and waits for the worker: a refresh thread must not
outlive the index it writes (the session closes the engine after this).
"""

from __future__ import annotations

import asyncio
import threading

from textual import work
from textual.message import Message
from textual.widget import Widget
from textual.worker import Worker, WorkerCancelled, WorkerFailed, WorkerState

from caas_tui.errors import CaasError
from caas_tui.live import RefreshEvent, watch_project
from caas_tui.review.textutil import normalise_ws
from caas_tui.tui.session import Session
from caas_tui.tui.state import DocEntry

STOP_TIMEOUT_S = 10.0  # quitting waits this long for a refresh in flight, then cancels it


class ProjectWatcher(Widget):
    """Invisible; posts ``Refreshed`` per batch of saves that changed the index."""

    DEFAULT_CSS = "ProjectWatcher { display: none; }"

    class Status(Message):
        """Opening: ``text`` with ``done/total`` on the bar (``total=None``: indeterminate)."""

        def __init__(self, text: str, done: int, total: int | None) -> None:
            super().__init__()
            self.text, self.done, self.total = text, done, total

    class Opened(Message):
        def __init__(self, docs: list[DocEntry], n_chunks: int, n_files: int) -> None:
            super().__init__()
            self.docs, self.n_chunks, self.n_files = docs, n_chunks, n_files

    class OpenFailed(Message):
        def __init__(self, message: str) -> None:
            super().__init__()
            self.message = message

    class Refreshed(Message):
        def __init__(self, event: RefreshEvent) -> None:
            super().__init__()
            self.event = event

    def __init__(self, session: Session, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.session = session
        self.watch_ready = False  # the watch is in place and has caught up: no save is missed from now on
        self._stop_flag: threading.Event | None = None
        self._worker: Worker[None] | None = None

    @work(thread=True, exclusive=True, group="open", exit_on_error=False)
    def open_project(self) -> None:
        name = self.session.root.name

        def progress(stage: str, done: int, total: int) -> None:
            self.post_message(self.Status(f"Indexing {name}: {stage} {done}/{total}", done, total))

        def notify(message: str) -> None:
            self.app.call_from_thread(self.app.notify, message, markup=False)

        self.post_message(self.Status(f"Opening {name}…", 0, None))
        try:
            engine = self.session.open(progress=progress, notify=notify)
            docs = self.session.docs()
            left_out = self.session.left_out_notice()
        except CaasError as exc:
            self.post_message(self.OpenFailed(str(exc)))
            return
        if left_out:  # the doc list is shorter than the project's docs: say so, once, at open
            notify(left_out)
        chunks = engine.chunks()
        self.post_message(self.Opened(docs, len(chunks), len({c.path for c in chunks})))

    def start_watching(self) -> None:
        if self._worker is not None and not self._worker.is_finished:
            return
        self._stop_flag = threading.Event()
        self._worker = self.run_watch(self._stop_flag)

    @work(exclusive=True, group="watch", exit_on_error=False)
    async def run_watch(self, stop: threading.Event) -> None:
        engine = self.session.need_engine()
        loop = asyncio.get_running_loop()

        def notify(message: str) -> None:  # called from the refresh thread (index rebuild notices)
            loop.call_soon_threadsafe(self._notice, message)

        def ready() -> None:
            self.watch_ready = True

        try:
            async for event in watch_project(engine, stop, notify=notify, on_ready=ready):
                if stop.is_set():
                    break
                self.post_message(self.Refreshed(event))
        except (CaasError, OSError) as exc:  # watchfiles: no inotify watches left, say
            self.app.notify(f"Not watching for changes any more: {normalise_ws(str(exc))}",
                            severity="warning", markup=False, timeout=10)
        finally:
            self.watch_ready = False

    def _notice(self, message: str) -> None:
        self.app.notify(normalise_ws(message), markup=False, timeout=5)

    async def stop_watching(self) -> None:
        """Stop watching and wait for it (a refresh in flight finishes first, within bounds)."""
        if self._stop_flag is not None:
            self._stop_flag.set()
        worker = self._worker
        if worker is None or worker.is_finished:
            return
        if worker.state == WorkerState.PENDING:
            worker.cancel()
            return
        try:
            await asyncio.wait_for(worker.wait(), STOP_TIMEOUT_S)
        except TimeoutError:
            worker.cancel()  # wait_for has cancelled the task already; this marks the worker
        except (WorkerFailed, WorkerCancelled) as exc:  # its failure was reported when it happened
            self.log.warning(f"watcher ended with {type(exc).__name__}: {exc}")

    async def on_unmount(self) -> None:
        # Runs before Textual's own unmount handler cancels this widget's workers: stopping
        # through the flag lets a refresh in flight finish instead of being abandoned.
        await self.stop_watching()
