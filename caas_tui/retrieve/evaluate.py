"""Evidence recall on a findings manifest (``FINDINGS.toml``).

A manifest lists documentation claims with the spans that prove or refute them and
the query a writer would type. Recall@k is the share of findings for which some
top-k hit overlaps some evidence span (same path, overlapping lines). Used by
``bench/findings.py`` and the regression tests; any project can keep such a file.
"""

from __future__ import annotations

import tomllib
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from caas_tui.errors import ConfigError
from caas_tui.models import EvidenceSpan, Hit

Span = EvidenceSpan  # a manifest's evidence is the same noun as a verdict's


@dataclass(frozen=True, slots=True)
class Finding:
    id: str
    doc: str
    line: int
    claim: str
    verdict: str
    category: str
    surface: bool
    query: str
    evidence: tuple[Span, ...]

    @property
    def is_defect(self) -> bool:
        return self.verdict != "consistent"


def load_findings(path: Path) -> list[Finding]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read findings manifest ({exc})") from exc
    out: list[Finding] = []
    for item in data.get("finding", []):
        spans = tuple(
            Span(e["path"], int(e["start_line"]), int(e["end_line"]), e.get("symbol"))
            for e in item.get("evidence", [])
        )
        out.append(
            Finding(
                id=item["id"], doc=item["doc"], line=int(item["line"]), claim=item["claim"],
                verdict=item["verdict"], category=item["category"], surface=bool(item.get("surface", False)),
                query=item["query"], evidence=spans,
            )
        )
    return out


def hit_matches(hit: Hit, spans: Sequence[Span]) -> bool:
    c = hit.chunk
    return any(c.path == s.path and c.start_line <= s.end_line and s.start_line <= c.end_line for s in spans)


def first_match_rank(hits: Sequence[Hit], spans: Sequence[Span]) -> int | None:
    return next((h.rank for h in hits if hit_matches(h, spans)), None)


@dataclass(frozen=True, slots=True)
class RecallRow:
    category: str
    n: int
    recall_at_1: float
    recall_at_5: float
    mrr: float


def recall_table(
    findings: Sequence[Finding], search: Callable[[str], Sequence[Hit]]
) -> tuple[list[RecallRow], dict[str, int | None]]:
    """Recall@1/@5 and MRR per category (plus ``all``), and each finding's first matching rank."""
    ranks: dict[str, int | None] = {}
    by_cat: dict[str, list[int | None]] = defaultdict(list)
    for f in findings:
        rank = first_match_rank(search(f.query), f.evidence)
        ranks[f.id] = rank
        by_cat[f.category].append(rank)
        by_cat["all"].append(rank)
    rows = []
    for cat in sorted(by_cat, key=lambda c: (c == "all", c)):
        rs = by_cat[cat]
        rows.append(
            RecallRow(
                category=cat,
                n=len(rs),
                recall_at_1=sum(r == 1 for r in rs) / len(rs),
                recall_at_5=sum(r is not None and r <= 5 for r in rs) / len(rs),
                mrr=sum(1 / r for r in rs if r) / len(rs),
            )
        )
    return rows, ranks
