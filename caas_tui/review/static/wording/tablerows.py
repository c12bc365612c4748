"""A Markdown table row as the claim extractor hands it over: ``table (h1 | h2): c1 | c2`` in the
claim's context. Pure text work, shared by the checks that read a row's columns."""

from __future__ import annotations

import re

from caas_tui.models import Claim

_TABLE = re.compile(r"^table \((?P<header>[^\n]*?)\): (?P<row>[^\n]*)$", re.MULTILINE)


def table_row(claim: Claim) -> tuple[list[str], list[str]] | None:
    """(header cells, row cells) of a table row claim with as many cells as headers, else None."""
    if claim.kind != "prose" or "table (" not in claim.context:
        return None
    return context_row(claim.context)


def context_row(context: str) -> tuple[list[str], list[str]] | None:
    """(header cells, row cells) of the last table row in a claim's context, when the counts agree."""
    rows = list(_TABLE.finditer(context))
    if not rows:
        return None
    m = rows[-1]
    header = [c.strip() for c in m.group("header").split(" | ")]
    cells = [c.strip() for c in m.group("row").split(" | ")]
    return (header, cells) if len(cells) == len(header) else None


def column(header: list[str], pattern: re.Pattern[str]) -> int | None:
    """The one column whose header matches ``pattern``, else None."""
    hits = [i for i, h in enumerate(header) if pattern.match(h)]
    return hits[0] if len(hits) == 1 else None
