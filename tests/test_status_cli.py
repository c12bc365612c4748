"""``caas-tui status``: the JSON contract, drift by git history with controlled dates,
stale verdicts, and the promise never to build, repair or refresh the index."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from caas_tui.cli.main import main
from caas_tui.config import load_config
from caas_tui.index.manifest import MANIFEST_NAME
from caas_tui.models import Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims import extract_claims
from caas_tui.review.decisions.store import VerdictStore
from caas_tui.review.textutil import split_lines

T1, T2, T3 = "2024-01-01T00:00:00Z", "2024-03-01T00:00:00Z", "2024-04-01T00:00:00Z"
TOP_KEYS = {"root", "index_age_s", "indexed_at", "changed_files", "stale_verdicts", "drift", "dates_from"}
DRIFT_KEYS = {"doc", "line", "symbol", "symbol_path", "symbol_changed", "doc_changed"}


def _commit(root: Path, when: str, message: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    for args in (["add", "-A"], ["commit", "-qm", message]):
        subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)


@pytest.fixture()
def git_project(tiny_project: Path) -> Path:
    """guide.md (T1) mentions World.remove_body and World.add_body; remove_body changes at T2;
    later.md (T3) mentions remove_body too."""
    root = tiny_project
    (root / ".gitignore").write_text(".caas/\n")
    (root / "docs/guide.md").write_text(
        "# Guide\n\n## Bodies\n\nCall `World.remove_body` to delete a body immediately.\n\n"
        "Use `World.add_body` to add one.\n"
    )
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, check=True)
    _commit(root, T1, "one")
    world = root / "pkg/world.py"
    world.write_text(world.read_text().replace("self.scheduler.defer(name)", "self.bodies.remove(name)"))
    _commit(root, T2, "remove_body removes at once")
    (root / "docs/later.md").write_text("# Later\n\n`World.remove_body` removes the body at once.\n")
    _commit(root, T3, "later doc")
    Engine.open(root).close()
    return root


def _status(root: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str, str]:
    code = main(["status", "--root", str(root), *extra])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_no_index_is_one_line_and_exit_2(tiny_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _status(tiny_project, capsys, "--json")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "no index" in err
    assert not (tiny_project / ".caas/index").exists(), "status must not build an index"


def test_interrupted_index_is_reported_not_repaired(git_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = git_project / ".caas/index" / MANIFEST_NAME
    data = json.loads(manifest.read_text())
    manifest.write_text(json.dumps({**data, "state": "dirty"}))
    code, _out, err = _status(git_project, capsys)
    assert code == 2 and "interrupted" in err
    assert json.loads(manifest.read_text())["state"] == "dirty"


def test_status_json_contract_drift_changes_and_stale_verdicts(git_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = git_project
    engine = Engine.open(root, refresh=False)
    try:
        text = (root / "docs/guide.md").read_text()
        claim = next(c for c in extract_claims("docs/guide.md", text) if "remove_body" in c.text)
        with VerdictStore.open(engine.cfg) as store:
            # judged against different doc lines than are there now: stale on disk, not yet marked
            store.record(claim, Verdict(claim.id, "consistent", "static", "ok", doc_sha256="0" * 64))
    finally:
        engine.close()
    manifest = root / ".caas/index" / MANIFEST_NAME
    before = (manifest.read_bytes(), manifest.stat().st_mtime_ns)
    (root / "docs/new.md").write_text("# New\n")
    (root / "tests/test_world.py").unlink()
    sched = root / "pkg/sched.py"
    sched.write_text(sched.read_text() + "\n# edited\n")
    os.utime(root / "pkg/__init__.py")  # a touch is not a change

    code, out, _err = _status(root, capsys, "--json")
    assert code == 0
    report = json.loads(out)
    assert set(report) == TOP_KEYS
    assert report["root"] == str(root.resolve()) and report["dates_from"] == "git"
    assert report["index_age_s"] >= 0 and report["indexed_at"].endswith("Z")
    assert report["changed_files"] == [
        {"path": "docs/new.md", "change": "added"},
        {"path": "pkg/sched.py", "change": "changed"},
        {"path": "tests/test_world.py", "change": "removed"},
    ]
    guide_line = split_lines((root / "docs/guide.md").read_text()).index(
        "Call `World.remove_body` to delete a body immediately.") + 1
    assert report["drift"] == [
        {"doc": "docs/guide.md", "line": guide_line, "symbol": "pkg.world.World.remove_body",
         "symbol_path": "pkg/world.py", "symbol_changed": "2024-03-01T00:00:00Z", "doc_changed": "2024-01-01T00:00:00Z"},
    ], "add_body's lines did not change after the guide; later.md is newer than the change"
    assert all(set(d) == DRIFT_KEYS for d in report["drift"])
    [stale] = report["stale_verdicts"]
    assert stale["claim_id"] == claim.id and stale["doc"] == "docs/guide.md" and "changed" in stale["reason"]

    assert (manifest.read_bytes(), manifest.stat().st_mtime_ns) == before, "status must not touch the index"
    with VerdictStore.open(load_config(root)) as store:
        assert store.all()[0].verdict.verdict == "consistent", "status must not mark verdicts"


def test_status_text_report_keeps_brackets_in_file_names(git_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (git_project / "docs/notes[red].md").write_text("# Notes\n")
    code, out, _err = _status(git_project, capsys)
    assert code == 0
    assert "docs/notes[red].md" in out
    assert "pkg.world.World.remove_body" in out and "2024-03-01" in out


def test_drift_by_mtime_outside_git(tiny_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tiny_project
    for path in root.rglob("*"):
        os.utime(path, (1_700_000_000, 1_700_000_000))
    os.utime(root / "pkg/sched.py", (1_700_000_500, 1_700_000_500))  # guide.md mentions nothing of it
    Engine.open(root).close()
    _status(root, capsys, "--json")
    os.utime(root / "pkg/world.py", (1_700_000_500, 1_700_000_500))
    code, out, _err = _status(root, capsys, "--json")
    assert code == 0
    report = json.loads(out)
    assert report["dates_from"] == "mtime"
    symbols = {d["symbol"] for d in report["drift"] if d["doc"] == "docs/guide.md"}
    assert "pkg.world.World.remove_body" in symbols
    assert {d["symbol_path"] for d in report["drift"]} == {"pkg/world.py"}
    assert {d["symbol_changed"] for d in report["drift"]} == {"2023-11-14T22:21:40Z"}


def test_broken_index_part_is_reported_not_rebuilt(git_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    index = git_project / ".caas/index"
    (index / "vectors").rename(git_project / "vectors.moved")
    listing = sorted(p.name for p in index.iterdir())
    code, out, err = _status(git_project, capsys, "--json")
    assert code == 2 and out == "" and "caas-tui index" in err
    assert sorted(p.name for p in index.iterdir()) == listing
