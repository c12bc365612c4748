"""Behaviour claims a check can see: "`X` calls `Y`" (or "`Y` is called by `X`") against
the calls X makes directly and through the project code it calls, and "`X` retries
three times" against the one retry-count parameter of X. Anything else (always/never
in general, ordering, timing) stays unchecked: the verdict says so."""

from __future__ import annotations

import ast
import re

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.codefacts.raisecheck import open_ended
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.factchecks import quantity_finding
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import own_nodes
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import callable_mentions
from caas_tui.review.static.referents.subjects import claim_signatures, subject_of
from caas_tui.review.static.wording.units import Quantity, quantities

_CALLS = re.compile(r"\b(?:calls|invokes|will call|then calls)\b", re.IGNORECASE)
_CALLED_BY = re.compile(r"\b(?:is|are|gets|get)\s+(?:then\s+)?(?:called|invoked)\s+by\b", re.IGNORECASE)
_NEGATED = re.compile(r"(?:\bnever|\bnot|n't)\s+(?:\w+\s+)?$", re.IGNORECASE)
_RETRY_PARAM = re.compile(r"retr(?:y|ies)|attempts|tries", re.IGNORECASE)
_MAX_DEPTH = 3


def _label(fn: Def) -> str:
    parts = fn.qualname.split(".")
    return ".".join(parts[-2:]) if fn.owner is not None else parts[-1]


def _function(ctx: ReviewContext, d: Def) -> Def | None:
    if d.kind == "class":
        init = ctx.resolver.member(d, "__init__")
        return init.target if init.found and init.target is not None and init.target.kind == "function" else None
    return d if d.kind == "function" else None


def reached_names(ctx: ReviewContext, fn: Def) -> tuple[set[str], bool]:
    """Short names ``fn`` calls or refers to (a function handed on may be called later),
    through project callees; and whether some call is opaque (a parameter or ``getattr``
    called: it may call anything)."""
    names: set[str] = set()
    opaque = False
    seen: set[int] = set()
    todo = [(fn, 0)]
    while todo:
        f, depth = todo.pop()
        if f.node is None or id(f.node) in seen or f.module is None:
            continue
        seen.add(id(f.node))
        if depth > _MAX_DEPTH:
            opaque = True
            continue
        params = {a.arg for a in ast.walk(f.node.args) if isinstance(a, ast.arg)} \
            if isinstance(f.node, (ast.FunctionDef, ast.AsyncFunctionDef)) else set()
        for n in own_nodes(f.node):
            if isinstance(n, ast.Attribute):
                names.add(n.attr)
            elif isinstance(n, ast.Name):
                names.add(n.id)
            if not isinstance(n, ast.Call):
                continue
            name = dotted(n.func)
            if name is None or name.split(".")[0] in params - {"self", "cls"} or name in ("getattr", "eval", "exec"):
                opaque = True
                continue
            if name.startswith(("self.", "cls.")) and f.owner is not None and name.count(".") == 1:
                res = ctx.resolver.member(f.owner, name.split(".")[1])
            else:
                res = ctx.resolver.resolve_in(f.module, name)
            if res.found and res.target is not None and res.target.kind == "attribute":
                opaque = True  # a stored callable: it may be anything
                continue
            if name.startswith(("self.", "cls.")) and not res.found:
                opaque = True
                continue
            targets = [res.target] if res.found and res.target is not None else \
                [d for d in ctx.resolver.defs_named(name.rsplit(".", 1)[-1]) if d.kind == "function"]
            for t in targets:
                callee = _function(ctx, t) if t is not None and t.is_project else None
                if callee is not None:
                    todo.append((callee, depth + 1))
    return names, opaque


def _direct_call(fn: Def, short: str) -> bool:
    return fn.node is not None and any(
        isinstance(n, ast.Call) and (dotted(n.func) or "").rsplit(".", 1)[-1] == short for n in own_nodes(fn.node)
    )


def _pairs(ctx: ReviewContext, claim: Claim) -> list[tuple[Def, Def, bool]]:
    """(caller, callee, negated) the claim states."""
    mentions = callable_mentions(ctx, claim)
    out: list[tuple[Def, Def, bool]] = []
    for m in _CALLS.finditer(claim.text):
        caller = subject_of(ctx, claim, m.start())
        after = [d for pos, d in mentions if m.end() <= pos <= m.end() + 40]
        if caller is not None and after:
            out.append((caller, after[0], bool(_NEGATED.search(claim.text[max(0, m.start() - 20):m.start()]))))
    for m in _CALLED_BY.finditer(claim.text):
        before = [d for pos, d in mentions if pos < m.start()]
        after = [d for pos, d in mentions if m.end() <= pos <= m.end() + 40]
        if before and after:
            out.append((after[0], before[-1], bool(_NEGATED.search(claim.text[max(0, m.start() - 20):m.start()]))))
    return out


def check_calls(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    findings: list[Finding] = []
    for caller_def, callee, negated in _pairs(ctx, claim):
        caller = _function(ctx, caller_def)
        if caller is None or callee.kind not in ("function", "class") or caller.node is callee.node:
            continue
        names, opaque = reached_names(ctx, caller)
        check = f"`{_label(caller)}` calls `{callee.short}`"
        ev = ctx.evidence(caller)
        if callee.short in names and not negated:
            findings.append(ok(check, ev, aspect="calls"))
            continue
        if callee.short in names:
            if _direct_call(caller, callee.short):
                findings.append(bad("contradicted", f"`{_label(caller)}` does not call `{callee.short}`",
                                    f"`{_label(caller)}` calls `{callee.short}` itself", ev, aspect="calls"))
            continue
        if opaque or open_ended(ctx, caller):
            continue
        if negated:
            findings.append(ok(f"`{_label(caller)}` does not call `{callee.short}`", ev, aspect="calls"))
            continue
        findings.append(bad("contradicted", check, f"neither `{_label(caller)}` nor the project code it calls "
                            f"calls or refers to `{callee.short}`", ev, ctx.evidence(callee), aspect="calls"))
    return findings


def check_retries(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    """"retries three times" about a callable with exactly one retry-count parameter."""
    if not re.search(r"\bretr(?:y|ies|ied)\b", claim.text, re.IGNORECASE):
        return []
    qs = [q for q in quantities(claim.text) if q.family == "count"]
    if len(qs) != 1:
        return []
    found: dict[int, tuple[Def, str]] = {}
    for key, (d, sig) in claim_signatures(ctx, claim).items():
        params = [p.name for p in sig.params if _RETRY_PARAM.search(p.name) and p.default is not None]
        if len(params) == 1:
            found[key] = (d, params[0])
    if len(found) != 1:
        return []
    subject, param = next(iter(found.values()))
    return _quantity_default(ctx, claim, subject, param, qs[0])


def _quantity_default(ctx: ReviewContext, claim: Claim, subject: Def, param: str, q: Quantity) -> list[Finding]:
    return [_with_behaviour(f) for f in quantity_finding(ctx, claim, subject, param, q)]


def _with_behaviour(f: Finding) -> Finding:
    return Finding(f.status, f.check, f.rationale, f.evidence, f.edit, (*f.aspects, "behaviour"))
