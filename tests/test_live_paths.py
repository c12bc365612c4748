"""The watcher's per-path rules agree with discover(): same files in, same files out."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from watchfiles import Change

from caas_tui.config import load_config
from caas_tui.live.paths import PathRules, ProjectFilter
from caas_tui.sources import discover


def _git(root: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)


def _events(root: Path, *rels: str, change: Change = Change.modified) -> set[tuple[Change, str]]:
    return {(change, str(root / rel)) for rel in rels}


def test_plan_matches_discover_in_a_git_work_tree(tiny_project: Path) -> None:
    root = tiny_project
    (root / ".gitignore").write_text("ignored/\n")
    for rel in ("ignored/kept.py", "ignored/new.py", "pkg/extra.py", "docs/pic.png"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x = 1\n")
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "add", "-f", "ignored/kept.py")  # tracked despite the pattern: git lists it, so do we
    _git(root, "commit", "-qm", "c")
    cfg = load_config(root)
    rules = PathRules(cfg)
    assert rules.use_git
    changed = ("ignored/kept.py", "ignored/new.py", "pkg/extra.py", "docs/pic.png", "pkg/world.py~", "gone.py")
    targets = rules.plan(_events(root, *changed), known=["gone.py"])
    found = {e.path for e in targets.discovery.entries}
    assert found == {"ignored/kept.py", "pkg/extra.py"}
    assert found == {e.path for e in discover(cfg).entries} & set(changed)
    assert "gone.py" in targets.scope and not targets.full and not targets.index_lost


def test_plan_outside_git_uses_nested_gitignores_and_expands_directories(tiny_project: Path) -> None:
    root = tiny_project
    (root / "pkg/.gitignore").write_text("gen_*.py\n")
    (root / "pkg/gen_a.py").write_text("a = 1\n")
    (root / "moved").mkdir()
    (root / "moved/m.py").write_text("m = 1\n")
    (root / "moved/sub").mkdir()
    (root / "moved/sub/n.md").write_text("# n\n")
    cfg = load_config(root)
    rules = PathRules(cfg)
    assert not rules.use_git
    known = ["old/a.py", "old/b/c.md", "older.py"]
    targets = rules.plan(_events(root, "pkg/gen_a.py", "moved") | _events(root, "old", change=Change.deleted),
                         known=known)
    assert {e.path for e in targets.discovery.entries} == {"moved/m.py", "moved/sub/n.md"}
    assert {"old/a.py", "old/b/c.md"} <= targets.scope and "older.py" not in targets.scope
    assert rules.plan(_events(root, "pkg/.gitignore"), known=known).full
    lost = rules.plan(_events(root, ".caas/index/manifest.json", change=Change.deleted), known=known)
    assert lost.index_lost and not lost.scope


def test_filter_keeps_sources_and_directories_drops_noise(tiny_project: Path) -> None:
    root = tiny_project
    cfg = load_config(root)
    keep = ProjectFilter(cfg)
    (root / "docs/img.png").write_text("")
    assert keep(Change.modified, str(root / "pkg/world.py"))
    assert keep(Change.added, str(root / "docs"))  # a directory moved in
    assert keep(Change.deleted, str(root / "olddir"))  # may have held indexed files
    assert keep(Change.modified, str(root / ".gitignore"))
    for rel in ("pkg/.world.py.swp", "pkg/world.py~", "pkg/.#world.py", "pkg/4913", "docs/img.png",
                ".git/index", "node_modules/x.py", "pkg/__pycache__/w.cpython-311.pyc", ".caas/index/chunks.sqlite"):
        assert not keep(Change.modified, str(root / rel)), rel
    assert keep(Change.deleted, str(root / ".caas/index"))  # losing the index is news
