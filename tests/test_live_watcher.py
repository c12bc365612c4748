"""The watcher against a real project on disk: edits, renames and deletions show up in
search, verdicts turn stale, and bad files, bursts and a deleted index are survived."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Self

import pytest

from caas_tui.index.manifest import read_manifest
from caas_tui.live.watcher import RefreshEvent, watch_project
from caas_tui.models import EvidenceSpan, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims import extract_claims
from caas_tui.review.decisions.store import VerdictStore
from caas_tui.review.textutil import evidence_sha256, span_sha256, split_lines
from caas_tui.sources import discover

DEADLINE_S = 6.0


class Watching:
    """Runs watch_project in a task; collects events and notices."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.events: list[RefreshEvent] = []
        self.notes: list[str] = []
        self.stop = asyncio.Event()
        self.ready = asyncio.Event()

    async def __aenter__(self) -> Self:
        self.task = asyncio.create_task(self._run())
        await asyncio.wait_for(self.ready.wait(), DEADLINE_S)
        return self

    async def _run(self) -> None:
        async for event in watch_project(self.engine, self.stop, notify=self.notes.append, on_ready=self.ready.set):
            self.events.append(event)

    async def __aexit__(self, *exc: object) -> None:
        self.stop.set()
        await asyncio.wait_for(self.task, DEADLINE_S)

    async def until(self, check: Callable[[], object], what: str, timeout: float = DEADLINE_S) -> None:
        deadline = time.monotonic() + timeout
        while not check():
            if self.task.done():
                self.task.result()  # surface a crash
                raise AssertionError(f"watcher stopped before: {what}")
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for: {what}; events: {[e.summary() for e in self.events]}")
            await asyncio.sleep(0.02)


def top_paths(engine: Engine, query: str) -> list[str]:
    return [h.chunk.path for h in engine.search(query, 5, mode="bm25")]


def assert_consistent(engine: Engine) -> None:
    """The index holds exactly what discover() finds, and its parts agree."""
    manifest = read_manifest(engine.store.directory)
    assert manifest is not None and manifest.state == "clean"
    assert set(manifest.files) == {e.path for e in discover(engine.cfg).entries}
    ids = {cid for rec in manifest.files.values() for cid in rec.chunks}
    assert ids == set(engine.store.chunks)
    assert set(engine.store.vectors.ids()) <= ids


@pytest.fixture()
def engine(tiny_project: Path):
    eng = Engine.open(tiny_project)
    yield eng
    eng.close()


async def test_edits_creations_renames_and_deletions_follow(engine: Engine) -> None:
    root = engine.root
    async with Watching(engine) as w:
        world = root / "pkg/world.py"
        world.write_text(world.read_text() + "\n\ndef frobnicate_quasar():\n    return 1\n")
        await w.until(lambda: top_paths(engine, "frobnicate_quasar")[:1] == ["pkg/world.py"], "edit indexed")

        (root / "docs/notes.md").write_text("# Notes\n\nThe zanzibarite cache is warm.\n")
        await w.until(lambda: top_paths(engine, "zanzibarite") == ["docs/notes.md"], "new file indexed")

        (root / "docs/notes.md").rename(root / "docs/moved.md")
        await w.until(lambda: top_paths(engine, "zanzibarite") == ["docs/moved.md"], "rename followed")

        (root / "docs/moved.md").unlink()
        await w.until(lambda: top_paths(engine, "zanzibarite") == [], "deletion followed")

        # a directory renamed: its files send no events of their own
        (root / "pkg").rename(root / "lib")
        await w.until(lambda: top_paths(engine, "frobnicate_quasar")[:1] == ["lib/world.py"], "directory move followed")
        assert not any(c.path.startswith("pkg/") for c in engine.chunks())
    changed = [p for e in w.events for p in e.paths]
    assert "pkg/world.py" in changed and "docs/notes.md" in changed
    assert all(e.error is None for e in w.events)
    assert_consistent(engine)


async def test_ignored_files_never_reach_the_index(engine: Engine) -> None:
    root = engine.root
    async with Watching(engine) as w:
        (root / ".gitignore").write_text("generated/\n")
        for rel in ("pkg/.world.py.swp", "pkg/world.py~", "pkg/.#world.py", "pkg/4913", "node_modules/m/x.py",
                    ".caas/junk.py", "generated/g.py", "pkg/__pycache__/w.py"):
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text("def quokkamatic():\n    pass\n")
        (root / "docs/marker.md").write_text("# Marker\n\nplatypoid\n")  # a real edit, after the noise
        await w.until(lambda: top_paths(engine, "platypoid") == ["docs/marker.md"], "marker indexed")
        assert top_paths(engine, "quokkamatic") == []
        # un-ignoring changes the rules: a full refresh picks the directory up
        (root / ".gitignore").write_text("")
        await w.until(lambda: top_paths(engine, "quokkamatic") == ["generated/g.py"], "un-ignored file indexed")
    assert_consistent(engine)


def _record(engine: Engine, doc: str, match: str, evidence: tuple[EvidenceSpan, ...], reviewer: str) -> str:
    text = (engine.root / doc).read_text()
    claim = next(c for c in extract_claims(doc, text) if match in c.text)
    lines = split_lines(text)
    verdict = Verdict(claim.id, "contradicted", reviewer, "checked", evidence=evidence,
                      doc_sha256=span_sha256(lines, claim.start_line, claim.end_line))
    with VerdictStore.open(engine.cfg) as store:
        store.record(claim, verdict)
    return claim.id


def _span(engine: Engine, symbol: str, *, chunk_hash: bool) -> EvidenceSpan:
    chunk = engine.find_symbol(symbol)[0]
    lines = split_lines((engine.root / chunk.path).read_text())
    if chunk_hash:  # the Claude reviewer's convention: hash of the chunk the span lies on
        return EvidenceSpan(chunk.path, chunk.start_line + 1, chunk.end_line, symbol, evidence_sha256([chunk]))
    return EvidenceSpan(chunk.path, chunk.start_line, chunk.end_line, symbol,
                        span_sha256(lines, chunk.start_line, chunk.end_line))


async def test_verdicts_turn_stale_when_their_evidence_or_doc_lines_change(engine: Engine) -> None:
    root = engine.root
    on_remove = _record(engine, "docs/guide.md", "remove_body", (_span(engine, "World.remove_body", chunk_hash=False),), "static")
    on_defer = _record(engine, "docs/guide.md", "remove_body", (_span(engine, "Scheduler.defer", chunk_hash=True),), "claude")
    async with Watching(engine) as w:
        # an unrelated edit in the evidence file leaves both verdicts alone
        sched = root / "pkg/sched.py"
        sched.write_text(sched.read_text() + "\n\nUNRELATED = 1\n")
        await w.until(lambda: any("pkg/sched.py" in e.paths for e in w.events), "unrelated edit")
        assert not any(e.stale_verdicts for e in w.events)

        world = root / "pkg/world.py"
        world.write_text(world.read_text().replace("self.scheduler.defer(name)", "self.bodies.remove(name)"))
        await w.until(lambda: any(e.stale_verdicts for e in w.events), "stale verdict reported")
        stale = [s for e in w.events for s in e.stale_verdicts]
        assert [(s.claim_id, s.reviewer) for s in stale] == [(on_remove, "static")]
        assert "pkg/world.py" in stale[0].reason
        assert w.events[-1].summary().endswith("; 1 verdict stale")

        guide = root / "docs/guide.md"
        guide.write_text(guide.read_text().replace("delete a body immediately", "delete a body at frame end"))
        await w.until(lambda: sum(len(e.stale_verdicts) for e in w.events) == 2, "doc edit makes the other stale")
    with VerdictStore.open(engine.cfg) as store:
        labels = {(sv.claim.id, sv.verdict.reviewer): sv.verdict.verdict for sv in store.all()}
    assert labels == {(on_remove, "static"): "stale", (on_defer, "claude"): "stale"}


async def test_unreadable_and_vanishing_files_are_reported_not_fatal(engine: Engine, monkeypatch) -> None:
    load_mod = sys.modules["caas_tui.sources.load"]  # the package re-exports a function of the same name

    root = engine.root
    real_open = open
    bad = {str(root / "pkg/locked.py"): PermissionError(13, "Permission denied"),
           str(root / "pkg/ghost.py"): FileNotFoundError(2, "No such file or directory")}

    def fake_open(path, *args, **kwargs):  # tests run as root: chmod 000 would not stop a read
        if str(path) in bad:
            raise bad[str(path)]
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(load_mod, "open", fake_open, raising=False)
    async with Watching(engine) as w:
        (root / "pkg/locked.py").write_text("def locked_fn():\n    pass\n")
        (root / "pkg/ghost.py").write_text("def ghost_fn():\n    pass\n")
        os.mkfifo(root / "pkg/pipe.py")  # not a regular file: never opened (a read would block)
        await w.until(lambda: sum("locked.py" in m or "ghost.py" in m for e in w.events for m in e.messages) >= 2,
                      "both reported")
        messages = [m for e in w.events for m in e.messages]
        assert any("cannot read" in m for m in messages) and any("vanished" in m for m in messages)
        monkeypatch.undo()
        (root / "pkg/locked.py").write_text("def locked_fn():\n    return 2\n")
        await w.until(lambda: top_paths(engine, "locked_fn") == ["pkg/locked.py"], "readable again")
    assert all(e.error is None for e in w.events)


async def test_burst_of_changes_like_a_branch_switch(engine: Engine) -> None:
    root = engine.root
    n = 1200
    async with Watching(engine) as w:
        gen = root / "gen"
        gen.mkdir()
        for i in range(n):
            (gen / f"m{i}.py").write_text(f"def burst_fn_{i}():\n    return {i}\n")
        await w.until(lambda: top_paths(engine, f"burst_fn_{n - 1}")[:1] == [f"gen/m{n - 1}.py"], "burst indexed", 60)
        await w.until(lambda: len([p for p in engine.store.manifest.files if p.startswith("gen/")]) == n, "all", 60)
        shutil.rmtree(gen)
        await w.until(lambda: not any(p.startswith("gen/") for p in engine.store.manifest.files), "all removed", 60)
    assert len(w.events) < n / 10, "bursts are batched"
    assert all(e.error is None for e in w.events)
    assert_consistent(engine)


async def test_index_directory_deleted_while_watching_is_rebuilt(engine: Engine) -> None:
    root = engine.root
    async with Watching(engine) as w:
        shutil.rmtree(engine.store.directory)
        await w.until(lambda: any(e.rebuilt for e in w.events), "rebuilt")
        event = next(e for e in w.events if e.rebuilt)
        assert any("rebuilding" in m for m in event.messages) and event.error is None
        (root / "docs/after.md").write_text("# After\n\nsnorkelwick\n")
        await w.until(lambda: top_paths(engine, "snorkelwick") == ["docs/after.md"], "watching goes on")
    assert_consistent(engine)


def _git(root: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)


async def test_git_branch_switch_leaves_the_index_equal_to_the_checkout(tiny_project: Path) -> None:
    root = tiny_project
    (root / ".gitignore").write_text(".caas/\nbuild/\n")
    _git(root, "init", "-q", "-b", "main")
    for i in range(300):
        (root / f"mods/m{i}.py").parent.mkdir(exist_ok=True)
        (root / f"mods/m{i}.py").write_text(f"def main_fn_{i}():\n    return {i}\n")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "main")
    _git(root, "checkout", "-qb", "feature")
    for i in range(300):
        if i % 3 == 0:
            (root / f"mods/m{i}.py").unlink()
        else:
            (root / f"mods/m{i}.py").write_text(f"def feature_fn_{i}():\n    return {i}\n")
    (root / "mods/extra.py").write_text("def feature_extra():\n    pass\n")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "feature")
    _git(root, "checkout", "-q", "main")
    (root / "build").mkdir()
    (root / "build/ignored.py").write_text("def never_indexed():\n    pass\n")

    eng = Engine.open(root)
    try:
        async with Watching(eng) as w:
            _git(root, "checkout", "-q", "feature")

            def settled() -> bool:
                files = set(eng.store.manifest.files)
                return "mods/extra.py" in files and "mods/m0.py" not in files and not eng.find_symbol("main_fn_1")

            await w.until(settled, "feature branch indexed", 60)
            await asyncio.sleep(0.5)  # let any trailing batch land
            assert_consistent(eng)
            assert eng.find_symbol("feature_fn_1") and not eng.find_symbol("never_indexed")
            _git(root, "checkout", "-q", "main")
            await w.until(lambda: "mods/m0.py" in eng.store.manifest.files and not eng.find_symbol("feature_fn_1"),
                          "main branch indexed", 60)
            await asyncio.sleep(0.5)
            assert_consistent(eng)
        assert all(e.error is None for e in w.events)
    finally:
        eng.close()


async def test_save_during_another_writers_lock_is_indexed_once_it_is_released(engine: Engine) -> None:
    import fcntl

    root = engine.root
    async with Watching(engine) as w:
        fd = os.open(engine.cfg.caas_dir / "index.lock", os.O_RDWR)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)  # as a second caas-tui process writing the index would
            (root / "docs/locked.md").write_text("# Locked\n\nwombatrix\n")
            await w.until(lambda: any("another caas-tui process" in m for e in w.events for m in e.messages),
                          "skipped refresh reported")
            assert top_paths(engine, "wombatrix") == []
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
        await w.until(lambda: top_paths(engine, "wombatrix") == ["docs/locked.md"], "indexed on the idle retry")


async def test_index_that_cannot_be_rebuilt_is_reported_once_and_watching_goes_on(engine: Engine) -> None:
    index = engine.store.directory
    async with Watching(engine) as w:
        (index / "manifest.json").unlink()  # the store will not wipe a folder without its manifest
        await w.until(lambda: any(e.error for e in w.events), "error reported")
        await asyncio.sleep(2.5)  # past an idle tick: the same error is not repeated
        assert len([e for e in w.events if e.error]) == 1
        assert "not a caas-tui index" in next(e.error for e in w.events if e.error)
        shutil.rmtree(index)  # the user clears it: the next tick rebuilds
        await w.until(lambda: any(e.rebuilt for e in w.events), "rebuilt", 10)
    assert_consistent(engine)
