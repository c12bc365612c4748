"""Watch the project and keep the index fresh: re-index on save, flag stale verdicts.

Drive it from an async worker::

    stop = asyncio.Event()
    async for event in watch_project(engine, stop):
        ...  # a RefreshEvent per batch of saves that changed something

Each batch of file events (watchfiles batches bursts; ``step_ms`` of quiet closes a
batch) becomes one path-targeted refresh, run in a thread so the event loop stays
responsive; the engine's lock keeps searches consistent meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Protocol

from watchfiles import Change, awatch

from caas_tui.errors import CaasError
from caas_tui.index.refreshstats import RefreshStats
from caas_tui.live.freshness import mark_stale
from caas_tui.live.paths import PathRules, ProjectFilter, Targets
from caas_tui.retrieve.engine import Engine
from caas_tui.review.decisions import StaleVerdict

STEP_MS = 100  # quiet time that closes a batch: a save, or one burst of a branch switch
DEBOUNCE_MS = 1600  # longest a batch may grow while events keep coming
IDLE_CHECK_MS = 2000  # with no events, check this often that the index still exists
FULL_REFRESH_OVER = 1000  # paths in one batch past which one full walk is simpler
_INDEX_PARTS = ("manifest.json", "chunks.sqlite", "lexical", "vectors")
_LOCKED = "another caas-tui process"  # IndexStore.refresh's warning when it could not take the lock

Notify = Callable[[str], None]


class StopFlag(Protocol):
    def is_set(self) -> bool: ...


class _Stop:
    """What awatch polls: the caller's flag, or our own when we close.

    awatch sets the event it was given when cancelled; this keeps the caller's
    event untouched, and lets closing stop the watcher thread within one step.
    """

    def __init__(self, outer: StopFlag | None) -> None:
        self.outer = outer
        self.closing = False

    def is_set(self) -> bool:
        return self.closing or (self.outer is not None and self.outer.is_set())

    def set(self) -> None:
        self.closing = True


@dataclass(frozen=True, slots=True)
class RefreshEvent:
    """One refresh the watcher ran. ``paths``: files added, changed or removed."""

    paths: tuple[str, ...]
    stats: RefreshStats
    stale_verdicts: tuple[StaleVerdict, ...] = ()  # verdicts this refresh made stale: offer to re-review
    seconds: float = 0.0
    error: str | None = None  # one line; the watcher keeps going
    messages: tuple[str, ...] = field(default=())  # skipped files, warnings, rebuild notices

    @property
    def rebuilt(self) -> bool:
        return self.stats.rebuilt

    def summary(self) -> str:
        """``refreshed 2 files (+0 ~2 -0) in 0.14s; 1 verdict stale``."""
        if self.error and not self.stats.changed_any:
            return f"refresh failed: {self.error}"
        s = self.stats
        n = len(s.added) + len(s.changed) + len(s.removed)
        what = "rebuilt the index" if s.rebuilt else "refreshed"
        line = f"{what} {n} file{'' if n == 1 else 's'} (+{len(s.added)} ~{len(s.changed)} -{len(s.removed)}) in {self.seconds:.2f}s"
        k = len(self.stale_verdicts)
        if k:
            line += f"; {k} verdict{'' if k == 1 else 's'} stale"
        return line + (f"; error: {self.error}" if self.error else "")


def index_missing(engine: Engine) -> str | None:
    """Why the on-disk index is gone (a part deleted under us), or None."""
    directory = engine.store.directory
    for part in _INDEX_PARTS:
        if not (directory / part).exists():
            return f"index directory {directory} lost {part}; rebuilding the index"
    return None


class Refresher:
    """The synchronous half: one batch of events in, at most one RefreshEvent out."""

    def __init__(self, engine: Engine, notify: Notify | None = None) -> None:
        self.engine = engine
        self.notify = notify or (lambda _msg: None)
        self.rules = PathRules(engine.cfg)
        self.retry = False  # another process held the index lock: redo everything when idle
        self._last_error: str | None = None

    def catch_up(self) -> RefreshEvent | None:
        """A full refresh: whatever changed before the watcher was listening."""
        return self._run(Targets.everything())

    def apply(self, changes: set[tuple[Change, str]]) -> RefreshEvent | None:
        manifest = self.engine.store.manifest
        known = list(manifest.files) if manifest is not None else []
        targets = self.rules.plan(changes, known)
        if len(targets.scope) > FULL_REFRESH_OVER:
            targets = Targets(targets.discovery, targets.scope, full=True, index_lost=targets.index_lost)
        return None if targets.empty else self._run(targets)

    def _run(self, targets: Targets) -> RefreshEvent | None:
        start = time.perf_counter()
        messages: list[str] = []
        if targets.full:
            self.rules = PathRules(self.engine.cfg)  # .gitignore or caas.toml may have changed
            if any(p.endswith("caas.toml") for p in targets.scope):
                messages.append("caas.toml changed: restart to apply new settings")
        try:
            stats = self._refresh(targets, messages)
        except CaasError as exc:
            # The same failure on every idle tick (an index dir the store refuses to
            # rebuild, say) is reported once, not every two seconds.
            repeated, self._last_error = self._last_error == str(exc), str(exc)
            return None if repeated else RefreshEvent((), RefreshStats(), seconds=time.perf_counter() - start, error=str(exc))
        self._last_error = None
        stale: tuple[StaleVerdict, ...] = ()
        error = None
        if stats.changed_any:
            try:
                stale = mark_stale(self.engine, stats)
            except CaasError as exc:
                error = f"checking verdicts: {exc}"
        messages.extend(s.reason for s in stats.skipped)
        messages.extend(stats.warnings)
        # The store skips a refresh while another process writes the index; the saves it
        # skipped would be lost, so a full (mtime-based) refresh follows at the next idle tick.
        self.retry = not stats.changed_any and any(w.startswith(_LOCKED) for w in stats.warnings)
        if not (stats.changed_any or stats.rebuilt or error or messages):
            return None
        paths = tuple(sorted({*stats.added, *stats.changed, *stats.removed}))
        return RefreshEvent(paths, stats, stale, time.perf_counter() - start, error, tuple(messages))

    def _refresh(self, targets: Targets, messages: list[str]) -> RefreshStats:
        lost = index_missing(self.engine)
        if lost:
            messages.append(lost)
            return self._rebuild()
        try:
            if targets.full:
                return self.engine.refresh()
            return self.engine.refresh(discovery=targets.discovery, scope=targets.scope)
        except (CaasError, OSError) as exc:
            # The index vanishing mid-refresh surfaces as whatever the backend hit first;
            # if it is gone, rebuild, otherwise the error is real.
            lost = index_missing(self.engine)
            if not lost:
                raise CaasError(f"refresh failed: {exc}") from exc
            messages.append(lost)
            return self._rebuild()

    def _rebuild(self) -> RefreshStats:
        stats = self.engine.reopen(notify=self.notify)
        stats.rebuilt = True
        return stats

    @property
    def idle_work(self) -> bool:
        """Something to do on an idle tick: the index directory vanished, or a refresh was skipped."""
        return self.retry or index_missing(self.engine) is not None

    def on_idle(self) -> RefreshEvent | None:
        return self._run(Targets.everything()) if self.idle_work else None


async def watch_project(
    engine: Engine,
    stop_event: StopFlag | None = None,
    *,
    notify: Notify | None = None,
    on_ready: Callable[[], None] | None = None,
    step_ms: int = STEP_MS,
    debounce_ms: int = DEBOUNCE_MS,
    idle_check_ms: int = IDLE_CHECK_MS,
) -> AsyncIterator[RefreshEvent]:
    """Yield a :class:`RefreshEvent` for every batch of file changes that changed the index.

    Runs until ``stop_event`` is set (checked every ``step_ms``) or the task is
    cancelled. ``on_ready`` is called once the watch is in place and changes made
    before it have been indexed: from then on no save is missed.
    """
    stop = _Stop(stop_event)
    refresher = Refresher(engine, notify)
    changes_iter = awatch(
        engine.root,
        watch_filter=ProjectFilter(engine.cfg),
        debounce=debounce_ms,
        step=step_ms,
        stop_event=stop,
        rust_timeout=idle_check_ms,
        yield_on_timeout=True,
    )
    # Start the watcher (its first step installs the OS watches) before catching up,
    # so a save made during the catch-up refresh is seen by it.
    pending: asyncio.Future[set[tuple[Change, str]]] = asyncio.ensure_future(changes_iter.__anext__())
    try:
        await asyncio.sleep(0)
        event = await asyncio.to_thread(refresher.catch_up)
        if event is not None:
            yield event
        if on_ready is not None:
            on_ready()
        while not stop.is_set():
            try:
                changes = await pending
            except StopAsyncIteration:
                return
            if stop.is_set():
                return
            pending = asyncio.ensure_future(changes_iter.__anext__())
            if changes:
                event = await asyncio.to_thread(refresher.apply, changes)
            elif refresher.idle_work:  # an idle tick (yield_on_timeout): a few stats
                event = await asyncio.to_thread(refresher.on_idle)
            else:
                event = None
            if event is not None:
                yield event
    finally:
        stop.set()
        await _close(pending, changes_iter)


async def _close(pending: asyncio.Future[set[tuple[Change, str]]], changes_iter: AsyncIterator[object]) -> None:
    """Close the generator once its pending step has ended (a generator cannot be
    closed while another task is inside it; the stop flag ends that step within
    one ``step_ms``)."""
    if not pending.done():
        pending.cancel()
    with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
        await pending
    aclose = getattr(changes_iter, "aclose", None)
    if aclose is not None:
        await aclose()
