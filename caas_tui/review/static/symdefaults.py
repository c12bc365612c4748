"""A default written as a reST role (``defaults to :class:`Option```, ``:data:`TIMEOUT```,
``:attr:`Mode.FAST```) against the default expression in the code: the same symbol
(or an instance of the stated class), or the same constant value."""

from __future__ import annotations

import ast

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.facts import StatedValue
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.pysig import Signature, evaluate, none_fallback, same_value
from caas_tui.review.static.resolve import Def


def _default_expr(sig: Signature, param: str, default: ast.expr) -> ast.expr | None:
    if isinstance(default, ast.Constant) and default.value is None:
        replaced, fallback = none_fallback(sig.fn, param)
        return fallback if replaced else default
    return default


def check_symbol_default(
    ctx: ReviewContext, claim: Claim, sig: Signature, param: str, sv: StatedValue, label: str
) -> list[Finding]:
    p = sig.named(param)
    mod = sig.fn.module
    if p is None or p.default is None or mod is None:
        return []
    expr = _default_expr(sig, param, p.default)
    if expr is None:
        return []
    res = ctx.resolve(sv.text, claim)
    if not res.found or res.ambiguous or res.target is None:
        return []
    stated = res.target
    ev = ctx.evidence(sig.fn)
    check = f"default of `{param}` in `{label}` is `{sv.text}`"
    written = mod.segment(expr)
    modd = Def("module", mod.name, mod)
    if isinstance(expr, ast.Constant):
        if expr.value is None:
            return []  # None handed on: the value is substituted elsewhere
        if stated.kind != "attribute" or stated.module is None or stated.owner is not None:
            return [bad("contradicted", check, f"`{label}` defaults `{param}` to {written}, not `{sv.text}`", ev,
                        aspect="default")]
        const = evaluate(ast.Name(id=stated.short, ctx=ast.Load()), Def("module", stated.module.name, stated.module),
                         ctx.resolver)
        if const is None:
            return []
        if same_value(const.value, expr.value):
            return [ok(check, ev, ctx.evidence(stated), aspect="default")]
        return [bad("contradicted", check, f"`{label}` defaults `{param}` to {written}; `{sv.text}` is {const.source}",
                    ev, ctx.evidence(stated), aspect="default")]
    name = dotted(expr.func if isinstance(expr, ast.Call) else expr)
    if name is None:
        return []
    actual = ctx.resolver.resolve_in(mod, name)
    if not actual.found or actual.target is None:
        return []
    target = actual.target
    if target.qualname == stated.qualname or (target.kind == "external" and target.short == stated.short):
        return [ok(check, ev, aspect="default")]
    if not (target.is_project and stated.is_project):
        return []
    if target.kind == "class" and stated.kind == "class" and _derives(ctx, target, stated):
        return [ok(check, ev, aspect="default")]
    if target.kind == "attribute" and stated.kind == "attribute":
        a = evaluate(expr, modd, ctx.resolver)
        b = evaluate(ast.Name(id=stated.short, ctx=ast.Load()), Def("module", stated.module.name, stated.module),
                     ctx.resolver) if stated.module is not None and stated.owner is None else None
        if a is not None and b is not None and same_value(a.value, b.value):
            return [ok(check, ev, aspect="default")]
    return [bad("contradicted", check, f"`{label}` defaults `{param}` to `{written}` (`{target.qualname}`), "
                f"not `{sv.text}`", ev, ctx.evidence(target), aspect="default")]


def _derives(ctx: ReviewContext, cls: Def, base: Def) -> bool:
    stack, seen = [cls], set()
    while stack:
        cur = stack.pop()
        if cur.qualname == base.qualname:
            return True
        if cur.kind != "class" or id(cur.node) in seen:
            continue
        seen.add(id(cur.node))
        stack.extend(ctx.resolver.bases(cur)[0])
    return False
