"""Dense-channel benchmark: static models vs the MiniLM transformer vs BM25 (a script).

    python bench/dense.py [--queries 200] [--new-model DIR] [--old-model DIR] [--work DIR]

On the stdlib docstring eval of ``bench/retrieval.py`` (queries: first sentences of
stdlib function docstrings; target: the function's code chunk; docstrings blanked
from the indexed copy; 200 queries, seed 7) it reports MRR@10, hit@10, the index's
encode time (chunks/s) and query latency p50/p95 for:

- ``bm25``;
- ``dense`` and ``hybrid`` with the old static model (``--old-model``, default: the
  model shipped in ``caas_tui/assets/model``), with the new one (``--new-model``),
  and with the MiniLM transformer (``st:minilm``) when sentence-transformers is
  importable;
- ``hybrid + rerank`` (``Engine.search(..., rerank=True)``) on the new static model's
  hybrid (the old one's without ``--new-model``) with the default re-ranking runtime
  (onnxruntime int8 when installed), with the default time budget and with no budget
  (``--rerank-budgets``), plus torch fp32 with no budget for reference.

sentence-transformers lives in the build venv, so run the whole thing there::

    PYTHONPATH=$PWD /work/buildvenv/bin/python bench/dense.py --work /work/cache/bench-dense \\
        --old-model /work/cache/model-old --new-model caas_tui/assets/model

Indexes are kept per encoder under ``--work``, with the encode time of the build
beside them, so a rerun only re-measures queries. Timings are noisy on 2 shared
cores: compare rows of one run.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import caas_tui  # noqa: F401  (first: it caps OpenBLAS threads before numpy loads)

# isort: split
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import stdlib_corpus
from stdlib_corpus import Query, make_corpus, sample

from caas_tui.index.encoders import load_encoder
from caas_tui.index.protocols import Encoder
from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.priors import is_test_chunk
from caas_tui.retrieve.ranking import DEFAULT_POLICY, RankPolicy
from caas_tui.retrieve.request import SearchRequest, as_mode
from caas_tui.retrieve.rerank import DEFAULT_BUDGET_S, TORCH_SPEC, default_spec, load_reranker
from caas_tui.retrieve.tokenstage import TokenVectors

CORPUS_MARKER = ".bench-corpus.json"
# Fusion policies compared in-process on one built index (``--variants``); "rrf" is the
# policy before issue 21, "default" the shipped one, the rest take one rule out of it.
VARIANTS: dict[str, RankPolicy] = {
    "default": DEFAULT_POLICY,
    "rrf": RankPolicy(fusion="rrf", priors=False, claims=False),
    "rrf + priors": RankPolicy(fusion="rrf", priors=True, claims=False),
    "minmax": RankPolicy(fusion="minmax", priors=False, claims=False),
    "default, tests 0.8": replace(DEFAULT_POLICY, test_factor=0.8),
    "default, tests 0.8, no subject rule": replace(DEFAULT_POLICY, test_factor=0.8, tests_after_subjects=False),
    "default, no subject rule": replace(DEFAULT_POLICY, tests_after_subjects=False),
    "default, modules 1.0": replace(DEFAULT_POLICY, module_factor=1.0),
    "default, no test subjects": replace(DEFAULT_POLICY, test_subjects=False),
    "default, tests 0.4": replace(DEFAULT_POLICY, test_factor=0.4),
    "session 3 start (no test subjects, no call/default claim rules)":
        replace(DEFAULT_POLICY, test_subjects=False, claim_calls=False, claim_defaults=False),
    "token stage": replace(DEFAULT_POLICY, token_stage=True),
    "no token stage": replace(DEFAULT_POLICY, token_stage=False),
    "token stage: late interaction only": replace(DEFAULT_POLICY, token_stage=True, token_names=0.0),
    "token stage: name cover only": replace(DEFAULT_POLICY, token_stage=True, token_maxsim=0.0),
}


class TimedEncoder:
    """Passes through to an encoder, timing passage (index) encodes."""

    def __init__(self, inner: Encoder) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.dims = inner.dims
        self.seconds = 0.0
        self.texts = 0

    def token_ids(self, texts: Sequence[str]) -> list[np.ndarray] | None:  # the token stage's calls pass through
        inner = self.inner
        return inner.token_ids(texts) if isinstance(inner, TokenVectors) else None

    def token_rows(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        assert isinstance(self.inner, TokenVectors)
        return self.inner.token_rows(ids)

    def encode(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        if query:
            return self.inner.encode(texts, query=True)
        t0 = time.perf_counter()
        out = self.inner.encode(texts, query=False)
        self.seconds += time.perf_counter() - t0
        self.texts += len(texts)
        return out


def _torch_threads() -> int | None:
    if importlib.util.find_spec("torch") is None:
        return None
    import torch

    return int(torch.get_num_threads())


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def corpus(work: Path, source: Path | None = None, keep_tests: bool = False) -> tuple[Path, list[Query]]:
    """The blanked corpus under ``work`` (made once; the stdlib unless ``source``) and all its
    queries; ``keep_tests`` keeps test folders in the corpus (queries still target definitions)."""
    root = work / "quality"
    marker = work / CORPUS_MARKER
    if marker.is_file() and root.is_dir():
        return root, [Query(**q) for q in json.loads(marker.read_text())]
    if keep_tests:
        stdlib_corpus.SKIP_DIRS.difference_update({"test", "tests"})
    queries = make_corpus(root, blank_docstrings=True, source=source)
    queries = [q for q in queries if not _test_path(q.path)]  # definition queries only
    marker.write_text(json.dumps([q.__dict__ for q in queries]))
    return root, queries


def open_engine(root: Path, work: Path, slug: str, encoder: Encoder) -> tuple[Engine, dict[str, float]]:
    """Open (building if needed) the index for ``encoder``; return it and its encode stats."""
    index_dir = work / f"index-{slug}"
    timed = TimedEncoder(encoder)
    t0 = time.perf_counter()
    engine = Engine.open(root, index_dir=index_dir, encoder=timed)
    wall = time.perf_counter() - t0
    stats_file = work / f"index-{slug}.encode.json"
    chunks = len(engine.chunks())
    if timed.texts:  # built (or partly rebuilt) now: record
        stats = {"encode_s": timed.seconds, "encoded": timed.texts, "build_wall_s": wall, "chunks": chunks,
                 "model_id": encoder.model_id}
        stats_file.write_text(json.dumps(stats))
    elif stats_file.is_file():
        stats = json.loads(stats_file.read_text())
    else:
        stats = {"encode_s": float("nan"), "encoded": 0, "build_wall_s": float("nan"), "chunks": chunks}
    return engine, stats


def _test_path(path: str) -> bool:
    parts = path.split("/")
    return any(p in ("test", "tests", "testing") for p in parts[:-1]) or parts[-1].startswith("test_")


def _is_target(hit_chunk: object, q: Query) -> bool:
    return (hit_chunk.path == q.path and hit_chunk.symbol == q.symbol  # type: ignore[attr-defined]
            and hit_chunk.kind == "code")  # type: ignore[attr-defined]


def run_row(engine: Engine, queries: list[Query], warmup: list[Query], mode: str, rerank: bool = False
            ) -> dict[str, float]:
    for q in warmup:
        engine.search(q.text, 10, mode=mode, rerank=rerank)
    rr: list[float] = []
    hits10 = file10 = top1_test = 0
    times: list[float] = []
    timeouts = 0
    reranked: list[int] = []
    for q in queries:
        t0 = time.perf_counter()
        result = engine.run(SearchRequest(q.text, 10, mode=as_mode(mode), rerank=rerank))
        hits = result.hits
        times.append((time.perf_counter() - t0) * 1000)
        pos = next((h.rank for h in hits if _is_target(h.chunk, q)), None)
        rr.append(1 / pos if pos else 0.0)
        hits10 += pos is not None
        file10 += any(h.chunk.path == q.path for h in hits[:10])
        top1_test += bool(hits) and is_test_chunk(hits[0].chunk)
        if result.rerank is not None:
            timeouts += result.rerank.timed_out
            reranked.append(result.rerank.reranked)
    row = {"mrr@10": statistics.fmean(rr), "hit@10": hits10 / len(queries), "file_hit@10": file10 / len(queries),
           "top1_test": top1_test / len(queries),
           "p50_ms": statistics.median(times), "p95_ms": _pct(times, 0.95)}
    if rerank:
        row["timed_out"] = timeouts
        row["mean_reranked"] = statistics.fmean(reranked) if reranked else 0.0
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--old-model", type=Path, default=None,
                    help="a static model folder to measure as 'old' (default: the shipped encoder as the product "
                         "loads it, camelCase split included; a folder path loads without the split)")
    ap.add_argument("--new-model", type=Path, default=None, help="the trained static model to compare")
    ap.add_argument("--work", type=Path, default=None, help="keep corpus and indexes here (default: a temp dir)")
    ap.add_argument("--corpus", type=Path, default=None, help="a folder of Python code to use instead of the "
                    "stdlib (a package never used in training, for a held-out check); use its own --work")
    ap.add_argument("--keep-tests", action="store_true", help="keep test folders in the corpus (a fresh --work)")
    ap.add_argument("--variants", default=None, help="comma-separated fusion policies to compare on the first "
                    f"index ({', '.join(VARIANTS)}; 'all' for every one)")
    ap.add_argument("--no-transformer", action="store_true", help="skip the MiniLM transformer rows")
    ap.add_argument("--no-rerank", action="store_true")
    ap.add_argument("--rerank-spec", default=None, help="reranker model spec (default: rerank.default_spec(): "
                    "onnxruntime int8 when installed, else torch fp32)")
    ap.add_argument("--no-torch-rerank", action="store_true", help="skip the torch fp32 reference rerank row")
    ap.add_argument("--rerank-budgets", default=f"{DEFAULT_BUDGET_S},inf",
                    help="comma-separated time budgets (s) for the rerank rows; inf = no budget")
    ap.add_argument("--only", default=None, help="comma-separated subset of old,new,minilm (e.g. to pre-build one)")
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "dense.json")
    args = ap.parse_args()

    tmp = None
    if args.work is None:
        tmp = tempfile.TemporaryDirectory(prefix="caas-dense-")
        args.work = Path(tmp.name)
    work: Path = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    root, all_queries = corpus(work, args.corpus.resolve() if args.corpus else None, args.keep_tests)
    chosen = sample(all_queries, args.queries)
    chosen_set = {(q.path, q.symbol) for q in chosen}
    warmup = [q for q in sample(all_queries, args.queries + 40, seed=11) if (q.path, q.symbol) not in chosen_set][:10]
    have_st = importlib.util.find_spec("sentence_transformers") is not None

    # "" is the shipped default encoder (load_encoder), exactly as Engine.open loads it.
    encoders: list[tuple[str, str]] = [("old", str(args.old_model.resolve()) if args.old_model else "")]
    if args.new_model is not None:
        encoders.append(("new", str(args.new_model.resolve())))
    if have_st and not args.no_transformer:
        encoders.append(("minilm", "st:minilm"))

    if args.only:
        wanted = set(args.only.split(","))
        encoders = [(slug, spec) for slug, spec in encoders if slug in wanted]
    rows: dict[str, dict[str, float]] = {}
    index_stats: dict[str, dict[str, float]] = {}
    for slug, spec in encoders:
        print(f"[{slug}] opening index with {spec} ...", file=sys.stderr, flush=True)
        engine, stats = open_engine(root, work, slug, load_encoder(spec))
        index_stats[slug] = stats
        try:
            if slug == "old":
                rows["bm25"] = run_row(engine, chosen, warmup, "bm25")
            rows[f"dense ({slug})"] = run_row(engine, chosen, warmup, "dense")
            rows[f"hybrid ({slug})"] = run_row(engine, chosen, warmup, "hybrid")
            if args.variants and slug == encoders[0][0]:
                names = list(VARIANTS) if args.variants == "all" else args.variants.split(",")
                for name in names:
                    engine.policy = VARIANTS[name]
                    rows[f"hybrid ({slug}), {name}"] = run_row(engine, chosen, warmup, "hybrid")
                engine.policy = DEFAULT_POLICY
            rerank_slug = "new" if args.new_model is not None else "old"  # rerank the best static hybrid only
            if slug == rerank_slug and have_st and not args.no_rerank:
                spec = args.rerank_spec or default_spec()
                runs = [(spec, float(b)) for b in args.rerank_budgets.split(",")]
                if spec != TORCH_SPEC and not args.no_torch_rerank:  # the torch fp32 reference, no budget
                    runs.append((TORCH_SPEC, math.inf))
                for spec_i, budget in runs:
                    label = ", no budget" if math.isinf(budget) else f", {budget * 1000:.0f} ms budget"
                    runtime = "onnx int8" if "backend=onnx-int8" in spec_i else "torch fp32"
                    engine.reranker = load_reranker(spec_i, budget_s=budget)
                    rows[f"hybrid ({slug}) + rerank {runtime}{label}"] = run_row(engine, chosen, warmup, "hybrid",
                                                                                 rerank=True)
            for name, row in rows.items():
                if slug in name and "encode_s" not in row:
                    row.update(encode_s=stats["encode_s"],
                               chunks_per_s=stats["encoded"] / stats["encode_s"] if stats["encoded"] else math.nan)
            print(json.dumps({k: v for k, v in rows.items() if slug in k or k == "bm25"}, indent=1),
                  file=sys.stderr, flush=True)
        finally:
            engine.close()

    report = {"rows": rows, "indexes": index_stats, "n_queries": len(chosen), "models": dict(encoders),
              "rerank_budget_s": DEFAULT_BUDGET_S, "torch_threads": _torch_threads()}
    report = json.loads(re.sub(r'(?<=["(:])/[^"@]*/([^"/@]+)', r"\1", json.dumps(report)))  # no local paths
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2))
    print("| run | MRR@10 | hit@10 | file hit@10 | top-1 is a test | index encode s (chunks/s) | query p50 ms | p95 ms |")
    print("|---|---|---|---|---|---|---|---|")
    for name, r in rows.items():
        enc = "-" if "encode_s" not in r or name == "bm25" else f"{r['encode_s']:.1f} ({r['chunks_per_s']:.0f}/s)"
        extra = f" (re-ranked {r['mean_reranked']:.0f}/50 on average, {r['timed_out']:.0f} out of time)" \
            if "timed_out" in r else ""
        print(f"| {name}{extra} | {r['mrr@10']:.3f} | {r['hit@10']:.3f} | {r['file_hit@10']:.3f} | "
              f"{r['top1_test']:.1%} | {enc} | {r['p50_ms']:.1f} | "
              f"{r['p95_ms']:.1f} |")
    chunks = next(iter(index_stats.values()))["chunks"]
    print(f"\n{chunks} chunks; {len(chosen)} queries; rerank budget {DEFAULT_BUDGET_S * 1000:.0f} ms")
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
