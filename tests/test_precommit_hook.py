"""``.pre-commit-hooks.yaml`` run by pre-commit itself against a temporary git repo that
uses this repository from a local path (a committed copy of the hook manifest).

The ``caas-review-system`` hook is the one run: it uses the caas-tui on PATH, so the test
needs no network. ``caas-review`` (``language: python``) has the same entry, file pattern
and filename passing (checked below); pre-commit builds its environment with
``pip install .``, which needs the package registry, so it is not run here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO, write

PRE_COMMIT = Path(sys.executable).parent / "pre-commit"
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("git") is None, reason="git not installed"),
    pytest.mark.skipif(not PRE_COMMIT.exists(), reason="pre-commit not installed (pip install -e '.[test]')"),
]


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.email=t@t", "-c", "user.name=t", *args], cwd=root, check=True,
                          capture_output=True, text=True).stdout.strip()


def test_the_two_hooks_agree() -> None:
    hooks = {h["id"]: h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    assert set(hooks) == {"caas-review", "caas-review-system"}
    assert hooks["caas-review"]["language"] == "python" and hooks["caas-review-system"]["language"] == "system"
    for key in ("entry", "files", "pass_filenames"):
        assert hooks["caas-review"][key] == hooks["caas-review-system"][key]
    assert hooks["caas-review"]["entry"] == "caas-tui review --check"
    proc = subprocess.run([str(PRE_COMMIT), "validate-manifest", str(REPO / ".pre-commit-hooks.yaml")],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_pre_commit_runs_the_hook_on_staged_docs(tmp_path: Path) -> None:
    # the hook repository: a committed copy of this repo's manifest (pre-commit clones it by rev)
    hook_repo = tmp_path / "hook-repo"
    hook_repo.mkdir()
    shutil.copy(REPO / ".pre-commit-hooks.yaml", hook_repo / ".pre-commit-hooks.yaml")
    git(hook_repo, "init", "-q")
    git(hook_repo, "add", "-A")
    git(hook_repo, "commit", "-qm", "hooks")
    rev = git(hook_repo, "rev-parse", "HEAD")

    project = tmp_path / "project"
    write(project, "pkg/__init__.py", "")
    write(project, "pkg/core.py", "def run(x: int) -> int:\n    return x\n")
    write(project, "docs/good.md", "# Good\n\nCall `pkg.core.run` to start.\n")
    write(project, ".gitignore", ".caas/\n")
    write(project, ".pre-commit-config.yaml", f"""
        repos:
          - repo: {hook_repo}
            rev: {rev}
            hooks:
              - id: caas-review-system
        """)
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "init")

    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "HF_HUB_OFFLINE": "1", "PRE_COMMIT_COLOR": "never"}

    def pre_commit(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(PRE_COMMIT), "run", *args], cwd=project, env=env, capture_output=True,
                              text=True, timeout=300, check=False)

    clean = pre_commit("--all-files")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "caas-tui review" in clean.stdout and "Passed" in clean.stdout

    # a wrong doc, staged: the hook fails and names the line
    write(project, "docs/bad.md", "# Bad\n\nCall `pkg.core.walk` to start.\n")
    git(project, "add", "docs/bad.md")
    bad = pre_commit()
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "Failed" in bad.stdout and "docs/bad.md:3: contradicted: " in bad.stdout

    # only staged docs are passed: a code-only change runs nothing
    git(project, "rm", "-q", "--cached", "docs/bad.md")
    write(project, "pkg/core.py", "def run(x: int) -> int:\n    return x + 0\n")
    git(project, "add", "pkg/core.py")
    skipped = pre_commit()
    assert skipped.returncode == 0, skipped.stdout + skipped.stderr
    assert "(no files to check)" in skipped.stdout and "Skipped" in skipped.stdout
