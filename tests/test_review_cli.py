"""``caas-tui review`` / ``caas-tui export`` end to end on a real project and index."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from caas_tui.cli.main import main
from caas_tui.config import load_config
from caas_tui.review.decisions.store import VerdictStore

from .conftest import write

GIT = shutil.which("git")


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    write(root, "shop/__init__.py", "")
    write(root, "shop/core.py", '''
        class Store:
            """Keeps things.

            Args:
                size: How many. Defaults to 8.
            """

            def __init__(self, size: int = 8) -> None:
                self.size = size

            def put(self, key: str, value: object, *, replace: bool = False) -> None:
                pass
        ''')
    write(root, "docs/bad.md", """
        # Store

        Call `Store.puts` to add a value.
        The `replace` flag of `Store.put` defaults to `False`.
        """)
    write(root, "docs/good.md", """
        # Store

        `Store.put` adds a value; its `replace` flag defaults to `False`.
        Nothing here is wrong.
        """)
    if GIT:
        subprocess.run(["git", "init", "-q"], cwd=root, check=True)
        (root / ".gitignore").write_text(".caas/\n")
        subprocess.run(["git", "add", "-A"], cwd=root, check=True)
        subprocess.run(["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init"], cwd=root, check=True)
    return root


def test_review_json_contract_and_store(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", "--root", str(project), "--json", "docs/bad.md", str(project / "docs/good.md")]) == 0
    lines = capsys.readouterr().out.strip().split("\n")
    assert len(lines) == 2
    bad, good = (json.loads(line) for line in lines)
    assert bad["doc"] == "docs/bad.md" and bad["reviewer"] == "static" and good["doc"] == "docs/good.md"
    first = bad["claims"][0]
    assert set(first) == {"id", "line", "end_line", "text", "verdict", "rationale", "evidence", "fix"}
    assert first["line"] == 3 and first["end_line"] == 3 and first["verdict"] == "contradicted"
    assert first["rationale"] == "`Store.puts` does not exist; did you mean `put`?"
    assert first["evidence"] == [{"path": "shop/core.py", "start_line": 1, "end_line": 6, "symbol": "shop.core.Store"}]
    assert first["fix"] == {"start_line": 3, "end_line": 3, "replacement": "Call `Store.put` to add a value."}
    # the default is checked, what `Store.put` does ("adds a value") is not: unverified, and it says so
    assert [c["verdict"] for c in good["claims"]] == ["unverified", "unverified"]
    assert "what `Store.put` does (“adds a value”) was not" in good["claims"][0]["rationale"]
    assert "action:unchecked" in good["claims"][0]["coverage"] and "default:checked" in good["claims"][0]["coverage"]
    assert all(c["fix"] is None for c in good["claims"])
    with VerdictStore.open(load_config(project)) as store:
        assert store.docs() == ["docs/bad.md", "docs/good.md"]
        assert len(store.all("docs/bad.md")) == len(bad["claims"])


def test_check_exit_codes_and_lines(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", "--root", str(project), "--check", "docs/good.md"]) == 0
    assert capsys.readouterr().out == ""
    assert main(["review", "--root", str(project), "--check"]) == 1  # every doc and module
    out = capsys.readouterr().out.strip().split("\n")
    assert out == ["docs/bad.md:3: contradicted: `Store.puts` does not exist; did you mean `put`?"]


def test_missing_doc_is_a_one_line_error(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", "--root", str(project), "docs/nope.md"]) == 2
    assert capsys.readouterr().err.strip() == "caas-tui: error: docs/nope.md: no such file"


def test_claude_without_key_falls_back_with_one_line(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert main(["review", "--root", str(project), "--reviewer", "claude", "--json", "docs/good.md"]) == 0
    captured = capsys.readouterr()
    assert [ln for ln in captured.err.split("\n") if "ANTHROPIC" in ln] == [
        "caas-tui: ANTHROPIC_API_KEY is not set; using the static reviewer"
    ]
    assert json.loads(captured.out)["reviewer"] == "static"


def test_rich_summary_prints_file_text_verbatim(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, "docs/markup.md", "Call `Store.puts` now [red]x[/red] [bold].\n")
    assert main(["review", "--root", str(project), "docs/markup.md"]) == 0
    out = capsys.readouterr().out
    assert "docs/markup.md: 1 claims (1 contradicted)" in out and "[red]x[/red] [bold]" in out


def test_export_without_accepted_fixes(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "--root", str(project)]) == 0
    assert "no accepted fixes" in capsys.readouterr().err
    main(["review", "--root", str(project), "--json", "docs/bad.md"])
    capsys.readouterr()
    assert main(["export", "--root", str(project)]) == 0
    assert "no accepted fixes to export" in capsys.readouterr().err


@pytest.mark.skipif(GIT is None, reason="git not installed")
def test_export_out_then_git_apply_and_export_apply(project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", "--root", str(project), "--json", "docs/bad.md"]) == 0
    claim = json.loads(capsys.readouterr().out)["claims"][0]
    with VerdictStore.open(load_config(project)) as store:
        store.decide("docs/bad.md", claim["id"], "static", "accepted")
    out = tmp_path / "fixes.patch"
    assert main(["export", "--root", str(project), "--out", str(out)]) == 0
    assert "exported 1 fix to 1 file" in capsys.readouterr().err
    applied = subprocess.run(["git", "apply", str(out)], cwd=project, capture_output=True, text=True, check=False)
    assert applied.returncode == 0, applied.stderr
    assert "Call `Store.put` to add a value." in (project / "docs/bad.md").read_text()
    # the doc now differs from what was judged: exporting again refuses the stale fix
    assert main(["export", "--root", str(project)]) == 1
    assert "docs/bad.md:3: the doc changed since this fix was proposed; not exported" in capsys.readouterr().err
    subprocess.run(["git", "checkout", "--", "docs/bad.md"], cwd=project, check=True)
    assert main(["export", "--root", str(project), "--apply"]) == 0
    assert "applied 1 fix to 1 file" in capsys.readouterr().err
    assert "Call `Store.put` to add a value." in (project / "docs/bad.md").read_text()
    # an applied fix is done: the next export has nothing left to do
    assert main(["export", "--root", str(project)]) == 0
    assert "no accepted fixes to export" in capsys.readouterr().err
