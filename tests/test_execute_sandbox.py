"""issue 18: the sandbox limits, the session semantics and the verdicts of the execute reviewer."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

from caas_tui.models import Claim
from caas_tui.review.execute.blocks import plan_block
from caas_tui.review.execute.sandbox import NO_BWRAP_WARNING, Limits, bwrap_path
from caas_tui.review.execute.session import run_session

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_project"
needs_bwrap = pytest.mark.skipif(bwrap_path() is None, reason="bubblewrap not installed or not allowed to run here")
LIMITS = Limits(block_seconds=3, doc_seconds=20, memory_bytes=1 << 30, processes=32)


def block(text: str, lang: str = "python", line: int = 1) -> Claim:
    return Claim(id=f"c{line}", doc_path="docs/t.md", start_line=line, end_line=line + text.count("\n"), text=text,
                 kind="code", context=f"code block ({lang})")


def run(*texts: str, use_bwrap: bool | None = None, root: Path = SAMPLE, limits: Limits = LIMITS):
    plan = [plan_block(block(t, line=i * 10 + 1)) for i, t in enumerate(texts)]
    return run_session(root, sys.executable, plan, limits, use_bwrap=use_bwrap)


@pytest.mark.parametrize("use_bwrap", [pytest.param(None, marks=needs_bwrap), False])
def test_endless_loop_is_stopped_and_the_rest_reported(use_bwrap):
    result = run("while True:\n    pass", "print('after')", use_bwrap=use_bwrap)
    assert result.outcomes[0].status == "timeout"
    assert result.outcomes[1].status == "not-run"
    assert result.seconds < 15


@pytest.mark.parametrize("use_bwrap", [pytest.param(None, marks=needs_bwrap), False])
def test_unbounded_allocation_hits_the_memory_limit(use_bwrap):
    # doubling sizes reach the 1 GiB limit in a few steps, however busy the machine is
    code = "chunks, n = [], 1 << 20\nwhile True:\n    chunks.append(bytearray(n))\n    n *= 2"
    result = run(code, use_bwrap=use_bwrap, limits=Limits(block_seconds=30, doc_seconds=60, memory_bytes=1 << 30))
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
    assert result.warning is not None and NO_BWRAP_WARNING in result.warning and "\n" not in result.warning
    assert result.warning.startswith("bwrap not used: ")
    assert result.outcomes[0].output.strip() == "1"


@pytest.mark.parametrize("use_bwrap", [pytest.param(None, marks=needs_bwrap), False])
def test_a_timeout_kills_the_whole_process_group(use_bwrap, tmp_path):
    marker = f"caas-exec-test-{os.getpid()}-{use_bwrap}"
    code = (f"import subprocess\nsubprocess.Popen(['sh', '-c', 'exec -a {marker} sleep 60'])\n"
            "while True:\n    pass")
    result = run(code, use_bwrap=use_bwrap)
    assert result.outcomes[0].status == "timeout"
    time.sleep(0.5)
    alive = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True).stdout.split()
    assert alive == []


def test_processes_left_running_die_with_the_session():
    marker = f"caas-exec-left-{os.getpid()}"
    result = run(f"import subprocess\nsubprocess.Popen(['sh', '-c', 'exec -a {marker} sleep 60'])", use_bwrap=False)
    assert result.outcomes[0].status == "ok"
    time.sleep(0.5)
    assert subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True).stdout.split() == []


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


def _planted() -> list[dict]:
    return tomllib.loads((SAMPLE / "FINDINGS.toml").read_text(encoding="utf-8"))["finding"]


def test_review_execute_json_reports_the_two_planted_failures(tmp_path):
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project, ignore=shutil.ignore_patterns(".caas", "__pycache__"))
    out = subprocess.run([sys.executable, "-m", "caas_tui", "review", "--root", str(project), "--execute", "--check",
                          "--format", "json"], capture_output=True, text=True, env=env)
    assert out.returncode == 1, out.stderr
    assert "executing docs with" in out.stderr
    docs = {d["doc"]: d for d in map(json.loads, out.stdout.splitlines())}
    flags = [(doc, c, v) for doc, d in docs.items() for c in d["claims"] for v in c.get("verdicts", ())
             if v["reviewer"] == "execute" and v["verdict"] in ("contradicted", "incomplete")]
    # every flag the execution raises anywhere in the project is a planted defect
    planted = [f for f in _planted() if f["verdict"] != "consistent"]
    for doc, claim, _ in flags:
        assert any(f["doc"] == doc and claim["line"] <= f["line"] <= claim["end_line"] for f in planted), (doc, claim)
    quick = {c["line"]: v for doc, c, v in flags if doc == "docs/quickstart.md"}
    assert sorted(quick) == [21, 30], quick
    raised = quick[21]
    assert "SceneError" in raised["rationale"]
    assert [(e["path"], e["symbol"], e["start_line"]) for e in raised["evidence"]] == [
        ("xrkit/scene.py", "xrkit.scene.Scene.add", 59)]
    assert quick[30]["fix"] == {"start_line": 36, "end_line": 36, "replacement": "0.8"}
    deciding = {c["line"]: c["verdict"] for c in docs["docs/quickstart.md"]["claims"] if c.get("verdicts")}
    assert deciding[21] == deciding[30] == "contradicted"
    first = next(c for c in docs["docs/quickstart.md"]["claims"] if c["line"] == 9)
    ran = next(v for v in first["verdicts"] if v["reviewer"] == "execute")
    assert (ran["verdict"], ran["rationale"]) == ("unverified", "ran without error")
    # the store (what the app shows: the latest verdict) gets an execute verdict only where it prevails
    from caas_tui.config import load_config
    from caas_tui.review import VerdictStore

    with VerdictStore.open(load_config(project)) as store:
        stored = {(sv.claim.start_line, sv.verdict.reviewer) for sv in store.all("docs/quickstart.md")}
    assert {(9, "execute"), (21, "execute"), (30, "execute"), (42, "execute")} <= stored
    # Static leaves a block's run unchecked, so the run's "ran without error" is what the app shows.
    assert not {line for line, reviewer in stored if reviewer == "execute"} - {9, 21, 30, 42}
    # the two planted failures are registered
    ids = {f["id"] for f in _planted() if f["doc"] == "docs/quickstart.md"}
    assert ids == {"quickstart-add-after-spawn", "quickstart-stale-normalized-output"}


def test_config_turns_execution_on_and_a_bad_python_is_one_line(tmp_path):
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    project = tmp_path / "sample"
    shutil.copytree(SAMPLE, project, ignore=shutil.ignore_patterns(".caas", "__pycache__"))
    toml = project / "caas.toml"
    toml.write_text(toml.read_text() + "\n[review]\nexecute = true\n")
    cmd = [sys.executable, "-m", "caas_tui", "review", "--root", str(project), "--json", "docs/quickstart.md"]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    claims = json.loads(out.stdout)["claims"]
    assert any(v["reviewer"] == "execute" for c in claims for v in c.get("verdicts", ()))
    bad = subprocess.run([*cmd, "--python", str(tmp_path / "nope")], capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0 and "no such interpreter" in bad.stderr


def test_top_level_await_runs_on_one_loop_per_session():
    result = run("import asyncio\nasync def twice(x):\n    await asyncio.sleep(0)\n    return 2 * x\n"
                 "value = await twice(21)", "print(value, await twice(1))")
    assert [o.status for o in result.outcomes] == ["ok", "ok"]
    assert result.outcomes[1].output.strip() == "42 2"


def test_a_block_that_kills_the_interpreter_is_reported_not_lost():
    result = run("print('before')", "import os\nos._exit(3)", "print('after')")
    assert [o.status for o in result.outcomes] == ["ok", "crashed", "not-run"]
    assert "exit code 3" in result.outcomes[1].note


@needs_bwrap
def test_the_callers_home_is_not_visible():
    home = Path.home()
    secret = home / f".caas-exec-secret-{os.getpid()}"
    secret.write_text("token")
    try:
        result = run(f"print(open({str(secret)!r}).read())")
    finally:
        secret.unlink()
    error = result.outcomes[0].error
    assert error is not None and error.is_a("FileNotFoundError", "PermissionError")
    assert "token" not in result.outcomes[0].output
