"""The command line's contract: JSON shape, JSON Lines, exit codes, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from caas_tui.cli.main import main

HIT_KEYS = {"rank", "path", "start_line", "end_line", "symbol", "kind", "score", "bm25_rank", "dense_rank", "snippet"}


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "caas_tui", *args], capture_output=True, text=True, timeout=300)


def test_search_json_contract(tiny_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "--root", str(tiny_project), "--json", "-k", "3", "remove_body"]) == 0
    out = capsys.readouterr().out.strip().split("\n")
    assert len(out) == 1
    payload = json.loads(out[0])
    assert payload["query"] == "remove_body"
    assert 1 <= len(payload["hits"]) <= 3
    first = payload["hits"][0]
    assert set(first) == HIT_KEYS
    assert first["rank"] == 1 and first["path"] == "pkg/world.py"
    assert first["symbol"] == "pkg.world.World.remove_body"
    assert first["start_line"] >= 1 and first["end_line"] >= first["start_line"]
    assert isinstance(first["score"], float)
    assert "\\" not in first["path"]


def test_search_queries_file_prints_json_lines_in_order(tiny_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    qfile = tiny_project.parent / "queries.txt"
    qfile.write_text("scheduler defer\n\nremove_body\nguide bodies\n")
    assert main(["search", "--root", str(tiny_project), "--json", "--queries", str(qfile), "--mode", "bm25"]) == 0
    lines = capsys.readouterr().out.strip().split("\n")
    assert [json.loads(x)["query"] for x in lines] == ["scheduler defer", "remove_body", "guide bodies"]
    for line in lines:
        for hit in json.loads(line)["hits"]:
            assert hit["dense_rank"] is None


def test_kind_filter_and_table(
    tiny_project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["search", "--root", str(tiny_project), "--kind", "doc", "--json", "body"]) == 0
    hits = json.loads(capsys.readouterr().out)["hits"]
    assert hits and {h["kind"] for h in hits} == {"doc"}
    assert main(["search", "--root", str(tiny_project), "remove body"]) == 0
    assert "remove_body" in capsys.readouterr().out


def test_errors_are_one_line_with_exit_2(tmp_path: Path) -> None:
    bad = _run("search", "--root", str(tmp_path / "nope"), "--json", "x")
    assert bad.returncode == 2
    assert bad.stderr.strip().count("\n") == 0 and "nope" in bad.stderr and "Traceback" not in bad.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    res = _run("search", "--root", str(empty), "--json", "x")
    assert res.returncode == 2 and "Traceback" not in res.stderr


def test_unreadable_index_is_one_line(tiny_project: Path) -> None:
    (tiny_project / ".caas").mkdir()
    (tiny_project / ".caas" / "index").write_text("not a directory")
    res = _run("index", "--root", str(tiny_project))
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr and res.stderr.strip().count("\n") == 0


def test_index_command_is_incremental(tiny_project: Path) -> None:
    first = _run("index", "--root", str(tiny_project), "--json")
    assert first.returncode == 0, first.stderr
    summary = json.loads(first.stdout)
    assert summary["rebuilt"] and summary["chunks"] > 5
    (tiny_project / "pkg" / "sched.py").write_text('"""Changed."""\n')
    second = json.loads(_run("index", "--root", str(tiny_project), "--json").stdout)
    assert (second["added"], second["changed"], second["removed"], second["rebuilt"]) == (0, 1, 0, False)
