"""``caas-tui watch`` as a process: a log line per refresh, Ctrl-C exits 0, and a watcher
killed in the middle of a refresh leaves an index the next start repairs."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from caas_tui.index.manifest import MANIFEST_NAME
from caas_tui.retrieve.engine import Engine
from caas_tui.sources import discover

DEADLINE_S = 30.0


class WatchProcess:
    def __init__(self, root: Path, *extra: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "caas_tui", "watch", "--root", str(root), *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        self.out: list[str] = []
        self.err: list[str] = []
        for stream, sink in ((self.proc.stdout, self.out), (self.proc.stderr, self.err)):
            threading.Thread(target=self._pump, args=(stream, sink), daemon=True).start()

    @staticmethod
    def _pump(stream, sink: list[str]) -> None:  # type: ignore[no-untyped-def]
        for line in stream:
            sink.append(line.rstrip("\n"))

    def wait_for(self, check: Callable[[], bool], what: str, timeout: float = DEADLINE_S) -> None:
        deadline = time.monotonic() + timeout
        while not check():
            if self.proc.poll() is not None and not check():
                raise AssertionError(f"watch exited ({self.proc.returncode}) before {what}: {self.err}")
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; stdout={self.out} stderr={self.err}")
            time.sleep(0.01)

    def ready(self) -> None:
        self.wait_for(lambda: any("watching" in line for line in self.err), "watching")

    def finish(self) -> int:
        if self.proc.poll() is None:
            self.proc.kill()
        return self.proc.wait(timeout=DEADLINE_S)


def _state(root: Path) -> str | None:
    try:
        return json.loads((root / ".caas/index" / MANIFEST_NAME).read_text())["state"]
    except (OSError, ValueError, KeyError):
        return None  # between the temp file and the rename


def test_watch_logs_one_line_per_refresh_and_ctrl_c_exits_0(tiny_project: Path) -> None:
    Engine.open(tiny_project).close()
    w = WatchProcess(tiny_project)
    try:
        w.ready()
        world = tiny_project / "pkg/world.py"
        world.write_text(world.read_text() + "\n# saved\n")
        w.wait_for(lambda: bool(w.out), "a refresh line")
        assert re.fullmatch(r"refreshed 1 file \(\+0 ~1 -0\) in \d+\.\d\ds", w.out[0]), w.out
        w.proc.send_signal(signal.SIGINT)
        assert w.proc.wait(timeout=DEADLINE_S) == 0
        w.wait_for(lambda: any("stopped watching" in line for line in w.err), "goodbye")
        assert not any("Traceback" in line for line in w.err)
    finally:
        w.finish()
    assert _state(tiny_project) == "clean"


def test_watcher_killed_mid_refresh_is_repaired_by_the_next_start(tiny_project: Path) -> None:
    Engine.open(tiny_project).close()
    body = "".join(f"def filler_{j}(x):\n    '''Filler number {j}.'''\n    return x + {j}\n\n" for j in range(10))
    w = WatchProcess(tiny_project)
    killed_dirty = False
    try:
        w.ready()
        for attempt in range(3):  # the dirty window is wide but a kill can still miss it
            for i in range(300):
                (tiny_project / f"bulk/m{i}.py").parent.mkdir(exist_ok=True)
                (tiny_project / f"bulk/m{i}.py").write_text(f"# round {attempt}\n" + body)
            deadline = time.monotonic() + DEADLINE_S
            while _state(tiny_project) != "dirty" and time.monotonic() < deadline:
                time.sleep(0.002)
            w.proc.send_signal(signal.SIGKILL)
            w.proc.wait(timeout=DEADLINE_S)
            if _state(tiny_project) == "dirty":
                killed_dirty = True
                break
            w = WatchProcess(tiny_project)
            w.ready()
    finally:
        w.finish()
    assert killed_dirty, "never caught the watcher with a dirty manifest"

    nxt = WatchProcess(tiny_project)
    try:
        nxt.ready()
        assert any("interrupted" in line and "rebuilding" in line for line in nxt.err), nxt.err
        nxt.proc.send_signal(signal.SIGINT)
        assert nxt.proc.wait(timeout=DEADLINE_S) == 0
    finally:
        nxt.finish()
    assert _state(tiny_project) == "clean"
    engine = Engine.open(tiny_project, read_only=True)
    try:
        manifest = engine.store.manifest
        assert manifest is not None
        assert set(manifest.files) == {e.path for e in discover(engine.cfg).entries}
        assert len(engine.store.chunks) == sum(len(r.chunks) for r in manifest.files.values())
        assert engine.find_symbol("filler_9")
    finally:
        engine.close()
