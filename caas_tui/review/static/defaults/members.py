"""Members a doc lists ("retries on 502, 503 and 504", "only `GET` and `HEAD` are
retried") against a collection the code holds: the default of the one parameter the
sentence names (``retry_statuses=(502, 503)``) or a constant the claim names
(```RETRY_METHODS```).

A listed member the collection lacks is a contradiction; with "only", so is a member the
collection has and the list leaves out. The same members cover the claim's default.
Lists are read as the code writes them: backticked or quoted values, ALL-CAPS words and
runs of numbers ("502, 503 or 504"); a lone number is never a member.
"""

from __future__ import annotations

import ast
import re

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import find_mentions
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.defaults.symdefaults import resolved_default
from caas_tui.review.static.defaults.worddefaults import pick_param
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import Value, evaluate
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import callable_mentions, resolve_mention
from caas_tui.review.static.naming.nouns import noun_subjects
from caas_tui.review.static.referents.subjects import owner_of

_QUOTED = re.compile(r"`+\s*['\"]?([^`'\"]+?)['\"]?\s*`+|\"([^\"\n]+)\"|'([^'\n]+)'")
_CAPS = re.compile(r"\b([A-Z]{3,})\b")
_NUMBER_RUN = re.compile(r"\b(\d+)((?:\s*(?:,|,?\s+(?:and|or))\s*\d+)+)\b")
_ONLY = re.compile(r"\bonly\b", re.IGNORECASE)
_EXAMPLE = re.compile(r"\b(?:e\.g\.|for\s+example|such\s+as|like|including|among|set|pass|add|extend)\b|=",
                      re.IGNORECASE)


def stated_members(text: str) -> tuple[set[str], set[int]]:
    """(strings, numbers) a sentence lists."""
    strings = {next(g for g in m.groups() if g).strip() for m in _QUOTED.finditer(text)}
    prose = _QUOTED.sub(" ", text)
    strings |= set(_CAPS.findall(prose))
    numbers: set[int] = set()
    for m in _NUMBER_RUN.finditer(prose):
        numbers |= {int(n) for n in re.findall(r"\d+", m.group(0))}
    return strings, numbers


def _collection(value: object) -> tuple[set[str], set[int]] | None:
    if not isinstance(value, (tuple, list, set, frozenset)) or not value:
        return None
    if all(isinstance(v, str) for v in value):
        return {str(v) for v in value}, set()
    if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return set(), {int(v) for v in value}
    return None


def _constant_collections(ctx: ReviewContext, claim: Claim) -> list[tuple[Def, Value]]:
    out: list[tuple[Def, Value]] = []
    for m in find_mentions(claim.text):
        if m.origin not in ("code", "role"):
            continue
        res = resolve_mention(ctx, claim, m)
        target = res.target if res.found and not res.ambiguous else None
        if target is None or target.kind != "attribute" or target.module is None:
            continue
        stmt = target.node
        value = getattr(stmt, "value", None)
        if not isinstance(stmt, (ast.Assign, ast.AnnAssign)) or value is None:
            continue
        got = _evaluate(ctx, value, Def("module", target.module.name, target.module))
        if got is not None and _collection(got.value) is not None:
            out.append((target, got))
    return out


_BUILDERS = frozenset({"frozenset", "set", "tuple", "list", "sorted"})


def _evaluate(ctx: ReviewContext, expr: ast.expr, mod: Def) -> Value | None:
    """A literal or constant, also through ``frozenset({...})``-style builders."""
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in _BUILDERS \
            and len(expr.args) == 1 and not expr.keywords:
        inner = evaluate(expr.args[0], mod, ctx.resolver)
        if inner is not None and isinstance(inner.value, (tuple, list, set, frozenset)):
            src = mod.module.segment(expr) if mod.module is not None else ast.unparse(expr)
            return Value(tuple(inner.value), src, inner.via)
        return None
    return evaluate(expr, mod, ctx.resolver)


def _param_collections(ctx: ReviewContext, claim: Claim) -> list[tuple[Def, str, Value]]:
    """(function, parameter, default) for the one collection parameter the sentence names."""
    candidates = [d for _, d in callable_mentions(ctx, claim)] + [d for _, d in noun_subjects(ctx, claim)]
    owner = owner_of(ctx, claim)
    if owner is not None:
        candidates.append(owner)
    found: dict[tuple[int, str], tuple[Def, str, Value]] = {}
    for d in candidates:
        sig = ctx.call_signature(d, on_instance=True)
        if sig is None or not sig.reliable:
            continue
        for p in sig.params:
            if p.default is None or p.kind in ("var", "varkw"):
                continue
            value = resolved_default(ctx, sig, p.name, p.default, none_stated=False)
            if value is None and sig.fn.module is not None:
                value = _evaluate(ctx, p.default, Def("module", sig.fn.module.name, sig.fn.module))
            if value is not None and _collection(value.value) is not None:
                found.setdefault((id(sig.fn.node), p.name), (sig.fn, p.name, value))
    if not found:
        return []
    picked = pick_param(claim.text, [name for _, name in found])  # the sentence must name it
    return [v for (_, name), v in found.items() if name == picked] if picked else []


def _label(fn: Def) -> str:
    parts = fn.qualname.split(".")
    return ".".join(parts[-2:]) if fn.owner is not None else parts[-1]


def check_members(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind not in ("prose", "field") or _EXAMPLE.search(claim.text):
        return []
    strings, numbers = stated_members(claim.text)
    if not strings and not numbers:
        return []
    holders: list[tuple[str, Def, Value]] = [(f"`{t.short}`", t, v) for t, v in _constant_collections(ctx, claim)]
    if not holders:
        params = _param_collections(ctx, claim)
        if len(params) != 1:
            return []
        fn, name, value = params[0]
        holders = [(f"the default of `{name}` in `{_label(fn)}`", fn, value)]
    only = bool(_ONLY.search(claim.text))
    findings: list[Finding] = []
    for shown, holder, value in holders:
        coll = _collection(value.value)
        if coll is None:
            continue
        if coll[0]:
            have: set[str] | set[int] = coll[0]
            # A bare ALL-CAPS word may be prose ("HTTP"): only quoted ones, or members, count.
            quoted = {next(g for g in m.groups() if g).strip() for m in _QUOTED.finditer(claim.text)}
            stated: set[str] | set[int] = {x for x in strings if x in coll[0] or (x in quoted and x.upper() == x)}
        else:
            have = coll[1]
            digits = {len(str(n)) for n in coll[1]}
            stated = {n for n in numbers if len(str(n)) in digits}
        if len(stated) < (1 if only else 2):
            continue  # one value with no "only": a mention, not a list
        ev = [ctx.evidence(holder)] + [ctx.evidence(d) for d in value.via]
        check = f"{shown} holds {', '.join(map(str, sorted(stated, key=str)))}"
        extra = sorted(stated - have, key=str)
        missing = sorted(have - stated, key=str)
        if extra:
            findings.append(bad("contradicted", check, f"{shown} is {value.source}: it has no "
                                f"{', '.join(map(str, extra))}", *ev, aspect=("default", "behaviour")))
        elif missing and only:
            findings.append(bad("contradicted", check, f"{shown} is {value.source}: it also has "
                                f"{', '.join(map(str, missing))}", *ev, aspect=("default", "behaviour")))
        elif not missing:
            findings.append(ok(check, *ev, aspect=("default", "behaviour")))
    return findings
