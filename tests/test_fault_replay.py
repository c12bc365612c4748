"""The tester's fault table (issue 16), replayed row by row: each case as it was reported."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from caas_tui.cli.main import main
from caas_tui.retrieve.engine import Engine

from .conftest import write

ROOT = Path(__file__).resolve().parents[1]


def _index_dir(root: Path) -> Path:
    return root / ".caas" / "index"


def _bm25(engine: Engine, queries: list[str]) -> list[list[str]]:
    return [[h.chunk.id for h in engine.search(q, 5, mode="bm25")] for q in queries]


# -- row 1: manifest.json of the wrong shape ------------------------------------------------
@pytest.mark.parametrize("body", ["null", "[1,2,3]", '{"files": []}', '{"model_id": 3, "dims": "x"}', '"text"'])
def test_row1_manifest_of_wrong_shape_is_one_line_and_a_rebuild(
    tiny_project: Path, body: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["index", "--root", str(tiny_project)]) == 0
    (_index_dir(tiny_project) / "manifest.json").write_text(body, encoding="utf-8")
    capsys.readouterr()
    # a read-only command: one line, exit 2, no traceback
    assert main(["status", "--root", str(tiny_project)]) == 2
    err = capsys.readouterr().err
    assert "unreadable index manifest" in err and "Traceback" not in err
    assert len([line for line in err.splitlines() if line.strip()]) == 1
    # a command that may write: one line, then a rebuild that answers
    assert main(["search", "--root", str(tiny_project), "remove_body"]) == 0
    out = capsys.readouterr()
    assert "unreadable index manifest" in out.err and "rebuilding" in out.err
    assert "remove_body" in out.out
    assert json.loads((_index_dir(tiny_project) / "manifest.json").read_text())["state"] == "clean"


def test_row1_manifest_of_wrong_shape_in_the_app_session_and_mcp(tiny_project: Path) -> None:
    Engine.open(tiny_project).close()
    (_index_dir(tiny_project) / "manifest.json").write_text('{"files": []}', encoding="utf-8")
    notices: list[str] = []
    engine = Engine.open(tiny_project, notify=notices.append)  # what Session and the MCP server call
    try:
        assert any("unreadable index manifest" in n for n in notices)
        assert engine.search("remove_body", 1)[0].chunk.symbol == "pkg.world.World.remove_body"
    finally:
        engine.close()


# -- row 2: random bytes inside a Whoosh segment ----------------------------------------------
def test_row2_random_bytes_inside_a_whoosh_segment_are_detected_and_rebuilt(
    tiny_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    queries = ["remove body", "scheduler defer", "world", "add_body mass", "frame end", "deferred removal"]
    engine = Engine.open(tiny_project)
    try:
        before = _bm25(engine, queries)
    finally:
        engine.close()
    segments = sorted((_index_dir(tiny_project) / "lexical").glob("*.seg"))
    assert segments
    seg = max(segments, key=lambda p: p.stat().st_size)
    data = bytearray(seg.read_bytes())
    rng = random.Random(16)
    start = rng.randrange(0, max(1, len(data) // 2))
    noise = rng.randbytes(min(80_000, len(data) - start))
    data[start : start + len(noise)] = noise
    seg.write_bytes(bytes(data))
    capsys.readouterr()
    assert main(["status", "--root", str(tiny_project)]) == 2
    assert "corrupt" in capsys.readouterr().err
    assert main(["index", "--root", str(tiny_project)]) == 0
    err = capsys.readouterr().err
    assert "corrupt (checksum mismatch); rebuilding" in err
    engine = Engine.open(tiny_project)
    try:
        assert not engine.store.last_stats or not engine.store.last_stats.rebuilt
        assert _bm25(engine, queries) == before
    finally:
        engine.close()


# -- row 6: search while index refreshes an existing index ------------------------------------
def test_row6_search_while_index_refreshes_uses_the_last_good_index(tiny_project: Path) -> None:
    Engine.open(tiny_project).close()
    for i in range(40):  # enough work for the refresh to take a while
        write(tiny_project, f"pkg/extra_{i}.py", "\n".join(f"def helper_{i}_{j}():\n    return {j}\n" for j in range(60)))
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    cmd = [sys.executable, "-m", "caas_tui", "index", "--root", str(tiny_project)]
    writer = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    answers: list[str] = []
    try:
        lock = tiny_project / ".caas" / "index.lock"
        deadline = time.monotonic() + 60
        while writer.poll() is None and time.monotonic() < deadline:
            engine = Engine.open(tiny_project, notify=answers.append)
            try:
                top = engine.search("remove_body", 1)[0].chunk.symbol
                assert top == "pkg.world.World.remove_body"
                answers.append(f"hit {top}")
            finally:
                engine.close()
            assert lock.exists()
    finally:
        out, err = writer.communicate(timeout=120)
    assert writer.returncode == 0, err
    assert any(a.startswith("hit") for a in answers)
    assert not any("another caas-tui process is building" in a for a in answers)


# -- rows 3 and 4: review of a 20 MB .py, review of a binary ----------------------------------
def test_row3_review_of_a_20_mb_python_file_is_refused_in_one_line(
    tiny_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tiny_project / "pkg" / "huge.py"
    line = 'def f():\n    """Return the value, which is always 42."""\n    return 42\n'
    big.write_text(line * (20_000_000 // len(line)), encoding="utf-8")
    assert big.stat().st_size > 19_000_000
    capsys.readouterr()
    started = time.perf_counter()
    assert main(["review", "--root", str(tiny_project), str(big)]) == 2
    err = capsys.readouterr().err
    assert time.perf_counter() - started < 30
    assert "pkg/huge.py: over the 1 MB size cap" in err
    assert len([x for x in err.splitlines() if "huge.py" in x]) == 1


def test_row4_review_of_a_binary_is_refused(tiny_project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blob = tiny_project / "x.bin"
    blob.write_bytes(random.Random(4).randbytes(4096) + b"\0" + b"The world returns 42.\n")
    capsys.readouterr()
    assert main(["review", "--root", str(tiny_project), str(blob)]) == 2
    err = capsys.readouterr().err
    assert "x.bin: binary file" in err


# -- row 7: export --apply --out /dev/full -----------------------------------------------------
def _shop(tmp_path: Path) -> Path:
    root = tmp_path / "shop_proj"
    write(root, "shop/__init__.py", "")
    write(root, "shop/core.py", '''
        class Store:
            def put(self, key: str, value: object, *, replace: bool = False) -> None:
                pass
        ''')
    write(root, "docs/bad.md", """
        # Store

        Call `Store.puts` to add a value.
        """)
    return root


def _accept_first_fix(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from caas_tui.config import load_config
    from caas_tui.review.decisions.store import VerdictStore

    assert main(["review", "--root", str(root), "--json", "docs/bad.md"]) == 0
    claim = json.loads(capsys.readouterr().out)["claims"][0]
    with VerdictStore.open(load_config(root)) as store:
        store.decide("docs/bad.md", claim["id"], "static", "accepted")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_row7_export_apply_to_dev_full_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _shop(tmp_path)
    _accept_first_fix(root, capsys)
    before = (root / "docs/bad.md").read_bytes()
    assert main(["export", "--root", str(root), "--apply", "--out", "/dev/full"]) == 2
    err = capsys.readouterr().err
    assert "/dev/full: cannot write" in err
    assert (root / "docs/bad.md").read_bytes() == before  # not applied
    assert Path("/dev/full").is_char_device()  # written through, never replaced
    # the fix is still pending: a working --out gets it, then applies it
    out = tmp_path / "fix.patch"
    assert main(["export", "--root", str(root), "--apply", "--out", str(out)]) == 0
    assert "Store.put" in out.read_text() and "Store.put`" in (root / "docs/bad.md").read_text()


# -- row 10: status on a copy that is not a git work tree ------------------------------------
def test_row10_status_outside_git_equal_times_no_drift_and_skipped_is_skipped(
    tiny_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tiny_project
    (root / "pkg" / "blob.py").write_bytes(b"\0\1\2 binary")
    # a copy stamps the tree within a moment: code and docs sub-second apart, "the same time"
    for i, path in enumerate(sorted(root.rglob("*"))):
        os.utime(path, (1_700_000_000 + i * 0.01, 1_700_000_000 + i * 0.01))
    Engine.open(root).close()
    for _ in range(2):  # "on every run"
        capsys.readouterr()
        assert main(["status", "--root", str(root), "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert report["dates_from"] == "mtime"
        assert report["drift"] == []
        assert [(c["path"], c["change"]) for c in report["changed_files"]] == [("pkg/blob.py", "skipped")]
        assert "binary" in report["changed_files"][0]["reason"]


# -- row 8: a Markdown code fence that is never closed ----------------------------------------
def test_row8_unclosed_fence_warns_with_its_line_and_the_prose_after_is_reviewed(
    tiny_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tiny_project, "docs/broken.md", """
        # Broken

        Call `World.add_body` to add a body.

        ```python
        w = World()

        Afterwards `World.remove_bodies` removes it at the end of the step.
        """)
    capsys.readouterr()
    assert main(["review", "--root", str(tiny_project), "--json", "docs/broken.md"]) == 0
    out = capsys.readouterr()
    assert "docs/broken.md:5: code fence is never closed" in out.err
    texts = [c["text"] for c in json.loads(out.out)["claims"]]
    after = [t for t in texts if "remove_bodies" in t]
    assert after and not any("w = World()" in t and "remove_bodies" in t for t in texts)


# -- row 9: .gitignore ignores docs/ -----------------------------------------------------------
def test_row9_gitignored_docs_are_counted_and_named_by_review_check(
    tiny_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tiny_project / ".gitignore").write_text("docs/\n", encoding="utf-8")
    write(tiny_project, "docs/more.md", "# More\n\nSee `World.add_body`.\n")
    capsys.readouterr()
    main(["review", "--root", str(tiny_project), "--check"])
    err = capsys.readouterr().err
    assert "2 docs left out, not reviewed: ignored by .gitignore" in err
    assert "docs/guide.md" in err and "docs/more.md" in err


# -- row 5: the size cap raised to index a 20 MB file -----------------------------------------
def test_row5_a_20_mb_file_under_a_raised_cap_indexes_in_bounded_memory_with_progress(tiny_project: Path) -> None:
    (tiny_project / "caas.toml").write_text("[index]\nmax_file_bytes = 30000000\n", encoding="utf-8")
    line = 'def f():\n    """Return the value, which is always 42."""\n    return 42\n\n'
    (tiny_project / "pkg" / "huge.py").write_text(line * (20_000_000 // len(line)), encoding="utf-8")
    code = (
        "import resource, sys\n"
        "from caas_tui.cli.main import main\n"
        f"rc = main(['index', '--root', {str(tiny_project)!r}])\n"
        "print('RSS_KB', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
        "sys.exit(rc)\n"
    )
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    seconds = time.perf_counter() - started
    assert done.returncode == 0, done.stderr
    rss_mb = int(done.stderr.split("RSS_KB")[1].split()[0]) / 1024
    assert rss_mb < 1_000, rss_mb
    assert "pkg/huge.py:" in done.stderr and "indexed the first 5000" in done.stderr
    assert seconds < 5 or "caas-tui: " in done.stderr.split("RSS_KB")[0]  # a progress line when slow
