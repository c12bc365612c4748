"""``review --changed-since REF`` in a temporary git repo: a commit touching a doc, a code
file that is evidence for another doc, and an unrelated file."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from caas_tui.cli.main import main
from caas_tui.live.changes import changed_since
from tests.conftest import write

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")

CORE = '''
def run(x: int, y: int = 1) -> int:
    """Run once."""
    return x + y


# padding so the two definitions are far apart in the diff
# .
# .
# .


def stop(force: bool = False) -> None:
    """Stop."""
'''


def git(root: Path, *args: str) -> str:
    proc = subprocess.run(["git", "-c", "user.email=t@t", "-c", "user.name=t", *args], cwd=root, check=True,
                          capture_output=True, text=True)
    return proc.stdout


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    write(root, "pkg/__init__.py", "")
    write(root, "pkg/core.py", CORE)
    write(root, "pkg/other.py", "def helper() -> int:\n    return 1\n")
    write(root, "docs/run.md", "# Run\n\n```python\nfrom pkg.core import run\nrun(1, y=2)\n```\n")
    write(root, "docs/stop.md", "# Stop\n\n```python\nfrom pkg.core import stop\nstop(force=True)\n```\n")
    write(root, "docs/misc.md", "# Misc\n\n`pkg.other.helper` helps.\n")
    write(root, ".gitignore", ".caas/\n")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    git(root, "tag", "base")
    # first review on the base: the verdict store learns each claim's evidence
    assert main(["review", "--root", str(root), "--check"]) == 0
    return root


def review_json(root: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, dict[str, list[dict]]]:
    capsys.readouterr()
    code = main(["review", "--root", str(root), "--check", "--format", "json", *extra])
    docs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return code, {d["doc"]: d["claims"] for d in docs}


def test_changed_doc_and_evidence_code_are_reviewed_unrelated_is_not(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(repo, "docs/misc.md", "# Misc\n\n`pkg.other.helper` helps a lot.\n")
    write(repo, "pkg/core.py", CORE.replace("def run(x: int, y: int = 1)", "def run(x: int, z: int = 1)")
          .replace("return x + y", "return x + z"))
    write(repo, "pkg/other.py", "def helper() -> int:\n    return 2\n")
    git(repo, "commit", "-qam", "change")

    changes = changed_since(repo, "base")
    assert changes.paths == {"docs/misc.md", "pkg/core.py", "pkg/other.py"}
    assert changes.touches("pkg/core.py", 1, 1) and not changes.touches("pkg/core.py", 13, 14)

    code, docs = review_json(repo, capsys, "--changed-since", "base")
    # docs/run.md's claim is about `run`, whose lines changed: it is reviewed and now wrong;
    # docs/stop.md's evidence did not change; pkg/other.py changed, but it has no docstring claims
    assert {doc for doc, claims in docs.items() if claims} == {"docs/misc.md", "docs/run.md", "pkg/core.py"}
    assert docs.get("pkg/other.py", []) == [] and "docs/stop.md" not in docs
    assert [c["verdict"] for c in docs["docs/run.md"]] == ["contradicted"]
    assert code == 1


def test_uncommitted_edits_count_and_nothing_changed_is_clean(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, docs = review_json(repo, capsys, "--changed-since", "HEAD")
    assert (code, docs) == (0, {})
    write(repo, "docs/stop.md", "# Stop\n\n```python\nfrom pkg.core import stop\nstop(hard=True)\n```\n")  # not committed
    write(repo, "docs/new.md", "# New\n\nCall `pkg.core.walk` now.\n")  # untracked
    code, docs = review_json(repo, capsys, "--changed-since", "HEAD")
    assert set(docs) == {"docs/stop.md", "docs/new.md"}
    assert code == 1


def test_unknown_ref_and_no_work_tree_are_one_line_errors(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["review", "--root", str(repo), "--check", "--changed-since", "no-such-ref"]) == 2
    assert capsys.readouterr().err.strip().splitlines() == ["caas-tui: error: --changed-since: unknown git ref 'no-such-ref'"]
    plain = tmp_path / "plain"
    write(plain, "docs/a.md", "# A\n\nSome text.\n")
    assert main(["review", "--root", str(plain), "--check", "--changed-since", "main"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("caas-tui: error: --changed-since needs a git work tree")
