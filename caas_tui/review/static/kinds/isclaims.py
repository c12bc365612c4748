"""``X is a `C``` claims: an attribute's class, or a class's base.

"`scene.events` is an `EventBus`" states the class of what ``Scene.events`` holds;
"`SpinSystem` is a `ManagedSystem`" states a base class. Both are judged against the
code: the attribute's class as one place in the owner says it (``delegation``), the
class's resolved bases. A claim either form can't decide keeps its ``type`` kind
unchecked (``assertions`` sorts it as one).
"""

from __future__ import annotations

import ast

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import find_mentions
from caas_tui.review.static.codefacts.delegation import attribute_class
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import resolve_mention
from caas_tui.review.static.wording.assertions import IS_A


def _class_of(ctx: ReviewContext, claim: Claim, span: str) -> Def | None:
    for m in find_mentions(span):
        res = resolve_mention(ctx, claim, m)
        target = res.target if res.found and not res.ambiguous else None
        return target if target is not None and target.kind == "class" and target.is_project else None
    return None


def _subject(ctx: ReviewContext, claim: Claim, span: str) -> Def | None:
    for m in find_mentions(span):
        res = resolve_mention(ctx, claim, m)
        return res.target if res.found and not res.ambiguous else None
    return None


def _ancestors(ctx: ReviewContext, cls: Def) -> tuple[list[Def], bool]:
    """Every project base of ``cls`` (transitively) and whether one could not be resolved."""
    seen: dict[int, Def] = {}
    unknown = False
    todo = [cls]
    while todo:
        cur = todo.pop()
        if not isinstance(cur.node, ast.ClassDef) or cur.module is None:
            unknown = True
            continue
        bases, missing = ctx.resolver.bases(cur)
        unknown = unknown or missing
        for b in bases:
            if b.kind == "class" and b.node is not None and id(b.node) not in seen:
                seen[id(b.node)] = b
                todo.append(b)
            elif b.kind != "class" or b.node is None:
                unknown = True
    return list(seen.values()), unknown


def _is_kind_of(ctx: ReviewContext, cls: Def, wanted: Def) -> bool | None:
    if cls.node is wanted.node:
        return True
    ancestors, unknown = _ancestors(ctx, cls)
    if any(a.node is wanted.node for a in ancestors):
        return True
    return None if unknown else False


def check_is_a(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind == "code":
        return []
    out: list[Finding] = []
    for m in IS_A.finditer(claim.text):
        wanted = _class_of(ctx, claim, m.group("cls"))
        subject = _subject(ctx, claim, m.group("subject"))
        if wanted is None or subject is None or not subject.is_project:
            continue
        rel = (m.group("rel") or "").lower()
        if subject.kind == "class" and not rel.startswith("instance"):
            actual, what = subject, f"`{subject.short}`"
        elif subject.kind != "class" and not rel.startswith("subclass") and subject.owner is not None:
            found = attribute_class(ctx, subject.owner, subject.short)
            if found is None:
                continue
            actual, what = found, f"`{subject.owner.short}.{subject.short}` holds a `{found.short}`, which"
        else:
            continue
        verdict = _is_kind_of(ctx, actual, wanted)
        article = "an" if wanted.short[:1] in "AEIOU" else "a"
        fact = f"{m.group('subject')} is {article} `{wanted.short}`"
        if verdict is True:
            out.append(ok(fact, ctx.evidence(actual), aspect="type"))
        elif verdict is False:
            out.append(bad("contradicted", fact, f"{what} is not {article} `{wanted.short}` (nor derived from it)",
                           ctx.evidence(actual), ctx.evidence(wanted), aspect="type"))
    return out
