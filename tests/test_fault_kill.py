"""Fault suite: ``kill -9`` of ``caas-tui index`` and ``caas-tui watch`` at seeded random
points of a build and of a refresh; the next command (``search --json``) repairs the index:
it holds exactly the chunks of a clean index built from the same files (chunk store, lexical
documents, vectors, manifest), and answers as that clean build does, or, after a refresh, as
the uninterrupted refresh does (BM25 statistics keep deleted documents until a merge, so a
refreshed index may order the same hits differently from a clean build).

Each kill lands at a seeded random fraction of the measured duration of the same work run
to completion. CI runs one seed per case; ``CAAS_SOAK=1`` runs ``SOAK_SEEDS`` per case.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from caas_tui.index.manifest import MANIFEST_NAME
from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.request import SearchRequest

SOAK = os.environ.get("CAAS_SOAK") == "1"
SEEDS = range(int(os.environ.get("CAAS_SOAK_SEEDS", "8")) if SOAK else 1)
SAMPLE = Path(__file__).resolve().parents[1] / "sample_project"
QUERIES = ["remove body", "scheduler defer", "physics system step", "rigid body mass", "filler number 7", "gravity vector", "kinematic"]
DEADLINE_S = 60.0
Hits = list[list[tuple[Any, ...]]]


def _env() -> dict[str, str]:
    return {**os.environ, "HF_HUB_OFFLINE": "1"}


def _cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "caas_tui", *args]


def _spawn(root: Path, *args: str) -> subprocess.Popen[bytes]:
    log = (root.parent / f"{root.name}.{args[0]}.log").open("ab")
    # its own process group: the SIGKILL reaches every child the command may have started
    return subprocess.Popen(_cmd(*args, "--root", str(root)), stdout=log, stderr=log, env=_env(),
                            start_new_session=True)


def _kill(proc: subprocess.Popen[bytes]) -> bool:
    """SIGKILL the process group; True when it was still running (the kill interrupted it)."""
    running = proc.poll() is None
    with contextlib.suppress(ProcessLookupError):  # it finished before the kill: a legal outcome
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=DEADLINE_S)
    return running


def _record(case: str, seed: int, root: Path, running: bool) -> None:
    """Where the kill landed (``CAAS_FAULT_LOG``: one JSON line per kill, for soak numbers)."""
    out = os.environ.get("CAAS_FAULT_LOG")
    if out:
        with open(out, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"case": case, "seed": seed, "running": running, "state": _state(root)}) + "\n")


def _key(hit: dict[str, Any]) -> tuple[Any, ...]:
    return (hit["rank"], hit["path"], hit["start_line"], hit["end_line"], hit["symbol"], hit["kind"])


def _snapshot(root: Path, *, read_only: bool = False) -> tuple[Hits, tuple[Any, ...]]:
    """The index's answers to QUERIES and what it holds (chunks, manifest, lexical docs, vectors)."""
    engine = Engine.open(root, read_only=read_only)
    try:
        hits = [[_key(h.to_json()) for h in engine.run(SearchRequest(q, 10)).hits] for q in QUERIES]
        store = engine.store
        assert store.manifest is not None and store.lexical is not None and store.vectors is not None
        files = {path: (rec.sha256, tuple(rec.chunks)) for path, rec in store.manifest.files.items()}
        return hits, (sorted(store.chunks), files, store.lexical.doc_count(), len(store.vectors))
    finally:
        engine.close()


def _cli_hits(root: Path) -> Hits:
    qfile = root.parent / f"{root.name}.queries"
    qfile.write_text("\n".join(QUERIES) + "\n", encoding="utf-8")
    done = subprocess.run(_cmd("search", "--root", str(root), "--json", "--queries", str(qfile)),
                          capture_output=True, text=True, env=_env(), timeout=DEADLINE_S)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert [a["query"] for a in answers] == QUERIES
    return [[_key(h) for h in a["hits"]] for a in answers]


def _state(root: Path) -> str | None:
    try:
        return json.loads((root / ".caas" / "index" / MANIFEST_NAME).read_text())["state"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _edit(root: Path) -> None:
    """The refresh under test: files added, one changed, one deleted."""
    body = "".join(f"def filler_{j}(x):\n    '''Filler number {j}: adds {j}.'''\n    return x + {j}\n\n" for j in range(12))
    for i in range(25):
        path = root / "xrkit" / "bulk" / f"m{i}.py"
        path.parent.mkdir(exist_ok=True)
        path.write_text(f"# module {i}\n" + body, encoding="utf-8")
    physics = root / "xrkit" / "systems" / "physics.py"
    physics.write_text(physics.read_text(encoding="utf-8") + "\n\ndef gravity_vector():\n    '''The gravity vector.'''\n"
                     "    return (0, -9.81, 0)\n", encoding="utf-8")
    victim = next(p for p in sorted(root.rglob("test_*.py")))
    victim.unlink()


class Refs:
    def __init__(self, base: Path) -> None:
        self.base = base
        self.clean = base / "clean"  # the sample project, no index
        shutil.copytree(SAMPLE, self.clean, ignore=shutil.ignore_patterns(".caas"))
        self.built = base / "built"  # indexed by `caas-tui index`, timed
        shutil.copytree(self.clean, self.built)
        t = time.monotonic()
        subprocess.run(_cmd("index", "--root", str(self.built)), check=True, capture_output=True, env=_env(),
                       timeout=DEADLINE_S)
        self.build_s = time.monotonic() - t
        self.before, self.before_contents = _snapshot(self.built, read_only=True)
        # the refresh: the built project edited, refreshed by `caas-tui index`, timed
        refreshed = base / "refreshed"
        shutil.copytree(self.built, refreshed)
        _edit(refreshed)
        t = time.monotonic()
        done = subprocess.run(_cmd("index", "--root", str(refreshed), "--json"), check=True, capture_output=True,
                              text=True, env=_env(), timeout=DEADLINE_S)
        self.refresh_s = time.monotonic() - t
        # what the watcher's own refresh costs, without process start-up
        self.refresh_work_s = float(json.loads(done.stdout)["seconds"])
        # the answer every repaired index must give: a clean build of the edited files
        fresh = base / "fresh"
        shutil.copytree(refreshed, fresh, ignore=shutil.ignore_patterns(".caas"))
        self.after, self.after_contents = _snapshot(fresh)
        self.after_refresh, refreshed_contents = _snapshot(refreshed, read_only=True)
        assert refreshed_contents == self.after_contents, "an uninterrupted refresh holds other chunks than a build"
        assert self.after != self.before, "the edit changes no answer: the refresh cases would prove nothing"


@pytest.fixture(scope="module")
def refs(tmp_path_factory: pytest.TempPathFactory) -> Refs:
    return Refs(tmp_path_factory.mktemp("kill"))


def _repaired(root: Path, contents: tuple[Any, ...], *answers: Hits) -> None:
    got = _cli_hits(root)
    assert _state(root) == "clean"
    assert _snapshot(root, read_only=True)[1] == contents
    assert any(got == a for a in answers), got


@pytest.mark.parametrize("seed", SEEDS)
def test_kill_index_mid_build(refs: Refs, tmp_path: Path, seed: int) -> None:
    root = tmp_path / "p"
    shutil.copytree(refs.clean, root)
    proc = _spawn(root, "index")
    time.sleep(random.Random(f"build:{seed}").uniform(0.1, 1.0) * refs.build_s)
    _record("index-build", seed, root, _kill(proc))
    _repaired(root, refs.before_contents, refs.before)


@pytest.mark.parametrize("seed", SEEDS)
def test_kill_index_mid_refresh(refs: Refs, tmp_path: Path, seed: int) -> None:
    root = tmp_path / "p"
    shutil.copytree(refs.built, root)
    _edit(root)
    proc = _spawn(root, "index")
    time.sleep(random.Random(f"refresh:{seed}").uniform(0.1, 1.0) * refs.refresh_s)
    _record("index-refresh", seed, root, _kill(proc))
    _repaired(root, refs.after_contents, refs.after, refs.after_refresh)


@pytest.mark.parametrize("seed", SEEDS)
def test_kill_watch_mid_build(refs: Refs, tmp_path: Path, seed: int) -> None:
    root = tmp_path / "p"
    shutil.copytree(refs.clean, root)
    proc = _spawn(root, "watch")
    time.sleep(random.Random(f"watch-build:{seed}").uniform(0.1, 1.0) * refs.build_s)
    _record("watch-build", seed, root, _kill(proc))
    _repaired(root, refs.before_contents, refs.before)


def _wait_watching(root: Path, proc: subprocess.Popen[bytes]) -> None:
    log = root.parent / f"{root.name}.watch.log"
    deadline = time.monotonic() + DEADLINE_S
    while b"watching" not in log.read_bytes():
        assert proc.poll() is None, log.read_text(errors="replace")
        assert time.monotonic() < deadline, "watch never became ready"
        time.sleep(0.02)


@pytest.mark.parametrize("seed", SEEDS)
def test_kill_watch_mid_refresh(refs: Refs, tmp_path: Path, seed: int) -> None:
    root = tmp_path / "p"
    shutil.copytree(refs.built, root)
    proc = _spawn(root, "watch")
    try:
        _wait_watching(root, proc)
        _edit(root)
        # 0.1 s of quiet closes the watcher's batch; its refresh then takes about refresh_work_s
        time.sleep(random.Random(f"watch-refresh:{seed}").uniform(0.0, 1.0) * (0.15 + 1.5 * refs.refresh_work_s))
    finally:
        running = _kill(proc)
    _record("watch-refresh", seed, root, running)
    _repaired(root, refs.after_contents, refs.after, refs.after_refresh)
