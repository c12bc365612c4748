"""issue 18: the sandbox limits, the session semantics and the verdicts of the execute reviewer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from caas_tui.models import Claim
from caas_tui.review.execute.blocks import plan_block
from caas_tui.review.execute.sandbox import NO_BWRAP_WARNING, Limits, bwrap_path
from caas_tui.review.execute.session import run_session

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_project"
needs_bwrap = pytest.mark.skipif(bwrap_path() is None, reason="bubblewrap not installed")
LIMITS = Limits(block_seconds=3, doc_seconds=20, memory_bytes=1 << 30, processes=32)


def block(text: str, lang: str = "python", line: int = 1) -> Claim:
    return Claim(id=f"c{line}", doc_path="docs/t.md", start_line=line, end_line=line + text.count("\n"), text=text,
                 kind="code", context=f"code block ({lang})")


def run(*texts: str, use_bwrap: bool | None = None, root: Path = SAMPLE):
    plan = [plan_block(block(t, line=i * 10 + 1)) for i, t in enumerate(texts)]
    return run_session(root, sys.executable, plan, LIMITS, use_bwrap=use_bwrap)


@pytest.mark.parametrize("use_bwrap", [pytest.param(None, marks=needs_bwrap), False])
def test_endless_loop_is_stopped_and_the_rest_reported(use_bwrap):
    result = run("while True:\n    pass", "print('after')", use_bwrap=use_bwrap)
    assert result.outcomes[0].status == "timeout"
    assert result.outcomes[1].status == "not-run"
    assert result.seconds < 15


@pytest.mark.parametrize("use_bwrap", [pytest.param(None, marks=needs_bwrap), False])
def test_unbounded_allocation_hits_the_memory_limit(use_bwrap):
    result = run("chunks = []\nwhile True:\n    chunks.append(bytearray(50_000_000))", use_bwrap=use_bwrap)
    error = result.outcomes[0].error
    assert error is not None and error.is_a("MemoryError")


@needs_bwrap
def test_fork_bomb_is_bounded():
    code = ("import os, time\nkids = []\ntry:\n    for _ in range(500):\n        pid = os.fork()\n"
            "        if pid == 0:\n            time.sleep(30)\n            os._exit(0)\n        kids.append(pid)\n"
            "finally:\n    print(len(kids))\n")
    result = run(code)
    outcome = result.outcomes[0]
    assert outcome.error is not None and outcome.error.is_a("BlockingIOError", "OSError")
    assert int(outcome.output.strip()) < 500


@needs_bwrap
def test_writes_into_the_project_fail_and_leave_no_trace(tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    (project / "mod.py").write_text("X = 1\n")
    result = run(f"open({str(project / 'planted.txt')!r}, 'w').write('x')", root=project)
    error = result.outcomes[0].error
    assert error is not None and error.is_a("OSError")
    assert sorted(p.name for p in project.iterdir()) == ["mod.py"]


@needs_bwrap
def test_tmp_outside_stays_inside_the_sandbox():
    target = Path("/tmp/outside")
    assert not target.exists()
    result = run("open('/tmp/outside', 'w').write('x')\nprint(open('/tmp/outside').read())")
    assert result.outcomes[0].status == "ok" and result.outcomes[0].output.strip() == "x"
    assert not target.exists()


@needs_bwrap
def test_no_network():
    result = run("import socket\nsocket.create_connection(('127.0.0.1', 9), timeout=2)\n"
                 "s = socket.socket()\ns.connect(('1.1.1.1', 80))")
    error = result.outcomes[0].error
    assert error is not None and error.is_a("OSError")


@needs_bwrap
def test_home_and_cwd_are_the_temporary_directory():
    result = run("import os\nprint(os.getcwd() == os.environ['HOME'], os.getcwd().startswith('/tmp/caas-exec-'))")
    assert result.outcomes[0].output.split() == ["True", "True"]
    assert result.isolated and result.warning is None


def test_fallback_without_bwrap_warns_in_one_line():
    result = run("print(1)", use_bwrap=False)
    assert not result.isolated
    assert result.warning == NO_BWRAP_WARNING and "\n" not in result.warning
    assert result.outcomes[0].output.strip() == "1"


def test_later_blocks_see_earlier_names():
    result = run("from xrkit import Scene\nscene = Scene('s')", "print(scene.name)")
    assert [o.status for o in result.outcomes] == ["ok", "ok"]
    assert result.outcomes[1].output.strip() == "s"


def test_doctest_compares_printed_output():
    plan = [plan_block(block(">>> 1 + 1\n2\n>>> print('a')\nb", "pycon"))]
    outcome = run_session(SAMPLE, sys.executable, plan, LIMITS).outcomes[0]
    assert [e.ok for e in outcome.examples] == [True, False]
    assert outcome.examples[1].got == "a\n"


def test_shell_blocks_are_not_run():
    planned = plan_block(block("$ pip install xrkit", "console"))
    assert planned.mode == "skip" and planned.reason == "unverified: shell block, not run"


def test_a_twenty_block_tutorial_runs_in_one_session():
    texts = [f"x{i} = {i}\nprint(x{i} + {'x' + str(i - 1) if i else 0})" for i in range(20)]
    result = run(*texts)
    assert all(o.status == "ok" for o in result.outcomes)
    print(f"20 blocks: {result.seconds:.2f} s")


def test_review_execute_json_reports_the_two_planted_failures(tmp_path):
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    project = tmp_path / "sample"
    subprocess.run(["cp", "-r", str(SAMPLE), str(project)], check=True)
    out = subprocess.run([sys.executable, "-m", "caas_tui", "review", "--root", str(project), "--execute", "--json",
                          "docs/quickstart.md"], capture_output=True, text=True, env=env, check=True)
    assert "executing docs with" in out.stderr
    doc = json.loads(out.stdout.splitlines()[0])
    executed = {c["line"]: v for c in doc["claims"] for v in c.get("verdicts", ()) if v["reviewer"] == "execute"}
    flagged = {line: v for line, v in executed.items() if v["verdict"] in ("contradicted", "incomplete")}
    assert sorted(flagged) == [21, 30], flagged
    raised = flagged[21]
    assert "SceneError" in raised["rationale"]
    assert {(e["path"], e["symbol"]) for e in raised["evidence"]} == {("xrkit/scene.py", "xrkit.scene.Scene.add")}
    assert flagged[30]["fix"] == {"start_line": 36, "end_line": 36, "replacement": "0.8"}
    deciding = {c["line"]: c["verdict"] for c in doc["claims"] if c.get("verdicts")}
    assert deciding[21] == deciding[30] == "contradicted"
    assert executed[9]["verdict"] == "unverified" and executed[9]["rationale"] == "ran without error"
