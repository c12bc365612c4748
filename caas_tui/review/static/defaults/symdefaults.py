"""Resolved defaults (constants followed into other modules, a ``None`` the body swaps
for a value), and a default written as a reST role (``defaults to :class:`Option```,
``:data:`TIMEOUT```, ``:attr:`Mode.FAST```) against the default expression in the code:
the same symbol (or an instance of the stated class), or the same constant value."""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.codefacts.delegation import callee
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import Signature, Value, evaluate, none_fallback, own_nodes, same_value
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.wording.facts import CONSTANT_NAME, StatedValue


def _default_expr(sig: Signature, param: str, default: ast.expr) -> ast.expr | None:
    if isinstance(default, ast.Constant) and default.value is None:
        replaced, fallback = none_fallback(sig.fn, param)
        return fallback if replaced else default
    return default


_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


def names_symbol(sv: StatedValue, default: ast.expr) -> bool:
    """``defaults to `Units.METRIC``` (or a constant, ``default TTL_SECONDS``) for a default
    written as a name (``units=Units.METRIC``): compared as symbols, since an Enum member is
    not its value; constants that are not the same symbol compare by value."""
    return not sv.literal and bool(_DOTTED.fullmatch(sv.text) or CONSTANT_NAME.fullmatch(sv.text)) \
        and isinstance(default, (ast.Name, ast.Attribute))


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
    chain = alias_chain(ctx, actual.target)
    if any(t.qualname == stated.qualname for t in chain):
        return [ok(check, ev, *[ctx.evidence(t) for t in chain[1:]], aspect="default")]
    target = chain[-1]
    if target.kind == "external" and target.short == stated.short:
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


def alias_chain(ctx: ReviewContext, target: Def) -> list[Def]:
    """``target`` and what a module constant bound to a name stands for
    (``DEFAULT_ROUNDING = Rounding.HALF_EVEN``): a default written as the constant is that member."""
    chain = [target]
    while len(chain) <= _MAX_HOPS:
        cur = chain[-1]
        node = cur.node
        if cur.kind != "attribute" or cur.owner is not None or cur.module is None \
                or not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
            break
        name = dotted(node.value)
        res = ctx.resolver.resolve_in(cur.module, name) if name else None
        if res is None or not res.found or res.target is None or any(t.qualname == res.target.qualname for t in chain):
            break
        chain.append(res.target)
    return chain


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


def resolved_default(
    ctx: ReviewContext, sig: Signature, param: str, default: ast.expr, *, none_stated: bool, depth: int = 0
) -> Value | None:
    """The value ``param`` starts with: constants followed into other modules, a ``None``
    the body swaps for a value, a ``None`` handed on to a project callee that has its own
    default (``return self._send(url, timeout=timeout)``), or a ``self.attr`` set from the
    constructor. None when it can't be told."""
    mod = Def("module", sig.fn.module.name, sig.fn.module) if sig.fn.module else None
    actual = evaluate(default, mod, ctx.resolver) or (arithmetic(ctx, default, mod) if mod is not None else None)
    if actual is not None and actual.value is None and not none_stated:
        # ``tab_size=None`` documented as "defaults to 8": fine if the body puts 8 in.
        replaced, fallback = none_fallback(sig.fn, param)
        if replaced:
            if mod is None or depth >= _MAX_HOPS:
                return None
            if fallback is not None:
                return evaluate(fallback, mod, ctx.resolver) or arithmetic(ctx, fallback, mod) \
                    or _attribute_start(ctx, sig.fn, fallback, depth)
            return _handed_on(ctx, sig.fn, param, depth)
    return actual


_MAX_HOPS = 3


def _tests_none(fn: Def, param: str) -> bool:
    return fn.node is not None and any(
        isinstance(n, ast.Compare) and any(isinstance(s, ast.Name) and s.id == param for s in (n.left, *n.comparators))
        and any(isinstance(s, ast.Constant) and s.value is None for s in (n.left, *n.comparators))
        for n in own_nodes(fn.node)
    )


def _handed_on(ctx: ReviewContext, fn: Def, param: str, depth: int) -> Value | None:
    """``param`` passed unchanged to one project callee: that callee's default for it."""
    if fn.node is None or _tests_none(fn, param):
        return None
    targets: list[tuple[ast.Call, str | int]] = []
    for n in own_nodes(fn.node):
        if not isinstance(n, ast.Call):
            continue
        for i, a in enumerate(n.args):
            if isinstance(a, ast.Name) and a.id == param:
                targets.append((n, i))
        targets += [(n, k.arg) for k in n.keywords if k.arg and isinstance(k.value, ast.Name) and k.value.id == param]
    if len(targets) != 1:
        return None  # used in several calls: which default wins is not one place
    call, slot = targets[0]
    target = callee(ctx, fn, call)
    if target is None:
        return None
    sig = ctx.call_signature(target, on_instance=True)
    if sig is None or not sig.reliable:
        return None
    if isinstance(slot, int):
        if any(isinstance(a, ast.Starred) for a in call.args[: slot + 1]) or slot >= len(sig.positional):
            return None
        name = sig.positional[slot].name
    else:
        name = slot
    p = sig.named(name)
    if p is None or p.default is None or p.kind in ("var", "varkw"):
        return None
    inner = resolved_default(ctx, sig, name, p.default, none_stated=False, depth=depth + 1)
    return Value(inner.value, inner.source, (sig.fn, *inner.via)) if inner is not None else None


def _attribute_start(ctx: ReviewContext, fn: Def, expr: ast.expr, depth: int) -> Value | None:
    """``self.attr`` as the constructor sets it: a literal, a constant, or a constructor
    parameter's own default."""
    owner = fn.owner
    if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self") \
            or owner is None or not isinstance(owner.node, ast.ClassDef) or owner.module is None:
        return None
    init = next((s for s in owner.node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and s.name == "__init__"), None)
    if init is None:
        return None
    values = [n.value for n in ast.walk(init) if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None
              and any(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
                      and t.attr == expr.attr for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))]
    if len(values) != 1:
        return None
    value = values[0]
    sig = ctx.call_signature(owner, on_instance=True)
    if isinstance(value, ast.Name) and sig is not None and sig.named(value.id) is not None:
        p = sig.named(value.id)
        if p is None or p.default is None:
            return None
        inner = resolved_default(ctx, sig, value.id, p.default, none_stated=False, depth=depth + 1)
        return Value(inner.value, inner.source, (sig.fn, *inner.via)) if inner is not None else None
    mod = Def("module", owner.module.name, owner.module)
    return evaluate(value, mod, ctx.resolver) or arithmetic(ctx, value, mod)


_ARITH: dict[type, Callable[[float, float], float]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
}


_MATH_CONSTANTS = frozenset({"math.pi", "math.tau", "math.e"})


def arithmetic(ctx: ReviewContext, expr: ast.expr, mod: Def, depth: int = 0) -> Value | None:
    """A number built by arithmetic on literals and module constants (``1.0 / 60.0``,
    ``5 * MINUTE``), followed across modules."""
    src = mod.module
    if src is None or depth > 5:
        return None
    via: list[Def] = []

    def num(e: ast.expr, where: Def, d: int) -> float | None:
        if d > 5 or where.module is None:
            return None
        if isinstance(e, ast.Constant):
            return float(e.value) if isinstance(e.value, (int, float)) and not isinstance(e.value, bool) else None
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.UAdd)):
            v = num(e.operand, where, d + 1)
            return None if v is None else (-v if isinstance(e.op, ast.USub) else v)
        if isinstance(e, ast.BinOp) and type(e.op) in _ARITH:
            a, b = num(e.left, where, d + 1), num(e.right, where, d + 1)
            if a is None or b is None or (b == 0 and isinstance(e.op, (ast.Div, ast.FloorDiv, ast.Mod))):
                return None
            return _ARITH[type(e.op)](a, b)
        name = dotted(e)
        if name is None:
            return None
        res = ctx.resolver.resolve_in(where.module, name)
        target = res.target if res.found else None
        if target is not None and target.kind == "external" and target.qualname in _MATH_CONSTANTS:
            return float(getattr(math, target.short))  # ``math.pi / 2``: the stdlib's fixed numbers
        stmt = target.node if target is not None and target.kind == "attribute" else None
        value = getattr(stmt, "value", None)
        if target is None or target.module is None or not isinstance(stmt, (ast.Assign, ast.AnnAssign)) or value is None:
            return None
        via.append(target)
        return num(value, Def("module", target.module.name, target.module), d + 1)

    result = num(expr, mod, depth)
    if result is None:
        return None
    return Value(result, src.segment(expr), tuple(via))
