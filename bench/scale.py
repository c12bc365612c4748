"""Scale bench: 100k / 500k chunk corpora from the Python sources on this machine.

For each lexical backend, in a fresh process: cold index time, one-file refresh,
warm query p50/p95 and CPU per query (bm25, dense, hybrid; random 2-5 word queries from the corpus's
own symbol words), peak RSS and index size on disk. Then the dense crossover: exact
numpy search, the store's k-means-list index and usearch HNSW (``caas_tui/index/``) on N vectors.

The corpus is the stdlib plus site-packages (``*.py`` only, the bench's skip rules),
copied as ``copyN/...`` again and again with renamed paths until the estimated chunk
count (defs + classes + one per file) reaches the target.

    python bench/scale.py --chunks 100000 [--backends whoosh,tantivy] [--work /tmp/caas-scale]
    python bench/scale.py --crossover-only [--vectors INDEX/vectors/vectors.npy] [--usearch-max N]

Each backend run also reports its dense index against exact search of the same vectors
on the bench's queries (recall@10, both latencies), the peak RSS as each build phase
began (chunking, embedding, lexical commit, built) and each phase's wall and CPU time
(this process and the chunking worker apart), so a run's time can be projected by stage.
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
    rss_at: dict[str, float] = {}

    memory_at: dict[str, dict[str, float]] = {}

    clock_at: dict[str, tuple[float, float, float]] = {}  # phase -> (wall, this process's CPU, children's CPU)

    def progress(phase: str, done: int, total: int) -> None:  # peak RSS so far, as each build phase starts
        if phase not in rss_at:
            rss_at[phase] = _peak_rss_mb()
            memory_at[phase] = _memory_mb()
            clock_at[phase] = _clock(t0)

    t0 = time.perf_counter()
    clock_at["open"] = _clock(t0)
    engine = Engine.open(corpus, index_dir=index_dir, lexical=lexical, progress=progress)
    cold = time.perf_counter() - t0
    rss_at["built"] = _peak_rss_mb()
    memory_at["built"] = _memory_mb()
    clock_at["built"] = _clock(t0)
    # the build's numbers now, in case the queries do not finish on a loaded machine
    phases = _phase_times(clock_at)
    partial = {"lexical": lexical, "cold_index_s": cold, "phases": phases, "peak_rss_mb_before_phase": rss_at,
               "memory_mb_at_phase": memory_at, "index_mb": _dir_mb(index_dir), "load_avg_1m": os.getloadavg()[0]}
    index_dir.with_name(index_dir.name + ".build.json").write_text(json.dumps(partial, indent=2))
    # A sample of chunks by id, not engine.chunks(): reading every row (~1 GB at 500k) is
    # the bench's memory, not the product's, and it hid the build's peak in peak_rss_mb.
    files = engine.store.manifest.files
    ids = sorted(cid for rec in files.values() for cid in rec.chunks)
    victim = corpus / sorted(files)[len(files) // 2]
    victim.write_text(victim.read_text(encoding="utf-8", errors="replace") + "\n\ndef scale_bench_added(x):\n    return x\n")
    t0 = time.perf_counter()
    engine.refresh()
    one_file = time.perf_counter() - t0
    rng = random.Random(11)
    sample = rng.sample(ids, min(5000, len(ids)))
    engine.store.chunks.prefetch(sample)
    symbols = [(engine.store.chunks[cid].symbol or "").lower() for cid in sample if cid in engine.store.chunks]
    words = sorted({w for s in symbols for w in re.findall(r"[a-z]{3,}", s)})
    queries = [" ".join(rng.sample(words, rng.randint(2, 5))) for _ in range(n_queries)]
    latency: dict[str, dict[str, float]] = {}
    for mode in ("bm25", "dense", "hybrid"):
        for q in queries[:20]:
            engine.search(q, 10, mode=mode)
        times = []
        cpu0 = time.process_time()
        for q in queries:
            t0 = time.perf_counter()
            engine.search(q, 10, mode=mode)
            times.append((time.perf_counter() - t0) * 1000)
        # CPU per query: on 2 shared cores the wall percentiles carry the other jobs' load
        cpu_ms = (time.process_time() - cpu0) * 1000 / max(1, len(queries))
        latency[mode] = {"p50_ms": statistics.median(times), "p95_ms": _pct(times, 0.95), "cpu_ms_per_query": cpu_ms}
    dense = dense_vs_exact(engine, queries)
    engine.close()
    return {
        "lexical": lexical, "chunks": len(ids), "cold_index_s": cold, "phases": phases, "refresh_one_file_s": one_file,
        "latency": latency, "index_mb": _dir_mb(index_dir),
        "peak_rss_mb": _peak_rss_mb(), "peak_rss_mb_before_phase": rss_at, "memory_mb_at_phase": memory_at,
        # the chunking worker is a second process: its own peak counts against the budget too
        "worker_peak_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
        "dense_index": dense,
        "load_avg_1m_at_end": os.getloadavg()[0],  # 2 cores shared with other jobs: read timings with it
    }


def _clock(t0: float) -> tuple[float, float, float]:
    """(wall since ``t0``, CPU of this process's threads, CPU of its children: the chunking
    worker while it runs, read from /proc, plus the children already waited for)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    done = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.perf_counter() - t0, own.ru_utime + own.ru_stime, done.ru_utime + done.ru_stime + _live_children_cpu()


def _live_children_cpu() -> float:
    """CPU seconds of this process's children still running (Linux; 0 elsewhere)."""
    total, me, tick = 0.0, os.getpid(), os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile, or not readable
        if int(fields[1]) == me:  # after ")": state, ppid, ... utime is field 14, stime 15 of the line
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def _phase_times(clock_at: dict[str, tuple[float, float, float]]) -> dict[str, dict[str, float]]:
    """Each build phase's wall and CPU, from its start to the next one's (progress phases in the order
    they began: open (discovery, reading and hashing the files, the first 50 files chunked) -> chunking (the
    rest chunked, embedded and fed as they come) -> embedding (the last vectors) -> lexical (the commit:
    lexical, vectors with their k-means lists, chunk store, graph) -> built)."""
    order = sorted(clock_at.items(), key=lambda kv: kv[1][0])
    out: dict[str, dict[str, float]] = {}
    for (name, (wall, own, kids)), (_, (wall2, own2, kids2)) in zip(order, order[1:], strict=False):
        out[name] = {"wall_s": round(wall2 - wall, 2), "cpu_main_s": round(own2 - own, 2),
                     "cpu_children_s": round(kids2 - kids, 2)}
    return out


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _memory_mb() -> dict[str, float]:
    """This process's memory now (Linux): peak and current RSS, and the current RSS split into
    anonymous memory (heaps, arrays) and mapped files (an index's segments, libraries)."""
    out: dict[str, float] = {}
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            for line in handle:
                key, _, value = line.partition(":")
                if key in ("VmHWM", "VmRSS", "RssAnon", "RssFile"):
                    out[key] = int(value.split()[0]) / 1024
    except OSError:
        pass
    return out


def dense_vs_exact(engine: object, queries: list[str], depths: tuple[int, ...] = (10, 50)) -> dict[str, object]:
    """The store's vector index against exact search of the same vectors, on the real
    queries encoded as the engine encodes them: recall@10 and @50 (50 is the depth a
    k=10 search asks the dense channel for), and both latencies interleaved query by query."""
    from caas_tui.index.vectors import ClusteredVectorIndex

    store = engine.store  # type: ignore[attr-defined]
    index = store.vectors
    out: dict[str, object] = {"backend": type(index).__name__, "vectors": len(index)}
    if not isinstance(index, ClusteredVectorIndex):
        return out
    out["clustered"] = index.clustered
    if index.clustered:
        from caas_tui.index import clusters

        lists = len(index._centroids)  # type: ignore[arg-type]
        out.update({"lists": lists, "probes": index.n_probe or clusters.probe_count(lists)})
    k = max(depths)
    vecs = store.encoder.encode(queries, query=True)
    hits = dict.fromkeys(depths, 0)
    fast, slow = [], []
    for q in vecs:
        t0 = time.perf_counter()
        got = index.search(q, k)
        t1 = time.perf_counter()
        want = index.exact_search(q, k)
        t2 = time.perf_counter()
        fast.append((t1 - t0) * 1000)
        slow.append((t2 - t1) * 1000)
        for d in depths:
            hits[d] += len({c for c, _ in got[:d]} & {c for c, _ in want[:d]})
    out.update({f"recall@{d}": hits[d] / (d * len(vecs)) for d in depths})
    out.update({
        f"index_p50_ms@{k}": statistics.median(fast), f"index_p95_ms@{k}": _pct(fast, 0.95),
        f"exact_p50_ms@{k}": statistics.median(slow), f"exact_p95_ms@{k}": _pct(slow, 0.95),
        "load_avg_1m": os.getloadavg()[0],
    })
    return out


def crossover(
    sizes: list[int], dims: int = 256, n_queries: int = 50, usearch_max: int | None = None,
    vectors: Path | None = None,
) -> list[dict[str, float]]:
    """Exact vs k-means lists (the store's index) vs HNSW per size: build time, query p50
    and recall@10 against exact. ``vectors``: real chunk vectors (a ``vectors.npy`` of a
    built index; held-out rows are the queries), else random unit vectors, which have no
    clusters and so are the worst case for both approximate indexes. ``usearch_max``: HNSW
    only up to that size (its build takes minutes past 100k on a shared machine)."""
    import numpy as np

    from caas_tui.index.vectors import ClusteredVectorIndex, ExactVectorIndex, UsearchVectorIndex

    rng = np.random.default_rng(3)
    pool = np.load(vectors, mmap_mode="r") if vectors is not None else None
    if pool is not None:
        order = rng.permutation(len(pool))
        all_queries = np.asarray(pool[np.sort(order[:n_queries])], dtype=np.float32)
    rows = []
    for n in sizes:
        if pool is not None:
            if n > len(pool) - n_queries:
                continue
            vecs = np.asarray(pool[np.sort(order[n_queries : n_queries + n])], dtype=np.float32)
            queries = all_queries
        else:
            vecs = rng.standard_normal((n, dims), dtype=np.float32)
            vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
            queries = vecs[rng.integers(0, n, n_queries)]
        ids = [f"c{i}" for i in range(n)]
        row: dict[str, float] = {"n": n, "real_vectors": pool is not None, "load_avg_1m": os.getloadavg()[0]}
        truth: list[set[str]] = []
        for name, cls in (("exact", ExactVectorIndex), ("clustered", ClusteredVectorIndex), ("usearch", UsearchVectorIndex)):
            if name == "usearch" and usearch_max is not None and n > usearch_max:
                continue
            index = cls()
            if isinstance(index, UsearchVectorIndex):
                index.add_threads = 0  # both cores: the build is the cost measured here
            t0 = time.perf_counter()
            index.upsert(ids, vecs)
            if isinstance(index, ClusteredVectorIndex):
                index.ensure_clusters()  # what a save does at a commit
            row[f"{name}_build_s"] = time.perf_counter() - t0
            index.search(queries[0], 10)
            times, hits = [], 0
            for j, q in enumerate(queries):
                t0 = time.perf_counter()
                found = index.search(q, 10)
                times.append((time.perf_counter() - t0) * 1000)
                if name == "exact":
                    truth.append({cid for cid, _ in found})
                else:
                    hits += len(truth[j] & {cid for cid, _ in found})
            row[f"{name}_p50_ms"] = statistics.median(times)
            if name != "exact":
                row[f"{name}_recall@10"] = hits / (10 * len(queries))
            del index
        row["load_avg_1m_end"] = os.getloadavg()[0]
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
    ap.add_argument("--vectors", type=Path, default=None, help="crossover on these real vectors (an index's vectors.npy)")
    ap.add_argument("--skip-crossover", action="store_true")
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
    if args.skip_crossover:
        return 0
    sizes = [int(s) for s in args.crossover_sizes.split(",")]
    report["crossover"] = crossover(sizes, usearch_max=args.usearch_max, vectors=args.vectors)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
