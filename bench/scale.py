"""Scale bench: 100k / 500k chunk corpora from the Python sources on this machine.

For each lexical backend, in a fresh process: cold index time, one-file refresh,
warm query p50/p95 (bm25, dense, hybrid; random 2-5 word queries from the corpus's
own symbol words), peak RSS and index size on disk. Then the dense crossover: exact
numpy search against usearch HNSW (``caas_tui/index/vectors.py``) on N unit vectors.

The corpus is the stdlib plus site-packages (``*.py`` only, the bench's skip rules),
copied as ``copyN/...`` again and again with renamed paths until the estimated chunk
count (defs + classes + one per file) reaches the target.

    python bench/scale.py --chunks 100000 [--backends whoosh,tantivy] [--work /tmp/caas-scale]
    python bench/scale.py --crossover-only
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from stdlib_corpus import stdlib_files  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
_DEF = re.compile(rb"^\s*(?:async\s+def|def|class)\s", re.M)


def _sources() -> list[tuple[Path, str, int]]:
    """(file, relative path, estimated chunks) for the stdlib and site-packages."""
    out: list[tuple[Path, str, int]] = []
    roots = [("stdlib", None), ("site", Path(sysconfig.get_paths()["purelib"]))]
    for name, root in roots:
        for path, rel in stdlib_files(root):
            if name == "site" and ("caas_tui" in rel or rel.startswith("_")):
                continue
            try:
                data = path.read_bytes()
            except OSError:
                continue
            if len(data) > 1_000_000:  # the indexer's size cap skips these anyway
                continue
            out.append((path, f"{name}/{rel}", 1 + len(_DEF.findall(data))))
    return out


def make_corpus(dest: Path, target_chunks: int) -> dict[str, int]:
    if dest.exists():
        shutil.rmtree(dest)
    files = _sources()
    est = copies = written = 0
    while est < target_chunks:
        for src, rel, n in files:
            target = dest / f"copy{copies}" / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, target)
            est += n
            written += 1
            if est >= target_chunks:
                break
        copies += 1
    return {"files": written, "estimated_chunks": est, "copies": copies}


def _dir_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1e6


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def run_backend(corpus: Path, index_dir: Path, lexical: str, n_queries: int) -> dict[str, object]:
    """In this process (the parent runs it in a child so peak RSS is the backend's own)."""
    from caas_tui.retrieve.engine import Engine

    if index_dir.exists():
        shutil.rmtree(index_dir)
    t0 = time.perf_counter()
    engine = Engine.open(corpus, index_dir=index_dir, lexical=lexical)
    cold = time.perf_counter() - t0
    chunks = engine.chunks()
    victim = corpus / chunks[len(chunks) // 2].path
    victim.write_text(victim.read_text(encoding="utf-8", errors="replace") + "\n\ndef scale_bench_added(x):\n    return x\n")
    t0 = time.perf_counter()
    engine.refresh()
    one_file = time.perf_counter() - t0
    rng = random.Random(11)
    words = sorted({w for c in rng.sample(chunks, min(5000, len(chunks))) for w in re.findall(r"[a-z]{3,}", (c.symbol or "").lower())})
    queries = [" ".join(rng.sample(words, rng.randint(2, 5))) for _ in range(n_queries)]
    latency: dict[str, dict[str, float]] = {}
    for mode in ("bm25", "dense", "hybrid"):
        for q in queries[:20]:
            engine.search(q, 10, mode=mode)
        times = []
        for q in queries:
            t0 = time.perf_counter()
            engine.search(q, 10, mode=mode)
            times.append((time.perf_counter() - t0) * 1000)
        latency[mode] = {"p50_ms": statistics.median(times), "p95_ms": _pct(times, 0.95)}
    engine.close()
    return {
        "lexical": lexical, "chunks": len(chunks), "cold_index_s": cold, "refresh_one_file_s": one_file,
        "latency": latency, "index_mb": _dir_mb(index_dir),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "load_avg_1m_at_end": os.getloadavg()[0],  # 2 cores shared with other jobs: read timings with it
    }


def crossover(sizes: list[int], dims: int = 256, n_queries: int = 50, usearch_max: int | None = None) -> list[dict[str, float]]:
    """Exact vs HNSW query p50 and build time per size; ``usearch_max``: HNSW only up to
    that size (its single-threaded build takes minutes past 100k on a shared machine)."""
    import numpy as np

    from caas_tui.index.vectors import ExactVectorIndex, UsearchVectorIndex

    rng = np.random.default_rng(3)
    rows = []
    for n in sizes:
        vecs = rng.standard_normal((n, dims), dtype=np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        ids = [f"c{i}" for i in range(n)]
        queries = vecs[rng.integers(0, n, n_queries)]
        row: dict[str, float] = {"n": n, "load_avg_1m": os.getloadavg()[0]}
        for name, cls in (("exact", ExactVectorIndex), ("usearch", UsearchVectorIndex)):
            if name == "usearch" and usearch_max is not None and n > usearch_max:
                continue
            index = cls()
            t0 = time.perf_counter()
            index.upsert(ids, vecs)
            row[f"{name}_build_s"] = time.perf_counter() - t0
            index.search(queries[0], 10)
            times = []
            for q in queries:
                t0 = time.perf_counter()
                index.search(q, 10)
                times.append((time.perf_counter() - t0) * 1000)
            row[f"{name}_p50_ms"] = statistics.median(times)
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--chunks", type=int, default=100_000)
    ap.add_argument("--backends", default="whoosh,tantivy")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--work", type=Path, default=Path("/tmp/caas-scale"))
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--crossover-only", action="store_true")
    ap.add_argument("--crossover-sizes", default="25000,50000,100000,200000,500000")
    ap.add_argument("--usearch-max", type=int, default=None, help="build HNSW only up to this many vectors")
    ap.add_argument("--_child", nargs=3, metavar=("CORPUS", "INDEX", "LEXICAL"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args._child:
        corpus, index, lexical = args._child
        print(json.dumps(run_backend(Path(corpus), Path(index), lexical, args.queries)))
        return 0
    out = args.out or REPO / "bench" / "results" / f"scale_{args.chunks // 1000}k.json"
    report: dict[str, object] = {}
    if not args.crossover_only:
        corpus = args.work / f"corpus-{args.chunks}"
        report["corpus"] = make_corpus(corpus, args.chunks)
        print(json.dumps(report["corpus"]), flush=True)
        env = {**os.environ, "HF_HUB_OFFLINE": "1"}
        for lexical in args.backends.split(","):
            proc = subprocess.run(
                [sys.executable, __file__, "--queries", str(args.queries), "--_child", str(corpus),
                 str(args.work / f"index-{args.chunks}-{lexical}"), lexical],
                env=env, capture_output=True, text=True,
            )
            if proc.returncode != 0:
                report[lexical] = {"error": proc.stderr[-2000:]}
            else:
                report[lexical] = json.loads(proc.stdout.strip().splitlines()[-1])
            print(json.dumps({lexical: report[lexical]}), flush=True)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(report, indent=2))
    report["crossover"] = crossover([int(s) for s in args.crossover_sizes.split(",")], usearch_max=args.usearch_max)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
