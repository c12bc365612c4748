"""Evidence recall on sample_project/FINDINGS.toml per mode and category (a script).

    python bench/findings.py [--root sample_project] [-k 10]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.evaluate import load_findings, recall_table

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", type=Path, default=REPO / "sample_project")
    ap.add_argument("-k", type=int, default=10)
    args = ap.parse_args()
    findings = [f for f in load_findings(args.root / "FINDINGS.toml") if f.is_defect]
    with tempfile.TemporaryDirectory(prefix="caas-findings-") as tmp:
        engine = Engine.open(args.root, index_dir=Path(tmp))
        print(f"{len(findings)} planted defects; evidence recall per mode and category\n")
        print("| mode | category | n | recall@1 | recall@5 | MRR |")
        print("|---|---|---|---|---|---|")
        for mode in ("bm25", "dense", "hybrid"):
            rows, _ = recall_table(findings, lambda q, m=mode: engine.search(q, args.k, mode=m))
            for r in rows:
                print(f"| {mode} | {r.category} | {r.n} | {r.recall_at_1:.2f} | {r.recall_at_5:.2f} | {r.mrr:.2f} |")
        engine.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
