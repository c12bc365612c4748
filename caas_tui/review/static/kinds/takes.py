"""What a sentence says a callable is passed ("`Grid.count` takes the tile to count",
"`reset()` accepts no arguments") against its signature.

Only what a signature decides without reading what an argument means is judged: a callable
with no parameter at all (after ``self``) takes nothing, and one with a required parameter
does not take "no arguments". Which argument "the tile" is stays unchecked, so a sentence
naming one is never made ``consistent`` here.
"""

from __future__ import annotations

from caas_tui.models import Claim
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.referents.subjects import subject_of
from caas_tui.review.static.wording.assertions import TAKES


def check_takes(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind not in ("prose", "field"):
        return []
    out: list[Finding] = []
    for m in TAKES.finditer(claim.text):
        subject = subject_of(ctx, claim, m.start())
        if subject is None or subject.kind not in ("function", "class"):
            continue
        sig = ctx.call_signature(subject, on_instance=True)
        if sig is None or not sig.reliable:
            continue
        label = subject.label
        params = [p for p in sig.params if p.name not in ("self", "cls")]
        none_stated = m.group("np").lower().startswith("no")
        ev = ctx.evidence(sig.fn)
        if none_stated:
            required = [p.name for p in params if p.required]
            check = f"`{label}` takes no arguments"
            if required:
                names = ", ".join(f"`{n}`" for n in required)
                out.append(bad("contradicted", check, f"`{label}` requires {names}", ev, aspect="parameters"))
            elif not params:
                out.append(ok(check, ev, aspect="parameters"))
        elif not params:
            out.append(bad("contradicted", f"`{label}` takes {m.group('np')}",
                           f"`{label}` takes no arguments (its signature has no parameter)", ev, aspect="parameters"))
    return out
