"""One-shot CLI latency: median wall clock of N fresh ``caas-tui`` processes.

An agent or a script calls the CLI once per question, so start-up is most of what it
waits for. Measures ``--help``, ``search --json QUERY`` and ``review --reviewer static
--json DOC`` on a copy of ``sample_project/`` and on the stdlib copy
(``bench/stdlib_corpus.py``), each against an index built once beforehand (the one-shot
runs find it clean and only open it).

    python bench/cli_latency.py [--runs 5] [--out bench/results/cli_latency.json]
"""

from __future__ import annotations

import argparse
import json
import os
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


def _run(args: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    # cwd outside the repo: `python -m` puts the cwd first on sys.path, which would shadow --src
    proc = subprocess.run([*CLI, *args], env=env, cwd=tempfile.gettempdir(), stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode not in (0, 1):  # review exits 1 only with --check
        raise SystemExit(f"{' '.join(args)} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return elapsed


def _median(args: list[str], env: dict[str, str], runs: int) -> float:
    return statistics.median(_run(args, env) for _ in range(runs))


def measure(root: Path, doc: str, query: str, runs: int, env: dict[str, str]) -> dict[str, float]:
    idx = ["--root", str(root), "--index-dir", str(root / ".caas")]
    _run(["index", *idx], env)  # build once; every timed run below finds a clean index
    _run(["search", "--json", *idx, query], env)  # and warm the OS page cache
    return {
        "help_s": _median(["--help"], env, runs),
        "search_json_s": _median(["search", "--json", *idx, query], env, runs),
        "review_static_json_s": _median(["review", "--reviewer", "static", "--json", *idx, str(root / doc)], env, runs),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "cli_latency.json")
    ap.add_argument("--skip-stdlib", action="store_true")
    ap.add_argument("--src", type=Path, default=None, metavar="DIR",
                    help="run caas_tui from this source tree instead (e.g. `git archive` of an older commit)")
    args = ap.parse_args()
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    if args.src is not None:
        env["PYTHONPATH"] = str(args.src.resolve())
    report: dict[str, object] = {"runs": args.runs, "src": str(args.src or REPO)}
    with tempfile.TemporaryDirectory(prefix="caas-cli-latency-") as tmp:
        sample = Path(tmp) / "sample"
        shutil.copytree(REPO / "sample_project", sample, ignore=shutil.ignore_patterns(".caas"))
        report["sample"] = measure(sample, "README.md", "parse a config file", args.runs, env)
        if not args.skip_stdlib:
            stdlib = Path(tmp) / "stdlib"
            make_corpus(stdlib, blank_docstrings=False)
            report["stdlib"] = measure(stdlib, "json/__init__.py", "decode json from a file", args.runs, env)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2))
    print("| corpus | --help s | search --json s | review --reviewer static --json s |")
    print("|---|---|---|---|")
    for name in ("sample", "stdlib"):
        r = report.get(name)
        if isinstance(r, dict):
            print(f"| {name} | {r['help_s']:.2f} | {r['search_json_s']:.2f} | {r['review_static_json_s']:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
