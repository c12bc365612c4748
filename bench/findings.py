"""Evidence recall on a findings manifest per mode and category (a script).

    python bench/findings.py [--root sample_project] [-k 10]
    python bench/findings.py --claims [--root DIR ...]

Default: the writer's query of each planted defect (``query`` in FINDINGS.toml).
``--claims``: the claim itself as the query, as reviewers and the app search for it:
the claim is extracted from its doc the way ``review`` does (the extracted claim
covering the manifest's line), hits on the claim's own lines are dropped (a claim is
no evidence for itself; a docstring claim's function body stays), and evidence must be in the top 5. Rows: the manifest's
claim sentence as typed and the claim search every front end runs (the reviewers,
the app's evidence pane, MCP ``review_claim``: ``retrieve/claimquery.claim_request``:
owner and names, evidence kinds), each with the default ranking and with the claim stage
(``RankPolicy(claims=True)``). Each manifest is reported on its own; ``--claims`` also runs
``demo_projects/pipekit`` when it has a manifest, as an untuned set (written after the
ranking rules were tuned on the other two).
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from caas_tui.models import Claim, Hit
from caas_tui.retrieve.claimquery import claim_request
from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.evaluate import Finding, first_match_rank, load_findings, recall_table
from caas_tui.retrieve.ranking import DEFAULT_POLICY, RankPolicy
from caas_tui.retrieve.request import SearchRequest
from caas_tui.review.claims.extract import extract_claims

REPO = Path(__file__).resolve().parents[1]
MANIFESTS = (REPO / "sample_project", REPO / "demo_projects" / "httpkit")  # tuned on (issue 21 allows it)
# Reported, never tuned on: a manifest written after the ranking rules were (``--claims`` runs it too).
UNTUNED = (REPO / "demo_projects" / "pipekit",)


def claim_for(root: Path, finding: Finding) -> Claim | None:
    """The extracted claim covering the manifest's line (the narrowest), as ``review`` sees it."""
    claims = extract_claims(finding.doc, (root / finding.doc).read_text(encoding="utf-8"))
    covering = [c for c in claims if c.start_line <= finding.line <= c.end_line]
    return min(covering, key=lambda c: c.end_line - c.start_line) if covering else None


def without_own(hits: Sequence[Hit], claim: Claim | None, finding: Finding) -> list[Hit]:
    path = claim.doc_path if claim else finding.doc
    start, end = (claim.start_line, claim.end_line) if claim else (finding.line, finding.line)
    # Only doc text is dropped: a docstring claim's own function body is evidence.
    kept = [h for h in hits if h.chunk.kind not in ("doc", "api")
            or not (h.chunk.path == path and h.chunk.start_line <= end and start <= h.chunk.end_line)]
    return [replace(h, rank=i) for i, h in enumerate(kept, 1)]


def claims_table(root: Path, engine: Engine, k: int) -> list[tuple[str, str, float, float, list[str]]]:
    findings = [f for f in load_findings(root / "FINDINGS.toml") if f.is_defect]
    claims = {f.id: claim_for(root, f) for f in findings}
    queries: dict[str, Callable[[Finding], SearchRequest]] = {
        "manifest claim sentence": lambda f: SearchRequest(f.claim, k),
        "claim_request (owner, names, evidence kinds)": lambda f: claim_request(c, k) if (c := claims[f.id])
        else SearchRequest(f.claim, k),
    }
    rows = []
    policies = (("before issue 21 (rrf)", RankPolicy(fusion="rrf", priors=False, claims=False)),
                ("default without the claim stage", replace(DEFAULT_POLICY, claims=False)),
                ("default, claim stage without callees/co-users", replace(DEFAULT_POLICY, claim_callees=0)),
                ("default, tests demoted for claim_request too", replace(DEFAULT_POLICY, kinds_ask_for_tests=False)),
                ("default without the call rules (keywords first, shown repr, same-call test)",
                 replace(DEFAULT_POLICY, claim_calls=False)),
                ("default without the stated-default rule", replace(DEFAULT_POLICY, claim_defaults=False)),
                ("default without the token stage", replace(DEFAULT_POLICY, token_stage=False)),
                ("default with the token stage", replace(DEFAULT_POLICY, token_stage=True)),
                ("default", DEFAULT_POLICY))
    for policy_name, policy in policies:
        engine.policy = policy
        for qname, make in queries.items():
            ranks = {f.id: first_match_rank(without_own(engine.run(make(f)).hits, claims[f.id], f), f.evidence)
                     for f in findings}
            r1 = sum(r == 1 for r in ranks.values()) / len(ranks)
            r5 = sum(r is not None and r <= 5 for r in ranks.values()) / len(ranks)
            rows.append((policy_name, qname, r1, r5, [i for i, r in ranks.items() if r is None or r > 5]))
    engine.policy = DEFAULT_POLICY
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", type=Path, action="append", default=None,
                    help="project with a FINDINGS.toml (repeatable; default: sample_project, or both with --claims)")
    ap.add_argument("-k", type=int, default=10)
    ap.add_argument("--claims", action="store_true", help="the claims as queries (evidence in the top 5)")
    ap.add_argument("--aggregate", action="store_true", help="print no finding ids (for a held-out manifest)")
    args = ap.parse_args()
    untuned = [r for r in UNTUNED if (r / "FINDINGS.toml").is_file()]
    roots = args.root or ([*MANIFESTS, *untuned] if args.claims else [MANIFESTS[0]])
    for root in roots:
        with tempfile.TemporaryDirectory(prefix="caas-findings-") as tmp:
            engine = Engine.open(root, index_dir=Path(tmp))
            try:
                if args.claims:
                    n = sum(f.is_defect for f in load_findings(root / "FINDINGS.toml"))
                    label = " (untuned: never looked at while tuning the ranking)" if root.resolve() in UNTUNED else ""
                    print(f"\n{root.name}{label}: {n} planted defects, the claim as the query\n")
                    print("| ranking | query | recall@1 | recall@5 | not in top 5 |")
                    print("|---|---|---|---|---|")
                    for policy, qname, r1, r5, miss in claims_table(root, engine, args.k):
                        missed = f"{len(miss)} findings" if args.aggregate else ", ".join(miss) or "-"
                        print(f"| {policy} | {qname} | {r1:.2f} | {r5:.2f} | {missed} |")
                    continue
                findings = [f for f in load_findings(root / "FINDINGS.toml") if f.is_defect]
                print(f"{len(findings)} planted defects; evidence recall per mode and category\n")
                print("| mode | category | n | recall@1 | recall@5 | MRR |")
                print("|---|---|---|---|---|---|")
                for mode in ("bm25", "dense", "hybrid"):
                    rows, _ = recall_table(findings, lambda q, m=mode, e=engine: e.search(q, args.k, mode=m))
                    for r in rows:
                        print(f"| {mode} | {r.category} | {r.n} | {r.recall_at_1:.2f} | {r.recall_at_5:.2f} | "
                              f"{r.mrr:.2f} |")
            finally:
                engine.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
