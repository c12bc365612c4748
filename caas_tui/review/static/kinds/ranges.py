"""A parameter's stated range and scale against the bounds its function enforces.

``parts: Number of shares, from 1 to ``MAX_PARTS``.`` over ``if not 1 <= parts <= MAX_PARTS: raise``
holds; ``load: Share of traffic, in percent.`` over ``if not 0 <= load <= 1: raise`` does not: the
code takes a fraction. The bounds are read from a guard that raises (``not lo <= x <= hi``,
``x < lo or x > hi``, one side per ``if``) or a clamp (``min(max(x, lo), hi)``), with module
constants followed. A range the code does not bound on a side is left unchecked.
"""

from __future__ import annotations

import ast
import re

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import FieldFact
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import Signature, evaluate, own_nodes
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.outcomes.tableraises import row_callable
from caas_tui.review.static.wording.assertions import RANGE
from caas_tui.review.static.wording.tablerows import column, table_row

_NUMBER = r"-?\d{1,3}(?:[  ]\d{3})+(?!\d)|-?\d[\d_,]*(?:\.\d+)?"  # "10 000" before "10"
_BOUNDS = re.compile(
    rf"(?P<between>between\s+)?(?:from\s+)?(?P<lo>{_NUMBER})\s*%?\s*(?(between)and|(?:to|-|–|\.\.))\s*(?P<hi>(?:{_NUMBER})(?!\w|\.\d)|(`+)~?[A-Za-z_][\w.]*\4)",
    re.IGNORECASE,
)
_PERCENT = re.compile(r"\b(?:percent(?:age)?s?|per\s+cent)\b|%", re.IGNORECASE)
_FRACTION = re.compile(r"\b(?:fraction|ratio)\b", re.IGNORECASE)

Bounds = tuple[float | None, float | None]


def _number(text: str) -> float | None:
    try:
        return float(re.sub(r"[\s_,]", "", text))
    except ValueError:
        return None


def constant_of(ctx: ReviewContext, fn: Def, node: ast.expr) -> float | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = constant_of(ctx, fn, node.operand)
        return -inner if inner is not None else None
    mod = Def("module", fn.module.name, fn.module) if fn.module is not None else None
    value = evaluate(node, mod, ctx.resolver)
    if value is None or isinstance(value.value, bool) or not isinstance(value.value, (int, float)):
        return None
    return float(value.value)


def is_param(node: ast.expr, param: str) -> bool:
    """``x``, ``self.x`` or a conversion of it (``float(x)``)."""
    if isinstance(node, ast.Call) and len(node.args) == 1 and isinstance(node.func, ast.Name) \
            and node.func.id in ("float", "int", "abs", "Decimal"):
        node = node.args[0]
    return (isinstance(node, ast.Name) and node.id == param) or \
        (isinstance(node, ast.Attribute) and node.attr == param and isinstance(node.value, ast.Name)
         and node.value.id == "self")


def _rejected(ctx: ReviewContext, fn: Def, test: ast.expr, param: str) -> Bounds:
    """The bounds a guard that raises enforces: it rejects what ``test`` is true for."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and isinstance(test.operand, ast.Compare):
        return _accepted(ctx, fn, test.operand, param)
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        lo: float | None = None
        hi: float | None = None
        for part in test.values:
            plo, phi = _rejected(ctx, fn, part, param)
            lo, hi = plo if plo is not None else lo, phi if phi is not None else hi
        return lo, hi
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, op, right = test.left, test.ops[0], test.comparators[0]
        if is_param(right, param):  # ``0 > x`` reads as ``x < 0``
            left, right = right, left
            op = {ast.Lt: ast.Gt(), ast.LtE: ast.GtE(), ast.Gt: ast.Lt(), ast.GtE: ast.LtE()}.get(type(op), op)
        if not is_param(left, param):
            return None, None
        bound = constant_of(ctx, fn, right)
        if bound is None:
            return None, None
        # Only inclusive bounds are compared with a stated "lo to hi": ``x <= 0`` rejecting 0
        # ("positive") bounds an open range, which "1 to 10" may state for integers.
        if isinstance(op, ast.Lt):
            return bound, None
        if isinstance(op, ast.Gt):
            return None, bound
    return None, None


def _accepted(ctx: ReviewContext, fn: Def, cmp: ast.Compare, param: str) -> Bounds:
    """``lo <= x <= hi`` (what the guard lets through)."""
    items = [cmp.left, *cmp.comparators]
    at = next((i for i, n in enumerate(items) if is_param(n, param)), None)
    if at is None or not all(isinstance(op, (ast.Lt, ast.LtE)) for op in cmp.ops):
        return None, None
    lo = constant_of(ctx, fn, items[at - 1]) if at > 0 and isinstance(cmp.ops[at - 1], ast.LtE) else None
    hi = constant_of(ctx, fn, items[at + 1]) if at + 1 < len(items) and isinstance(cmp.ops[at], ast.LtE) else None
    return lo, hi


def _clamp(ctx: ReviewContext, fn: Def, node: ast.Call, param: str) -> Bounds:
    """``min(max(x, lo), hi)`` or ``max(lo, min(x, hi))``."""
    lo: float | None = None
    hi: float | None = None
    current: ast.expr = node
    while isinstance(current, ast.Call) and isinstance(current.func, ast.Name) and current.func.id in ("min", "max") \
            and len(current.args) == 2:
        inner = [a for a in current.args if isinstance(a, ast.Call) or is_param(a, param)]
        const = [a for a in current.args if a not in inner]
        if len(inner) != 1 or len(const) != 1:
            return None, None
        value = constant_of(ctx, fn, const[0])
        if value is None:
            return None, None
        if current.func.id == "min":
            hi = value
        else:
            lo = value
        current = inner[0]
    return (lo, hi) if is_param(current, param) else (None, None)


def code_bounds(ctx: ReviewContext, fn: Def, param: str) -> Bounds:
    if fn.node is None:
        return None, None
    lo: float | None = None
    hi: float | None = None
    for node in own_nodes(fn.node):
        found: Bounds = (None, None)
        if isinstance(node, ast.If) and any(isinstance(s, ast.Raise) for s in node.body):
            found = _rejected(ctx, fn, node.test, param)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max"):
            found = _clamp(ctx, fn, node, param)
        lo = found[0] if found[0] is not None else lo
        hi = found[1] if found[1] is not None else hi
    return lo, hi


def _stated(ctx: ReviewContext, fn: Def, desc: str) -> Bounds | None:
    m = _BOUNDS.search(desc)
    if m is None:
        return None
    lo = _number(m.group("lo"))
    raw = m.group("hi")
    if raw.startswith("`"):
        name = raw.strip("`").lstrip("~")
        try:
            node = ast.parse(name, mode="eval").body
        except SyntaxError:
            return None
        hi = constant_of(ctx, fn, node)
    else:
        hi = _number(raw)
    return (lo, hi) if lo is not None and hi is not None else None


def _show(b: Bounds) -> str:
    def one(x: float | None) -> str:
        return "-" if x is None else f"{x:g}"
    return f"{one(b[0])} to {one(b[1])}"


def check_param_range(ctx: ReviewContext, claim: Claim, fact: FieldFact, sig: Signature, label: str) -> list[Finding]:
    if fact.role != "param" or not fact.name or "," in fact.name:
        return []
    param = fact.name.strip().lstrip("*")
    if sig.named(param) is None:
        return []
    fns = [sig.fn]
    if sig.fn.short == "__post_init__" or sig.fn.owner is not None:
        post = ctx.resolver.member(sig.fn.owner, "__post_init__") if sig.fn.owner is not None else None
        if post is not None and post.found and post.target is not None:
            fns.append(post.target)
    lo: float | None = None
    hi: float | None = None
    for fn in fns:
        flo, fhi = code_bounds(ctx, fn, param)
        lo, hi = flo if flo is not None else lo, fhi if fhi is not None else hi
    if lo is None and hi is None:
        return []
    ev = ctx.evidence(sig.fn)
    stated = _stated(ctx, sig.fn, fact.desc)
    percent, fraction = bool(_PERCENT.search(fact.desc)), bool(_FRACTION.search(fact.desc))
    check = f"`{param}` of `{label}` takes {fact.desc.strip().rstrip('.')}"
    code = f"`{label}` accepts `{param}` from {_show((lo, hi))}"
    # The scale: a percentage tops out at 100, a fraction at 1.
    if hi is not None and ((percent and not fraction and hi == 1) or (fraction and not percent and hi == 100)):
        said = "a percentage" if percent else "a fraction of 1"
        return [bad("contradicted", check, f"{code}: {'a fraction of 1' if hi == 1 else 'a percentage'}, not {said}",
                    ev, aspect="value")]
    if stated is None:
        if (percent and hi == 100) or (fraction and hi == 1):
            return [ok(f"{check} ({code})", ev, aspect="value")]
        return []
    wrong = (lo is not None and stated[0] != lo) or (hi is not None and stated[1] != hi)
    if wrong:
        return [bad("contradicted", check, f"{code}, not {_show(stated)}", ev, aspect="value")]
    if lo is None or hi is None:
        return []  # one side matches; the other is not bounded by the code
    return [ok(f"{check} ({code})", ev, aspect="value")]


_PARAMS_COL = re.compile(r"^\W*(?:param(?:eter)?s?|arguments?|args?|inputs?)\W*$", re.IGNORECASE)
_ENTRY = re.compile(r"^`+\*{0,2}([A-Za-z_]\w*)`+\s*:\s*(?P<desc>.+)$")


def check_table_ranges(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    """A table row's parameters cell (```parts`: `int`, 1 to 10 000``) read as field entries of
    the row's callable."""
    row = table_row(claim)
    if row is None:
        return []
    header, cells = row
    at = column(header, _PARAMS_COL)
    if at is None or not RANGE.search(cells[at]):
        return []
    found = row_callable(ctx, claim, header, cells)
    subject = found[1] if found is not None else None
    sig = ctx.call_signature(subject, on_instance=True) if subject is not None else None
    if subject is None or sig is None or not sig.reliable:
        return []
    findings: list[Finding] = []
    for part in cells[at].split(";"):
        m = _ENTRY.match(part.strip())
        if m is not None:
            findings += check_param_range(ctx, claim, FieldFact("param", m.group(1), None, m.group("desc")), sig,
                                          subject.short)
    return findings
