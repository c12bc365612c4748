"""``caas-tui export``: where the patch goes (``<index dir>/exports/`` unless ``--out``), the
full path it prints, and the summary of every accepted verdict (fix, "no fix to export",
refusals in full)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from caas_tui.cli.main import main
from caas_tui.config import load_config
from caas_tui.models import Claim, Fix, Verdict
from caas_tui.review.decisions.patch import build_patch, export_summary, requests_from
from caas_tui.review.decisions.store import VerdictStore
from caas_tui.review.textutil import span_sha256, split_lines

GUIDE = "docs/guide.md"
# A path long enough that a refusal naming it runs far past any terminal width.
DEEP = "docs/" + "/".join(f"a-rather-long-section-name-{i}" for i in range(6)) + "/deep.md"
GUIDE_TEXT = "# Guide\nUse `x` to add.\n\nCall `y` twice.\n\nRun `z` first.\n"


def claim(cid: str, doc: str, line: int, text: str) -> Claim:
    return Claim(cid, doc, line, line, text, "prose", (), (), "Guide", "")


def sha(root: Path, doc: str, line: int) -> str:
    return span_sha256(split_lines((root / doc).read_text()), line, line)


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "docs").mkdir(parents=True)
    (root / GUIDE).write_text(GUIDE_TEXT)
    (root / DEEP).parent.mkdir(parents=True)
    (root / DEEP).write_text("Use `old` here.\n")
    return root


def decide_all(root: Path, index_dir: Path | None = None) -> None:
    """c1 has a fix (exported), c2 none (accepted all the same), c3's doc changed since (refused),
    c4 was rejected (not in the summary)."""
    cfg = load_config(root, index_dir=index_dir)
    with VerdictStore.open(cfg) as store:
        store.record(claim("c1", GUIDE, 2, "Use `x` to add."),
                     Verdict("c1", "contradicted", "static", "no `x`", fix=Fix(2, 2, "Use `w` to add."),
                             doc_sha256=sha(root, GUIDE, 2)))
        store.record(claim("c2", GUIDE, 4, "Call `y` twice."),
                     Verdict("c2", "incomplete", "static", "`y` takes an argument", doc_sha256=sha(root, GUIDE, 4)))
        store.record(claim("c3", DEEP, 1, "Use `old` here."),
                     Verdict("c3", "contradicted", "static", "no `old`", fix=Fix(1, 1, "Use `new` here."),
                             doc_sha256="not what the doc reads now"))
        store.record(claim("c4", GUIDE, 6, "Run `z` first."),
                     Verdict("c4", "contradicted", "static", "no `z`", fix=Fix(6, 6, "Run `q` first."),
                             doc_sha256=sha(root, GUIDE, 6)))
        for cid, doc, decision in (("c1", GUIDE, "accepted"), ("c2", GUIDE, "accepted"), ("c3", DEEP, "accepted"),
                                   ("c4", GUIDE, "rejected")):
            store.decide(doc, cid, "static", decision)


def err_lines(err: str) -> list[str]:
    return [ln.removeprefix("caas-tui: ") for ln in err.splitlines()]


def test_default_writes_under_index_dir_exports_and_prints_full_path(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    decide_all(project)
    assert main(["export", "--root", str(project)]) == 1  # c3 refused
    captured = capsys.readouterr()
    assert captured.out == ""  # the patch went to a file, not stdout
    (written,) = (project / ".caas" / "exports").glob("caas-fixes-*.patch")
    assert f"wrote {written.resolve()}" in err_lines(captured.err)
    assert "+Use `w` to add." in written.read_text() and "Run `q`" not in written.read_text()
    assert [p for p in project.iterdir() if p.suffix == ".patch"] == []  # nothing loose in the root
    # a second export never overwrites the first
    assert main(["export", "--root", str(project)]) == 1
    assert len(list((project / ".caas" / "exports").glob("caas-fixes-*.patch"))) == 2


def test_default_follows_a_configured_index_dir(project: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    index_dir = tmp_path / "elsewhere"
    decide_all(project, index_dir)
    assert main(["export", "--root", str(project), "--index-dir", str(index_dir)]) == 1
    (written,) = (index_dir / "exports").glob("caas-fixes-*.patch")
    assert f"wrote {written.resolve()}" in err_lines(capsys.readouterr().err)
    assert not (project / ".caas").exists()


def test_out_is_respected_and_dash_is_stdout(project: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    decide_all(project)
    out = tmp_path / "some" / "dir" / "fixes.patch"
    assert main(["export", "--root", str(project), "--out", str(out)]) == 1
    assert f"wrote {out.resolve()}" in err_lines(capsys.readouterr().err)
    assert "+Use `w` to add." in out.read_text()
    assert not (project / ".caas" / "exports").exists()
    assert main(["export", "--root", str(project), "--out", "-"]) == 1
    captured = capsys.readouterr()
    assert captured.out == out.read_text()
    assert not any(ln.startswith("wrote ") for ln in err_lines(captured.err))
    if shutil.which("git"):
        subprocess.run(["git", "init", "-q"], cwd=project, check=True)
        check = subprocess.run(["git", "apply", "--check", str(out)], cwd=project, capture_output=True, text=True,
                               check=False)
        assert check.returncode == 0, check.stderr


def test_summary_lists_every_accepted_verdict_and_whole_refusals(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    decide_all(project)
    assert main(["export", "--root", str(project)]) == 1
    lines = err_lines(capsys.readouterr().err)
    assert f"{GUIDE}:2: accepted (contradicted): fix for line 2" in lines
    assert f"{GUIDE}:4: accepted (incomplete): no fix to export" in lines
    assert f"{DEEP}:1: accepted (contradicted): fix for line 1 not exported (reason below)" in lines
    reason = f"{DEEP}:1: the doc changed since this fix was proposed; not exported"
    assert len(reason) > 200 and reason in lines  # printed whole, on one line
    assert not any(ln.startswith(f"{GUIDE}:6") for ln in lines)  # rejected: not an export's business
    assert "exported 1 fix to 1 file (1 refused)" in lines


def test_accepted_without_any_fix_is_still_listed(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with VerdictStore.open(load_config(project)) as store:
        store.record(claim("c2", GUIDE, 4, "Call `y` twice."),
                     Verdict("c2", "incomplete", "static", "`y` takes an argument"))
        store.decide(GUIDE, "c2", "static", "accepted")
    assert main(["export", "--root", str(project)]) == 0
    lines = err_lines(capsys.readouterr().err)
    assert lines == [f"{GUIDE}:4: accepted (incomplete): no fix to export", "no accepted fixes to export"]
    assert not (project / ".caas" / "exports").exists()


def test_apply_writes_the_patch_first_then_the_docs(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    decide_all(project)
    assert main(["export", "--root", str(project), "--apply"]) == 1
    lines = err_lines(capsys.readouterr().err)
    (written,) = (project / ".caas" / "exports").glob("caas-fixes-*.patch")
    assert f"wrote {written.resolve()}" in lines and "applied 1 fix to 1 file (1 refused)" in lines
    assert "Use `w` to add." in (project / GUIDE).read_text()
    assert "+Use `w` to add." in written.read_text()  # kept: `git apply -R` undoes the apply


def test_summary_is_one_function_the_app_shares(project: Path) -> None:
    decide_all(project)
    with VerdictStore.open(load_config(project)) as store:
        stored = store.all()
        result = build_patch(project, requests_from(store.accepted_fixes()))
    summary = export_summary(stored, result)
    assert summary[:3] == [
        f"{DEEP}:1: accepted (contradicted): fix for line 1 not exported (reason below)",
        f"{GUIDE}:2: accepted (contradicted): fix for line 2",
        f"{GUIDE}:4: accepted (incomplete): no fix to export",
    ]
    assert summary[3:] == result.messages
