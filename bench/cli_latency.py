"""One-shot CLI latency: median wall clock of N fresh ``caas-tui`` processes.

An agent or a script calls the CLI once per question, so start-up is most of what it
waits for. Measures ``--help``, ``search --json QUERY`` and ``review --reviewer static
--json DOC`` on a copy of ``sample_project/`` and on the stdlib copy
(``bench/stdlib_corpus.py``), each against an index built once beforehand (the one-shot
runs find it clean and only open it).

    python bench/cli_latency.py [--runs 5] [--out bench/results/cli_latency.json] [--compare OLD_TREE]

Wall clock and CPU time (user + system) are both reported: on shared cores the CPU time
is the steadier one. ``--compare`` alternates the runs of two trees, for a ratio.

Each tree's bytecode is compiled first and the runs may write it: an installed package
has its ``.pyc`` files, while a source tree under ``PYTHONDONTWRITEBYTECODE`` (or a fresh
``git archive``) recompiles every module it imports on every run, which was about a quarter
of a one-shot search's instructions and made an old tree look slower than it is.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from stdlib_corpus import make_corpus  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "caas_tui"]


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall clock and CPU seconds (user + system) of one fresh process. On shared cores the
    CPU time is the steadier number: waiting for a core inflates only the wall clock."""
    cpu0 = _cpu()
    t0 = time.perf_counter()
    # cwd outside the repo: `python -m` puts the cwd first on sys.path, which would shadow --src
    proc = subprocess.run([*CLI, *args], env=env, cwd=tempfile.gettempdir(), stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - t0
    cpu = _cpu() - cpu0
    if proc.returncode not in (0, 1):  # review exits 1 only with --check
        raise SystemExit(f"{' '.join(args)} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return elapsed, cpu


def measure(root: Path, doc: str, query: str, runs: int, envs: dict[str, dict[str, str]]) -> dict[str, dict[str, float]]:
    """Each variant (source tree) against its own index; their runs alternate, so every
    variant sees the same machine load and their ratio means something on shared cores."""
    cmds: dict[str, dict[str, list[str]]] = {}
    for variant, env in envs.items():
        idx = ["--root", str(root), "--index-dir", str(root / f".caas-{variant}")]
        _run(["index", *idx], env)  # build once; every timed run below finds a clean index
        _run(["search", "--json", *idx, query], env)  # and warm the OS page cache
        cmds[variant] = {"help": ["--help"], "search_json": ["search", "--json", *idx, query],
                         "review_static_json": ["review", "--reviewer", "static", "--json", *idx, str(root / doc)]}
    out: dict[str, dict[str, float]] = {v: {"load_avg_1m_start": os.getloadavg()[0]} for v in envs}
    for name in ("help", "search_json", "review_static_json"):
        got: dict[str, list[tuple[float, float]]] = {v: [] for v in envs}
        for _ in range(runs):
            for variant, env in envs.items():
                got[variant].append(_run(cmds[variant][name], env))
        for variant, runs_of in got.items():
            out[variant][f"{name}_s"] = statistics.median(wall for wall, _ in runs_of)
            out[variant][f"{name}_cpu_s"] = statistics.median(cpu for _, cpu in runs_of)
    for variant in envs:
        out[variant]["load_avg_1m_end"] = os.getloadavg()[0]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "cli_latency.json")
    ap.add_argument("--skip-stdlib", action="store_true")
    ap.add_argument("--src", type=Path, default=None, metavar="DIR",
                    help="run caas_tui from this source tree instead (e.g. `git archive` of an older commit)")
    ap.add_argument("--compare", type=Path, default=None, metavar="DIR",
                    help="also run this source tree (e.g. `git archive` of HEAD), alternating runs with the other")
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["HF_HUB_OFFLINE"] = "1"
    for tree in (args.src or REPO, args.compare):
        if tree is not None:
            compileall.compile_dir(str(Path(tree) / "caas_tui"), quiet=1)
    if args.src is not None:
        env["PYTHONPATH"] = str(args.src.resolve())
    envs = {"current": env}
    if args.compare is not None:
        envs = {"before": {**env, "PYTHONPATH": str(args.compare.resolve())}, "current": env}
    report: dict[str, object] = {"runs": args.runs, "src": str(args.src or REPO),
                                 "compare": str(args.compare) if args.compare else None}
    with tempfile.TemporaryDirectory(prefix="caas-cli-latency-") as tmp:
        sample = Path(tmp) / "sample"
        shutil.copytree(REPO / "sample_project", sample, ignore=shutil.ignore_patterns(".caas"))
        report["sample"] = measure(sample, "README.md", "parse a config file", args.runs, envs)
        if not args.skip_stdlib:
            stdlib = Path(tmp) / "stdlib"
            make_corpus(stdlib, blank_docstrings=False)
            report["stdlib"] = measure(stdlib, "json/__init__.py", "decode json from a file", args.runs, envs)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2))
    print("wall s (CPU s), median of the runs")
    print("| corpus | tree | load avg | --help | search --json | review --reviewer static --json |")
    print("|---|---|---|---|---|---|")
    for name in ("sample", "stdlib"):
        by_variant = report.get(name)
        if not isinstance(by_variant, dict):
            continue
        for variant, r in by_variant.items():
            cells = " | ".join(f"{r[f'{c}_s']:.2f} ({r[f'{c}_cpu_s']:.2f})" for c in ("help", "search_json",
                                                                                      "review_static_json"))
            print(f"| {name} | {variant} | {r['load_avg_1m_start']:.1f}-{r['load_avg_1m_end']:.1f} | {cells} |")
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
