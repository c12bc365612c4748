"""The execute reviewer over real, correct documentation: a release's own guides on its own code (a script).

    python bench/execute_realdocs.py [--packages attrs,click] [--cache DIR] [--out FILE] [--show]

For each package, the sdist of one release is fetched with pip (``bench/drift.py``'s ``fetch``,
cached in ``~/.cache/caas-tui-bench/drift``) and a project is built from that release's code and
its own guides (``build_project``): the docs are presumed correct, so every flag the run adds is a
false flag to explain, unless a hand-check finds the doc really wrong. Each guide is reviewed by
the static reviewer and the execute reviewer and merged as ``review --execute`` merges them.

Per package it prints the static flags, the merged flags, and the flags the run decided (merged
flags whose deciding verdict is the execute reviewer's and that the static reviewer did not
raise): the number issue #14 is about. ``--show`` lists every execute ``contradicted`` /
``incomplete`` verdict (decisive or not) with its rationale and the block's first lines, for
hand-checking. Results go to ``--out`` (default ``/tmp/execute_realdocs.json``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from drift import CACHE, DOC_SUFFIXES, build_project, fetch  # noqa: E402
from drift_truth import Package  # noqa: E402

from caas_tui.retrieve.engine import Engine  # noqa: E402
from caas_tui.review import StaticReviewer, review_doc  # noqa: E402
from caas_tui.review.execute import ExecuteReviewer  # noqa: E402
from caas_tui.review.merge import merge_reviews  # noqa: E402

FLAGS = ("contradicted", "incomplete")
RELEASES: dict[str, Package] = {
    p.dist: p
    for p in (
        Package("attrs", ("attr", "attrs"), "", "25.3.0", "Markdown guides, many >>> examples"),
        Package("click", ("click",), "", "8.1.7", "reST guides, testcode-style examples"),
        Package("marshmallow", ("marshmallow",), "", "4.0.0", "reST guides, python and pycon blocks"),
        Package("structlog", ("structlog",), "", "24.4.0", "reST/Markdown guides with printed log lines"),
        Package("packaging", ("packaging",), "", "24.1", "reST API pages of >>> examples"),
        Package("markdown", ("markdown",), "", "3.7", "Markdown guides with python blocks"),
        Package("cachetools", ("cachetools",), "", "5.5.0", "one reST page of >>> examples"),
        Package("itsdangerous", ("itsdangerous",), "", "2.2.0", "short reST guides with python blocks"),
        Package("jinja2", ("jinja2",), "", "3.1.4", "reST guides and API page"),
    )
}


def review_package(pkg: Package, cache: Path) -> dict[str, Any]:
    sdist = fetch(pkg.dist, pkg.new, cache)
    root = build_project(cache / "execfp" / f"{pkg.dist}-{pkg.new}", sdist, sdist, pkg)
    static, run = StaticReviewer(), ExecuteReviewer()
    flags: list[dict[str, Any]] = []
    counts = {"code_claims": 0, "static_flags": 0, "merged_flags": 0, "run_decided": 0, "run_flags": 0}
    with tempfile.TemporaryDirectory(prefix="caas-execfp-") as tmp:
        engine = Engine.open(root, index_dir=Path(tmp))
        try:
            docs = sorted(p.relative_to(root).as_posix() for p in (root / "docs").rglob("*") if p.suffix in DOC_SUFFIXES)
            for doc in docs:
                s_review = review_doc(engine, doc, static)
                e_review = review_doc(engine, doc, run)
                merged, _ = merge_reviews(s_review, e_review)
                for (claim, sv), (_, ev), (_, mv) in zip(s_review.pairs(), e_review.pairs(), merged.pairs(), strict=True):
                    counts["code_claims"] += claim.kind == "code"
                    counts["static_flags"] += sv.verdict in FLAGS
                    counts["merged_flags"] += mv.verdict in FLAGS
                    decided = mv.verdict in FLAGS and mv.reviewer == run.name and sv.verdict not in FLAGS
                    counts["run_decided"] += decided
                    if ev.verdict in FLAGS:
                        counts["run_flags"] += 1
                        flags.append({"doc": doc, "line": claim.start_line, "kind": claim.kind, "label": ev.verdict,
                                      "decided": decided, "static": sv.verdict, "rationale": ev.rationale[:400],
                                      "text": claim.text[:600]})
        finally:
            engine.close()
    return {"package": f"{pkg.dist}-{pkg.new}", **counts, "flags": flags}


def table(rows: Sequence[dict[str, Any]]) -> str:
    head = f"{'package':<22} {'code':>5} {'static':>7} {'merged':>7} {'run-decided':>12} {'run flags':>10}"
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(f"{r['package']:<22} {r['code_claims']:>5} {r['static_flags']:>7} {r['merged_flags']:>7} "
                     f"{r['run_decided']:>12} {r['run_flags']:>10}")
    return "\n".join(lines)


def show(rows: Sequence[dict[str, Any]]) -> str:
    out = []
    for r in rows:
        for f in r["flags"]:
            mark = "DECIDES" if f["decided"] else f"(static {f['static']})"
            out.append(f"== {r['package']} {f['doc']}:{f['line']} [{f['kind']}] {f['label']} {mark}\n"
                       f"   {f['rationale']}\n   | " + "\n   | ".join(f["text"].split("\n")[:14]))
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--packages", help=f"comma-separated subset of {','.join(RELEASES)}")
    ap.add_argument("--cache", type=Path, default=CACHE)
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "execute_realdocs.json")
    ap.add_argument("--show", action="store_true", help="list every execute flag for hand-checking")
    args = ap.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    names = args.packages.split(",") if args.packages else list(RELEASES)
    rows = [review_package(RELEASES[n], args.cache) for n in names]
    args.out.write_text(json.dumps({"results": rows}, indent=1), encoding="utf-8")
    print(table(rows))
    if args.show:
        print(show(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
