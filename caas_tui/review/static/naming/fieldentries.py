"""A parameter entry that repeats another entry of its section while a parameter goes undocumented.

``Args: origin: Scene to query.`` next to ``origin: Ray start.`` and no entry for ``scene``: each
name exists, yet the section documents one parameter twice and another not at all, so one of the
two entries names the wrong parameter. The signature's order says which one when it can.
"""

from __future__ import annotations

from caas_tui.models import Claim, EvidenceSpan
from caas_tui.review.claims.docstrings import FieldFact, parse_field
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Edit, Finding, bad
from caas_tui.review.static.model.pysig import Signature


def _heading(text: str) -> str:
    """``Args`` of ``Args: x: ...``; a Sphinx ``:param x:`` entry has the role as its heading."""
    return text.split(":", 1)[0].strip().lower() if not text.startswith(":") else "param"


def _entry_names(fact: FieldFact) -> list[str]:
    return [n.strip().lstrip("*") for n in (fact.name or "").split(",") if n.strip()]


def section_entries(ctx: ReviewContext, claim: Claim) -> list[tuple[Claim, list[str]]]:
    """The parameter entries of the claim's docstring section (same owner, same heading), in order."""
    heading = _heading(claim.text)
    out: list[tuple[Claim, list[str]]] = []
    for other in ctx.doc_claims(claim.doc_path):
        if other.kind != "field" or other.section != claim.section or _heading(other.text) != heading:
            continue
        fact = parse_field(other.text)
        if fact is not None and fact.role == "param" and fact.name:
            out.append((other, _entry_names(fact)))
    return out


def check_entry_duplicates(ctx: ReviewContext, claim: Claim, name: str, sig: Signature, label: str,
                           ev: EvidenceSpan | None) -> list[Finding]:
    entries = section_entries(ctx, claim)
    mine = next((i for i, (c, _) in enumerate(entries) if c.start_line == claim.start_line), None)
    if mine is None:
        return []
    naming = [i for i, (_, names) in enumerate(entries) if name in names]
    if len(naming) < 2:
        return []
    documented = {n for _, names in entries for n in names}
    params = [p.name for p in sig.params if p.name not in ("self", "cls") and p.kind not in ("var", "varkw")]
    missing = [p for p in params if p not in documented]
    if not missing:
        return []
    # The entry that sits where the signature has an undocumented parameter is the wrong one;
    # when the order tells nothing, each of the repeated entries is suspect.
    at_missing = [i for i in naming if i < len(params) and params[i] in missing]
    if at_missing and mine not in at_missing:
        return []
    check = f"the entries of this section document each parameter of `{label}` once"
    said = ", ".join(f"`{m}`" for m in missing)
    rationale = f"`{name}` is documented by {len(naming)} entries of this section and {said} by none"
    if at_missing:
        right = params[mine]
        return [bad("contradicted", check, f"{rationale}; this entry stands where `{label}` has `{right}`", ev,
                    edit=Edit(claim.start_line, claim.end_line, name, right), aspect="parameters")]
    return [bad("incomplete", check, rationale, ev, aspect="parameters")]
