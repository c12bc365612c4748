"""A signature written inline in prose (``f(a, *, b=1, c=DEFAULT)``): the bare ``*`` or ``/``
says it is the signature, not an example call, so each ``name=value`` states that parameter's
default and the marker states which parameters are keyword-only. Names and arity are checked as
for any inline call (``naming.names``); this checks the defaults and the keyword-only marker.
A default no check can decide stays an asserted, unchecked ``default``, so the row is never
``consistent`` on its names alone.
"""

from __future__ import annotations

import ast
import re

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import dotted, is_signature
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.defaults.symdefaults import check_symbol_default, resolved_default
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import Signature, same_value
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import inline_calls
from caas_tui.review.static.wording.facts import StatedValue


def _unchecked(check: str, why: str, aspect: str) -> Finding:
    return Finding("unchecked", check, why, (), aspects=(aspect,))


def _label(target: Def, sig: Signature) -> str:
    return target.short if target.kind == "class" else sig.fn.short


def _default(ctx: ReviewContext, claim: Claim, sig: Signature, label: str, kw: ast.keyword) -> list[Finding]:
    assert kw.arg is not None
    if isinstance(kw.value, ast.Constant) and kw.value.value is Ellipsis:
        return []  # ``f(*, b)``: keyword-only, no default shown
    p = sig.named(kw.arg)
    if p is None or p.kind in ("var", "varkw"):
        return []  # a name the callable lacks: the inline-call check reports it
    mod = sig.fn.module
    written = ast.unparse(kw.value)
    check = f"default of `{kw.arg}` in `{label}` is {written}"
    ev = ctx.evidence(sig.fn)
    if p.default is None:
        return [bad("contradicted", check, f"`{kw.arg}` of `{label}` is required; it has no default", ev,
                    aspect="default")]
    if mod is not None and mod.segment(p.default) == written:
        return [ok(check, ev, aspect="default")]  # the default as the code spells it
    if isinstance(kw.value, ast.Constant):
        actual = resolved_default(ctx, sig, kw.arg, p.default, none_stated=kw.value.value is None)
        if actual is None:
            return [_unchecked(check, "", "default")]
        if same_value(kw.value.value, actual.value):
            return [ok(check, ev, *[ctx.evidence(d) for d in actual.via], aspect="default")]
        source = mod.segment(p.default) if mod is not None else actual.source
        return [bad("contradicted", check, f"`{label}` defaults `{kw.arg}` to {source}, not {written}", ev,
                    aspect="default")]
    name = dotted(kw.value)
    if name is not None:
        found = check_symbol_default(ctx, claim, sig, kw.arg, StatedValue(name, name, False, 0, symbol=True), label)
        return found or [_unchecked(check, "", "default")]
    return [_unchecked(check, "", "default")]


def check_signature_spans(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind == "code":
        return []
    findings: list[Finding] = []
    for m, call, target in inline_calls(ctx, claim):
        raw = m.raw.strip()
        if not is_signature(raw):
            continue
        sig = ctx.call_signature(target, on_instance=True)
        if sig is None or not sig.reliable:
            continue
        label = _label(target, sig)
        ev = ctx.evidence(sig.fn)
        star = raw.find("*,")
        for kw in call.keywords:
            if kw.arg is None:
                continue
            findings += _default(ctx, claim, sig, label, kw)
            p = sig.named(kw.arg)
            shown_keyword_only = star != -1 and re.search(rf"\b{re.escape(kw.arg)}\b", raw[star:]) is not None
            if p is not None and p.kind == "kwonly" and not shown_keyword_only:
                findings.append(bad("contradicted", f"`{kw.arg}` of `{label}` may be passed by position",
                                    f"`{kw.arg}` of `{label}` is keyword-only; the signature shows it before `*`", ev,
                                    aspect="kind"))
            elif p is not None and p.kind in ("pos", "posonly") and shown_keyword_only:
                findings.append(_unchecked(f"`{kw.arg}` of `{label}` is keyword-only",
                                           f"the code lets `{kw.arg}` be passed by position", "kind"))
        for arg in call.args:
            p = sig.named(arg.id) if isinstance(arg, ast.Name) else None
            if p is not None and p.kind == "kwonly":
                findings.append(bad("contradicted", f"`{p.name}` of `{label}` may be passed by position",
                                    f"`{p.name}` of `{label}` is keyword-only; the signature shows it as positional",
                                    ev, aspect="kind"))
    return findings
