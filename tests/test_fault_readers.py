"""Fault suite: readers searching in a loop while ``caas-tui index`` refreshes the index in
another process never fail and never see a half-written index: every answer (all queries of
one open) equals the answers before the refresh or after it. ``CAAS_SOAK=1``: more rounds."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from caas_tui.index.encoders.registry import load_encoder
from caas_tui.index.manifest import MANIFEST_NAME
from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.request import SearchRequest

from .test_fault_kill import QUERIES, SAMPLE, _key, _snapshot

SOAK = os.environ.get("CAAS_SOAK") == "1"
ROUNDS = 4 if SOAK else 1
READER_THREADS = 2
PAUSE_S = 0.2
DEADLINE_S = 90.0


def _edit(root: Path, round_no: int) -> None:
    """A refresh big enough to take a while: many files added, one changed, one deleted."""
    body = "".join(f"def filler_{j}(x):\n    '''Filler number {j}: adds {j}.'''\n    return x + {j}\n\n" for j in range(12))
    for i in range(40):
        path = root / "xrkit" / "bulk" / f"m{i}.py"
        path.parent.mkdir(exist_ok=True)
        path.write_text(f"# module {i}, round {round_no}\n" + body, encoding="utf-8")
    physics = root / "xrkit" / "systems" / "physics.py"
    physics.write_text(physics.read_text(encoding="utf-8") + f"\n\ndef gravity_vector_{round_no}():\n"
                       "    '''The gravity vector.'''\n    return (0, -9.81, 0)\n", encoding="utf-8")
    tests = sorted(root.rglob("test_*.py"))
    if tests:
        tests[0].unlink()


def _writer_holds_lock(root: Path) -> bool:
    """Whether another process holds the index writer lock (probed without waiting)."""
    fd = os.open(root / ".caas" / "index.lock", os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing releases the probe's own lock, if it got it
    return False


def _state(root: Path) -> str | None:
    try:
        return json.loads((root / ".caas" / "index" / MANIFEST_NAME).read_text())["state"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _cli_answers(root: Path) -> list[list[tuple[Any, ...]]]:
    qfile = root.parent / "queries.txt"
    qfile.write_text("\n".join(QUERIES) + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "caas_tui", "search", "--root", str(root), "--json",
                           "--queries", str(qfile)], capture_output=True, text=True, timeout=DEADLINE_S,
                          env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return [[_key(h) for h in json.loads(line)["hits"]] for line in done.stdout.splitlines() if line.strip()]


class _Readers:
    """Threads doing what `search` does on every run: open (refreshing if it can), answer, close."""

    def __init__(self, root: Path, encoder: Any, before: Any, after: Any) -> None:
        self.root, self.encoder, self.before, self.after = root, encoder, before, after
        self.seen: list[str] = []
        self.failures: list[str] = []
        self.stop = threading.Event()
        self.tree = threading.Lock()  # held while the test edits the files

    def run(self, n: int) -> None:
        while not self.stop.is_set():
            try:
                with self.tree:
                    engine = Engine.open(self.root, encoder=self.encoder)
                try:
                    got = [[_key(h.to_json()) for h in engine.run(SearchRequest(q, 10)).hits] for q in QUERIES]
                finally:
                    engine.close()
            except Exception as exc:  # noqa: BLE001 - any failure of a reader is the finding
                self.failures.append(f"reader {n}: {type(exc).__name__}: {exc}")
                return
            self.stop.wait(PAUSE_S)  # leave the writer a core on a 2-core runner
            if got == self.before:
                self.seen.append("before")
            elif got == self.after:
                self.seen.append("after")
            else:
                self.failures.append(f"reader {n}: an answer that is neither before nor after: {got}")
                return


def test_readers_during_a_refresh_see_before_or_after_never_half(tmp_path: Path) -> None:
    root = tmp_path / "p"
    shutil.copytree(SAMPLE, root, ignore=shutil.ignore_patterns(".caas"))
    encoder = load_encoder(None)
    Engine.open(root, encoder=encoder).close()
    for round_no in range(ROUNDS):
        before, _ = _snapshot(root, read_only=True)
        twin = tmp_path / f"twin{round_no}"  # the same refresh, run alone: the after-state
        shutil.copytree(root, twin)
        _edit(twin, round_no)
        Engine.open(twin, encoder=encoder).close()
        after, _ = _snapshot(twin, read_only=True)
        assert after != before

        readers = _Readers(root, encoder, before, after)
        seen, failures = readers.seen, readers.failures
        threads = [threading.Thread(target=readers.run, args=(n,), daemon=True) for n in range(READER_THREADS)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + DEADLINE_S
        while seen.count("before") < READER_THREADS and not failures and time.monotonic() < deadline:
            time.sleep(0.01)
        # Readers wait while the files change (a half-edited tree is neither state) and until
        # the writer process holds the lock, so the refresh is the writer's, not a reader's.
        with readers.tree:
            _edit(root, round_no)
            writer = subprocess.Popen([sys.executable, "-m", "caas_tui", "index", "--root", str(root)],
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                      env={**os.environ, "HF_HUB_OFFLINE": "1"})
            while not _writer_holds_lock(root) and writer.poll() is None and time.monotonic() < deadline:
                time.sleep(0.005)
        n_before = seen.count("before")
        cli_during = _cli_answers(root)  # a reader process, started while the writer works
        out, err = writer.communicate(timeout=DEADLINE_S)
        during = seen.count("before") - n_before
        n_after = seen.count("after")
        while seen.count("after") < n_after + READER_THREADS and not failures and time.monotonic() < deadline:
            time.sleep(0.01)
        readers.stop.set()
        for t in threads:
            t.join(timeout=DEADLINE_S)
        assert not failures, failures
        # the writer either refreshed, or found a reader had already done it (both exit 0)
        assert writer.returncode == 0, err
        assert "Traceback" not in err, err
        assert cli_during in (before, after)
        assert "before" in seen and seen[-1] == "after", seen
        assert _cli_answers(root) == after
        if os.environ.get("CAAS_FAULT_LOG"):
            with open(os.environ["CAAS_FAULT_LOG"], "a", encoding="utf-8") as fh:
                fh.write(json.dumps({"case": "readers", "round": round_no, "before": seen.count("before"),
                                     "after": seen.count("after"), "before_while_writing": during,
                                     "writer": out.strip()}) + "\n")
