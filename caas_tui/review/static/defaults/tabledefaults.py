"""A Markdown table row read as a default claim: under a header with a name column and a
"Default" column, ``| `timeout` | 30 s | ... |`` says the parameter ``timeout`` of the
section's class or function defaults to 30 seconds.

The name column may carry its owner (``| `RateBook` setting | default |``). A cell that opens
with a quantity and then says what it measures ("10 % change between two quotes") states that
quantity; a code literal with a gloss in brackets (```3600` (one hour)``) states the literal.

The subject is the one project callable among those the section names (its heading, code
blocks and inline code), the docstring owner or the sentence's own names that takes a
parameter of that name; none, or several, is no answer. A cell holding a literal or a stdlib
value-type call (``Decimal("0.01")``, ``timedelta(seconds=30)``: ``model.valuecalls``) is compared
by value; one that is no literal or quantity ("required", "—", "see below") is left alone.
"""

from __future__ import annotations

import re

from caas_tui.models import Claim
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.defaults.numbers import is_quantity, quantity_matches, restate_value
from caas_tui.review.static.defaults.symdefaults import resolved_default
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import Signature, same_value
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.model.valuecalls import parse_value
from caas_tui.review.static.referents.sectionnames import section_subjects
from caas_tui.review.static.referents.subjects import owner_of
from caas_tui.review.static.wording.tablerows import context_row
from caas_tui.review.static.wording.units import Quantity, quantities

_DEFAULT_COL = re.compile(r"^\W*default(?:\s+value)?s?\W*$", re.IGNORECASE)
# "name", or the subject's own "`RateBook` setting": the header names whose settings the rows are.
_NAME_COL = re.compile(r"^\W*(?:`[^`]+`\s+)?(?:name|parameter|param|option|argument|arg|keyword|setting|field|attribute|key)s?\W*$",
                       re.IGNORECASE)
_IDENT = re.compile(r"^`?\s*([A-Za-z_]\w*)\s*(?:=[^`]*)?`?$")


def table_cell(claim: Claim) -> tuple[str, str] | None:
    """(name, default cell) of a table row under a header with both columns."""
    row = context_row(claim.context)
    if row is None:
        return None
    header, cells = row
    default = [i for i, h in enumerate(header) if _DEFAULT_COL.match(h)]
    named = [i for i, h in enumerate(header) if _NAME_COL.match(h)] or [0]
    if len(default) != 1 or len(named) != 1 or default[0] == named[0]:
        return None
    ident = _IDENT.match(cells[named[0]])
    return (ident.group(1), cells[default[0]]) if ident else None


_GLOSS = re.compile(r"^(`[^`]+`)\s*\([^()]*\)\W*$")


def _literal(cell: str) -> tuple[bool, object]:
    text = cell.strip()
    gloss = _GLOSS.match(text)
    if gloss:
        text = gloss.group(1)  # "`3600` (one hour)": the code is the value, the brackets restate it
    if text.startswith("`") and text.endswith("`") and len(text) > 1:
        text = text.strip("`").strip()
    value = parse_value(text)  # a literal, or ``Decimal("0.01")``-style: compared by value
    return (True, value[0]) if value is not None else (False, None)


def _leads(q: Quantity, cell: str) -> bool:
    """The cell is the quantity, or opens with it and then says what it measures ("10 % change
    between two quotes"); a number after it would be a second value, a range or a condition."""
    body = cell.strip(" `*_").rstrip(".")
    offset = cell.find(q.text)
    if len(q.text) >= len(body) - 1:
        return True
    rest = cell[offset + len(q.text):]
    return body.startswith(q.text) and not re.search(r"\d", rest) and not _CONDITION.search(rest)


_CONDITION = re.compile(r"\b(?:unless|if|when|or|per|each|every|up\s+to|at\s+most|at\s+least|to)\b", re.IGNORECASE)


def _subjects(ctx: ReviewContext, claim: Claim) -> list[Def]:
    owner = owner_of(ctx, claim)
    return ([owner] if owner is not None else []) + section_subjects(ctx, claim)


def check_table_defaults(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind != "prose" or "table (" not in claim.context:
        return []
    found = table_cell(claim)
    if found is None:
        return []
    param, cell = found
    having: dict[int, tuple[Def, Signature]] = {}
    for d in _subjects(ctx, claim):
        sig = ctx.call_signature(d, on_instance=True)
        if sig is not None and sig.reliable and sig.named(param) is not None:
            having.setdefault(id(sig.fn.node), (d, sig))
    if len(having) != 1:
        return []
    subject, sig = next(iter(having.values()))
    p = sig.named(param)
    if p is None or p.default is None or p.kind in ("var", "varkw"):
        return []
    is_literal, stated = _literal(cell)
    qs = quantities(cell)
    actual = resolved_default(ctx, sig, param, p.default, none_stated=is_literal and stated is None)
    if actual is None:
        return []
    if is_literal:
        verdict: bool | None = same_value(stated, actual.value)
    elif len(qs) == 1 and _leads(qs[0], cell) and is_quantity(actual.value):
        verdict = quantity_matches(qs[0], param, actual.value)
    else:
        return []
    if verdict is None:
        return []
    label = subject.short
    check = f"default of `{param}` in `{label}` is {cell}"
    ev = [ctx.evidence(sig.fn), *(ctx.evidence(d) for d in actual.via)]
    # A cell with a unit states a quantity too, and this comparison is what checks it.
    aspect: tuple[str, ...] = ("default",) if is_literal else ("default", "value")
    if verdict:
        return [ok(check, *ev, aspect=aspect)]
    where = f" (via `{actual.via[-1].qualname}`)" if actual.via else ""
    shown = None if is_literal else restate_value(qs[0], param, actual.value)
    also = f", which is {shown}" if shown and shown != actual.source else ""
    return [bad("contradicted", check, f"`{label}` defaults `{param}` to {actual.source}{where}{also}, not {cell}",
                *ev, aspect=aspect)]
