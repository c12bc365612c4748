"""Patch export: unified diffs git apply / patch accept, CRLF, no final newline,
merged and overlapping fixes, stale and outside-root refusals, in-place apply."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from caas_tui.errors import PatchError, PathOutsideRoot, StaleError
from caas_tui.models import Fix
from caas_tui.review.decisions.patch import FixRequest, apply_fixes, build_patch
from caas_tui.review.textutil import span_sha256, split_lines

GIT = shutil.which("git")
PATCH = shutil.which("patch")


def git(root: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=root, input=stdin, text=True, capture_output=True, check=False)


def req(root: Path, rel: str, start: int, end: int, replacement: str, *, claim: tuple[int, int] | None = None,
        sha: str | None = "auto") -> FixRequest:
    cs, ce = claim or (start, end)
    if sha == "auto":
        lines = split_lines((root / rel).read_bytes().decode())
        sha = span_sha256(lines, cs, ce)
    return FixRequest(rel, Fix(start, end, replacement), sha, cs, ce, f"{rel}:{start}")


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    body = [f"line {i}" for i in range(1, 21)]
    (root / "docs" / "guide.md").write_text("\n".join(body) + "\n")
    (root / "docs" / "tail.md").write_bytes(b"one\ntwo\nthree\nlast line")  # no final newline
    (root / "docs" / "win.md").write_bytes(b"alpha\r\nbeta\r\ngamma\r\ndelta\r\n")
    (root / "docs" / "my notes.md").write_text("keep\nchange me\nkeep\n")
    if GIT:
        git(root, "init", "-q")
        git(root, "-c", "core.autocrlf=false", "add", "-A")
        git(root, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init")
    return root


def requests(root: Path) -> list[FixRequest]:
    return [
        req(root, "docs/guide.md", 3, 3, "line three"),
        req(root, "docs/guide.md", 6, 6, "line six"),  # within 2*context: same hunk as line 3
        req(root, "docs/guide.md", 17, 18, "line 17\nline eighteen\nan added line"),
        req(root, "docs/tail.md", 4, 4, "the last line"),
        req(root, "docs/win.md", 2, 2, "BETA"),
        req(root, "docs/my notes.md", 2, 2, "changed"),
    ]


def expected() -> dict[str, bytes]:
    guide = [f"line {i}" for i in range(1, 21)]
    guide[2], guide[5] = "line three", "line six"
    guide[16:18] = ["line 17", "line eighteen", "an added line"]
    return {
        "docs/guide.md": ("\n".join(guide) + "\n").encode(),
        "docs/tail.md": b"one\ntwo\nthree\nthe last line",
        "docs/win.md": b"alpha\r\nBETA\r\ngamma\r\ndelta\r\n",
        "docs/my notes.md": b"keep\nchanged\nkeep\n",
    }


def test_diff_shape(repo: Path) -> None:
    result = build_patch(repo, requests(repo))
    assert not result.refused
    assert set(result.files) == set(expected())
    diff = result.diff
    assert "--- a/docs/guide.md\n+++ b/docs/guide.md\n" in diff
    assert "@@ -1,9 +1,9 @@" in diff  # lines 3 and 6 merged into one hunk with 3 lines of context
    assert "\\ No newline at end of file" in diff
    assert "-beta\r\n+BETA\r\n" in diff
    assert "--- a/docs/my notes.md\t\n" in diff


@pytest.mark.skipif(GIT is None, reason="git not installed")
def test_git_apply_accepts_the_patch(repo: Path) -> None:
    diff = build_patch(repo, requests(repo)).diff
    check = git(repo, "apply", "--check", "-", stdin=diff)
    assert check.returncode == 0, check.stderr
    done = git(repo, "apply", "-", stdin=diff)
    assert done.returncode == 0, done.stderr
    for rel, data in expected().items():
        assert (repo / rel).read_bytes() == data, rel


@pytest.mark.skipif(PATCH is None, reason="GNU patch not installed")
def test_gnu_patch_accepts_the_patch(repo: Path) -> None:
    diff = build_patch(repo, requests(repo)).diff
    dry = subprocess.run(["patch", "-p1", "--batch", "--dry-run"], cwd=repo, input=diff.encode(), capture_output=True, check=False)
    assert dry.returncode == 0, dry.stdout + dry.stderr
    real = subprocess.run(["patch", "-p1", "--batch"], cwd=repo, input=diff.encode(), capture_output=True, check=False)
    assert real.returncode == 0, real.stdout + real.stderr
    for rel, data in expected().items():
        assert (repo / rel).read_bytes() == data, rel


def test_apply_fixes_in_place_matches(repo: Path) -> None:
    (repo / "docs" / "win.md").chmod(0o640)
    result = apply_fixes(repo, requests(repo))
    assert not result.refused and len(result.exported) == 6
    for rel, data in expected().items():
        assert (repo / rel).read_bytes() == data, rel
    assert (repo / "docs" / "win.md").stat().st_mode & 0o777 == 0o640
    assert not list((repo / "docs").glob("*.caas-tmp"))


def test_stale_fix_is_refused_and_others_still_export(repo: Path) -> None:
    stale = req(repo, "docs/guide.md", 10, 10, "line ten")
    (repo / "docs" / "guide.md").write_text((repo / "docs" / "guide.md").read_text().replace("line 10\n", "line 10 edited\n"))
    fresh = req(repo, "docs/tail.md", 1, 1, "ONE")
    result = build_patch(repo, [stale, fresh])
    assert len(result.refused) == 1 and isinstance(result.refused[0], StaleError)
    assert str(result.refused[0]) == "docs/guide.md:10: the doc changed since this fix was proposed; not exported"
    assert result.files == ("docs/tail.md",) and "+ONE" in result.diff


def test_paths_outside_the_root_are_refused(repo: Path, tmp_path: Path) -> None:
    (tmp_path / "outside.md").write_text("x\n")
    bad = [FixRequest("../outside.md", Fix(1, 1, "y"), None, 1, 1),
           FixRequest(str(tmp_path / "outside.md"), Fix(1, 1, "y"), None, 1, 1)]
    result = apply_fixes(repo, [*bad, req(repo, "docs/tail.md", 1, 1, "ONE")])
    assert [type(e) for e in result.refused] == [PathOutsideRoot, PathOutsideRoot]
    assert (tmp_path / "outside.md").read_text() == "x\n"
    assert (repo / "docs" / "tail.md").read_bytes().startswith(b"ONE\n")


def test_fixes_sharing_a_line_merge_unless_they_collide(repo: Path) -> None:
    (repo / "docs" / "two.md").write_text("intro\nUse `foo` here. Then `bar` there.\nend\n")
    a = req(repo, "docs/two.md", 2, 2, "Use `fooz` here. Then `bar` there.")
    b = req(repo, "docs/two.md", 2, 2, "Use `foo` here. Then `baz` there.")
    merged = apply_fixes(repo, [a, b])
    assert not merged.refused
    assert (repo / "docs" / "two.md").read_text() == "intro\nUse `fooz` here. Then `baz` there.\nend\n"
    (repo / "docs" / "two.md").write_text("intro\nUse `foo` here.\nend\n")
    c = req(repo, "docs/two.md", 2, 2, "Use `one` here.")
    d = req(repo, "docs/two.md", 1, 2, "intro\nUse `two` here.")
    clash = build_patch(repo, [c, d])
    assert len(clash.refused) == 1 and isinstance(clash.refused[0], PatchError)
    assert "overlaps" in str(clash.refused[0])
    # the fix that starts first still exports; the colliding one is named
    assert "+Use `two` here." in clash.diff and "+Use `one` here." not in clash.diff
    assert str(clash.refused[0]) == "docs/two.md:2: fix for lines 2-2 overlaps the fix for lines 1-2; not exported"
