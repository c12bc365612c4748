"""Evidence recall with and without graph expansion, on the xrkit demo's planted findings.

    python bench/chains.py [--k 5] [--root sample_project] [--json]

For every finding in ``FINDINGS.toml`` the finding's ``query`` is searched and a
finding counts as recalled at k if any of the first k hits overlaps any of its
evidence spans (same path, overlapping lines). Printed per category
(single-file, cross-file, cross-system) and overall, for plain hybrid search and
for ``search(..., expand=True)``. Also reported: how many evidence spans (not
findings) the first k hits cover, since expansion is meant to bring the *other*
files a claim depends on.

The index is built in a temporary directory so the project's own ``.caas`` is
never touched.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from caas_tui.models import Hit
from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.evaluate import Finding, Span, hit_matches, load_findings

REPO = Path(__file__).resolve().parents[1]
CATEGORIES = ("single-file", "cross-file", "cross-system")


def covered(hits: Sequence[Hit], span: Span) -> bool:
    return any(hit_matches(h, (span,)) for h in hits)


@dataclass
class Score:
    findings: int = 0
    recalled: int = 0
    spans: int = 0
    spans_hit: int = 0
    hits: int = 0  # summed list lengths (overall only)

    def add(self, hits: Sequence[Hit], finding: Finding) -> None:
        hit_spans = [covered(hits, span) for span in finding.evidence]
        self.findings += 1
        self.recalled += any(hit_spans)
        self.spans += len(hit_spans)
        self.spans_hit += sum(hit_spans)

    @property
    def recall(self) -> float:
        return self.recalled / self.findings if self.findings else 0.0

    @property
    def span_recall(self) -> float:
        return self.spans_hit / self.spans if self.spans else 0.0


def measure(engine: Engine, findings: Sequence[Finding], k: int, *, expand: bool, same_size: bool = False) -> dict[str, Score]:
    """Per category (and ``overall``) recall@k of ``engine.search(query, k, expand=expand)``.

    ``same_size``: plain search asked for as many hits as the expanded search
    returned (the fair baseline: expansion adds neighbours after the first k).
    """
    scores = {c: Score() for c in (*CATEGORIES, "overall")}
    for finding in findings:
        hits = engine.search(finding.query, k, expand=expand or same_size)
        if same_size:
            hits = engine.search(finding.query, len(hits))
        scores.setdefault(finding.category, Score()).add(hits, finding)
        scores["overall"].add(hits, finding)
        scores["overall"].hits += len(hits)
    return scores


def open_engine(root: Path, index_dir: Path) -> Engine:
    return Engine.open(root, index_dir=index_dir)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", type=Path, default=REPO / "sample_project")
    parser.add_argument("--k", type=int, action="append", default=None, help="cut-off (repeatable; default 5 and 10)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    ks = args.k or [5, 10]
    findings = load_findings(args.root / "FINDINGS.toml")
    with tempfile.TemporaryDirectory(prefix="caas-chains-") as tmp:
        engine = open_engine(args.root, Path(tmp) / "index")
        try:
            results = {
                (k, mode): measure(engine, findings, k, expand=mode == "expand", same_size=mode == "same")
                for k in ks for mode in ("plain", "expand", "same")
            }
            stats = engine.graph.stats()
        finally:
            engine.close()
    if args.json:
        out = {
            f"k={k} {mode}": {
                cat: {"findings": s.findings, "recalled": s.recalled, "recall": round(s.recall, 3),
                      "span_recall": round(s.span_recall, 3)}
                for cat, s in scores.items()
            } | {"mean_hits": round(scores["overall"].hits / max(1, len(findings)), 2)}
            for (k, mode), scores in results.items()
        }
        print(json.dumps({"graph": stats, **out}, indent=2))
        return 0
    print(f"graph: {stats}")
    print(f"{len(findings)} findings from {args.root / 'FINDINGS.toml'}")
    for k in ks:
        mean = {m: results[(k, m)]["overall"].hits / max(1, len(findings)) for m in ("plain", "expand", "same")}
        print(f"\nk={k}: plain returns {mean['plain']:.1f} hits, expand {mean['expand']:.1f} (k + neighbours), "
              f"same-size plain {mean['same']:.1f}")
        header = f"{'category':<14}{'n':>4}{'R plain':>9}{'R +x':>9}{'R same':>9}{'span plain':>12}{'span +x':>10}{'span same':>11}"
        print(header)
        print("-" * len(header))
        for cat in (*CATEGORIES, "overall"):
            p, x, same = (results[(k, m)][cat] for m in ("plain", "expand", "same"))
            print(f"{cat:<14}{p.findings:>4}{p.recall:>9.3f}{x.recall:>9.3f}{same.recall:>9.3f}"
                  f"{p.span_recall:>12.3f}{x.span_recall:>10.3f}{same.span_recall:>11.3f}")
    print("\nR: findings with any evidence span among the hits; span: share of evidence spans covered.")
    print("+x: search(query, k, expand=True); same: plain search for as many hits as +x returned.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
