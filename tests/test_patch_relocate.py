"""A fix accepted before a line was inserted above its claim still exports, onto the
line the claim is on now, whether or not the verdict store has been told it moved."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from caas_tui.cli.main import main
from caas_tui.config import load_config
from caas_tui.errors import StaleError
from caas_tui.models import Claim, Fix, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims import extract_claims
from caas_tui.review.decisions.patch import build_patch, requests_from
from caas_tui.review.decisions.staleness import update
from caas_tui.review.decisions.store import VerdictStore
from caas_tui.review.textutil import span_sha256, split_lines

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")

DOC = "docs/guide.md"
BODY = "# Guide\n\nBodies are removed at the end of the frame.\n\nCall `remove_body` to delete a body now.\n\nThe end.\n"
FIXED = "Call `remove_body` to queue a body for removal."


def git(root: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=root, input=stdin, text=True, capture_output=True, check=False)


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / DOC).write_text(BODY)
    (root / ".gitignore").write_text(".caas/\n")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init")
    return root


def accept_fix(root: Path, *, edited: str | None = None) -> Claim:
    text = (root / DOC).read_text()
    claim = next(c for c in extract_claims(DOC, text) if "remove_body" in c.text)
    lines = split_lines(text)
    verdict = Verdict(claim.id, "contradicted", "static", "removal is deferred",
                      fix=Fix(claim.start_line, claim.end_line, FIXED),
                      doc_sha256=span_sha256(lines, claim.start_line, claim.end_line))
    with VerdictStore.open(load_config(root)) as store:
        store.record(claim, verdict)
        store.decide(DOC, claim.id, "static", "edited" if edited else "accepted", edited)
    return claim


def insert_above(root: Path, claim: Claim, extra: str) -> None:
    lines = (root / DOC).read_text().split("\n")
    lines[claim.start_line - 1 : claim.start_line - 1] = extra.split("\n")
    (root / DOC).write_text("\n".join(lines))
    git(root, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qam", "insert")  # apply onto the new file


def check_applies(root: Path, diff: str, line: int, expected: str) -> None:
    assert git(root, "apply", "--check", "-", stdin=diff).returncode == 0, diff
    done = git(root, "apply", "-", stdin=diff)
    assert done.returncode == 0, done.stderr
    lines = split_lines((root / DOC).read_text())
    assert lines[line - 1] == expected
    assert sum(a != b for a, b in zip(lines, split_lines(git(root, "show", f"HEAD:{DOC}").stdout), strict=False)) == 1


def test_fix_exports_after_the_store_relocated_its_claim(repo: Path) -> None:
    claim = accept_fix(repo)
    insert_above(repo, claim, "A new paragraph above.\n")
    engine = Engine.open(repo)
    try:
        with VerdictStore.open(engine.cfg) as store:
            assert update(engine, store) == []  # what the watcher does after the save
            requests = requests_from(store.accepted_fixes())
    finally:
        engine.close()
    assert [(r.claim_start, r.fix.start_line) for r in requests] == [(claim.start_line + 2, claim.start_line + 2)]
    result = build_patch(repo, requests)
    assert not result.refused
    check_applies(repo, result.diff, claim.start_line + 2, FIXED)


def test_cli_export_follows_a_moved_claim_the_store_was_not_told_about(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    claim = accept_fix(repo, edited="Call `remove_body` to remove a body at frame end.")
    insert_above(repo, claim, "")
    out = repo.parent / "fixes.patch"
    assert main(["export", "--root", str(repo), "--out", str(out)]) == 0, capsys.readouterr().err
    check_applies(repo, out.read_text(), claim.start_line + 1, "Call `remove_body` to remove a body at frame end.")


def test_an_edited_claim_is_still_refused(repo: Path) -> None:
    claim = accept_fix(repo)
    insert_above(repo, claim, "New.\n")
    (repo / DOC).write_text((repo / DOC).read_text().replace("delete a body now", "delete a body soon"))
    with VerdictStore.open(load_config(repo)) as store:
        result = build_patch(repo, requests_from(store.accepted_fixes()))
    assert result.diff == "" and [type(e) for e in result.refused] == [StaleError]
