"""A table row read as a raise claim: under a header with a "Raises" (or "Exceptions",
"Errors") column, ``| `Money.from_minor(units, currency)` | ... | `UnknownCurrencyError` |``
says that callable raises each exception the cell names (a parenthesis after one is its
condition). Each is judged as a ``Raises:`` entry of that callable's docstring would be; an
exception no check can decide stays unchecked, so the row is never green on names alone.
"""

from __future__ import annotations

import re

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import FieldFact
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.outcomes.raiseclaims import check_raises
from caas_tui.review.static.wording.tablerows import column, table_row

_RAISES_COL = re.compile(r"^\W*(?:raises|raised|exceptions?|errors?|throws)\W*$", re.IGNORECASE)
_SUBJECT_COL = re.compile(r"^\W*(?:call|calls|function|functions|method|methods|signature|api|name|callable)\W*$",
                          re.IGNORECASE)
_CALLABLE = re.compile(r"^`+~?([A-Za-z_][\w.]*)\s*(?:\((?P<params>[^`]*)\))?`+$")
# `Err` (its condition) -- a cell lists exceptions, each optionally followed by a parenthesis;
# ```RateBook.convert``` (whatever that raises) names no exception class
_EXC = re.compile(r"`+~?((?:\w+\.)*[A-Z]\w*)`+(?:\s*\((?P<cond>[^)]*)\))?")
_PARAM = re.compile(r"(?:^|,)\s*\**([A-Za-z_]\w*)")


def row_callable(ctx: ReviewContext, claim: Claim, header: list[str], cells: list[str]) -> tuple[str, Def | None] | None:
    """(the name, the callable) a row's call column shows; the callable is None when it does not
    resolve, or resolves to several definitions and the row's parameter list picks none."""
    named = column(header, _SUBJECT_COL)
    subject = _CALLABLE.match(cells[0 if named is None else named])
    if subject is None:
        return None
    name = subject.group(1)
    params = {m.group(1) for m in _PARAM.finditer(subject.group("params") or "")}
    res = ctx.resolve(name, claim)
    target = res.target if res.found else None
    if target is not None and res.ambiguous:
        # several definitions carry the name: the row's own parameter list picks the one it means
        sig = ctx.call_signature(target, on_instance=True)
        if sig is None or not params or not params <= {p.name for p in sig.params}:
            target = None
    return name, target


def check_table_raises(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    row = table_row(claim)
    if row is None:
        return []
    header, cells = row
    at = column(header, _RAISES_COL)
    if at is None or at == (column(header, _SUBJECT_COL) or 0):
        return []
    excs = [(e.group(1), (e.group("cond") or "").strip()) for e in _EXC.finditer(cells[at])]
    found = row_callable(ctx, claim, header, cells) if excs else None
    if found is None:
        return []
    name, subject = found
    findings: list[Finding] = []
    for exc, condition in excs:
        judged = [] if subject is None else \
            check_raises(ctx, claim, FieldFact("raises", exc, None, f"If {condition}." if condition else ""), subject)
        findings += judged or [Finding("unchecked", f"`{name}` raises `{exc}`",
                                       f"whether `{name}` raises `{exc}` is not decided", aspects=("raises",))]
    return findings
