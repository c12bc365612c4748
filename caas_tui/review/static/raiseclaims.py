"""Raise claims ("raises X when ...", ``:raises X:``, "never raises X") against what the
function and the project code it calls can raise, and against a body that handles the
stated condition by returning or clamping instead."""

from __future__ import annotations

import re

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import FieldFact
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.ctorclaims import about_construction
from caas_tui.review.static.facts import stated_raises
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.flow import handles_without_raising, own_raise_outside_try
from caas_tui.review.static.names import subject_before
from caas_tui.review.static.raisecheck import IMPLICIT, clamps, is_subclass, judge, open_ended, stated_exception
from caas_tui.review.static.resolve import Def

_NEGATED = re.compile(r"(?:\bnever|\bnot|n't|\bnor|\bwithout)\s+(?:\w+\s+)?$", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.;](?:\s|$)")


def _label(fn: Def) -> str:
    parts = fn.qualname.split(".")
    return ".".join(parts[-2:]) if fn.owner is not None else parts[-1]


def _condition_params(ctx: ReviewContext, fn: Def, condition: str) -> set[str]:
    sig = ctx.signature(fn)
    if sig is None or not condition:
        return set()
    names = {p.name for p in sig.params if p.name not in ("self", "cls")}
    return {n for n in names if re.search(rf"(?<![\w.]){re.escape(n)}(?!\w)", condition)}


def stated_raise_claims(ctx: ReviewContext, claim: Claim, fact: FieldFact | None, subject: Def | None) -> list[tuple[Def, str, bool, str]]:
    """(subject, exception, negated, condition text)."""
    if fact is not None:
        if fact.role == "raises" and fact.name and subject is not None:
            return [(subject, fact.name, False, fact.desc)]
        return []
    out: list[tuple[Def, str, bool, str]] = []
    for m in re.finditer(r"\b(?:raises?|throws?)\b", claim.text):
        subj = subject_before(ctx, claim, m.start())
        if subj is None:
            continue
        rest = claim.text[m.start():m.start() + 160]
        end = _SENTENCE_END.search(rest)
        rest = rest[: end.start()] if end else rest
        negated = bool(_NEGATED.search(claim.text[max(0, m.start() - 30):m.start()]))
        out += [(subj, name, negated, rest) for name in stated_raises(rest)[:1]]
    return out


def check_raises(ctx: ReviewContext, claim: Claim, fact: FieldFact | None, subject: Def | None) -> list[Finding]:
    findings: list[Finding] = []
    for subj, name, negated, condition in stated_raise_claims(ctx, claim, fact, subject):
        if subj.kind == "class":
            if not about_construction(ctx, claim, subj, field=fact is not None):
                continue  # "some methods of X raise ...": not a claim about X's constructor
            init = ctx.resolver.member(subj, "__init__")
            if not (init.found and init.target is not None and init.target.kind == "function"):
                continue
            subj = init.target
        if subj.kind != "function":
            continue
        exc = stated_exception(ctx, name, claim)
        if exc is None:
            continue
        label = _label(subj)
        if negated:
            findings += _check_never(ctx, subj, exc, name, label)
            continue
        result, reached = judge(ctx, subj, exc)
        ev = [ctx.evidence(subj)] + [ctx.evidence(d) for d in reached.evidence[:2]]
        check = f"`{label}` raises `{name}`"
        if result is None and not reached.opaque and exc.qualname not in IMPLICIT and not open_ended(ctx, subj) \
                and not _related_raised(ctx, reached, exc):
            # Calls leave the project, so a builtin exception may come from there -- unless
            # the body visibly deals with the stated condition another way.
            how = handles_without_raising(subj, _condition_params(ctx, subj, condition))
            if how is not None:
                instead = "it clamps the value with `min`/`max`" if how == "clamps" else \
                    "it returns (or substitutes a value) on that condition"
                findings.append(bad("contradicted", check, f"`{label}` does not raise `{name}` there: {instead}, and "
                                    "no `raise` in it or the project code it calls names that exception", *ev,
                                    aspect="raises"))
            continue
        if result is None:
            continue
        if result:
            findings.append(ok(check, *ev, aspect="raises"))
            continue
        raised = ", ".join(f"`{q.rsplit('.', 1)[-1]}`" for q in reached.raised)
        instead = f"it raises {raised}" if raised else "nothing it runs raises anything"
        if not raised and clamps(subj):
            instead += "; it clamps the value with `min`/`max` instead"
        findings.append(bad("contradicted", check, f"`{label}` never raises `{name}` ({instead})", *ev, aspect="raises"))
    return findings


def _related_raised(ctx: ReviewContext, reached: object, exc: Def) -> bool:
    """Something in reach raises a superclass of ``exc`` (``raise LookupError`` for a stated ``KeyError``)."""
    raised = getattr(reached, "raised", {})
    return any(is_subclass(ctx, exc, r) for r in raised.values())


def _check_never(ctx: ReviewContext, fn: Def, exc: Def, name: str, label: str) -> list[Finding]:
    """"never raises X": contradicted only by a ``raise X`` in its own body that nothing catches."""
    names = {exc.qualname.rsplit(".", 1)[-1]}
    names |= {d.qualname.rsplit(".", 1)[-1] for d in ctx.subclasses(exc)} if exc.kind == "class" else set()
    node = own_raise_outside_try(fn, names)
    if node is None:
        return []
    ev = ctx.evidence(fn)
    return [bad("contradicted", f"`{label}` never raises `{name}`",
                f"`{label}` raises `{name}` itself (line {node.lineno})", ev, aspect="raises")]
