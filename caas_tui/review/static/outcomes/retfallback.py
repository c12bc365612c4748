"""What a function is said to return for a missing key, item or argument ("or an empty
string when the payload has no such field", "``None`` if no handler matches", "``0`` if
``values`` is empty") against what its code hands back in that case:

- the fallback of its one value ``return``: ``d.get(key, default)`` (``pop``, ``getattr``,
  ``next`` alike), ``d.get(k) or ""``, ``d[k] if k in d else default``;
- an early ``if key not in d: return default``, ``except KeyError: return default``, or
  ``value = d.get(k)`` then ``if value is None: return default``;
- the ``return`` after a search loop (``for ...: if ...: return x`` then ``return None``).

A literal for an empty or absent argument ("``0`` if `values` is empty") is the sense of a
condition, read with the others by ``returnpolarity``.

A parameter given as the fallback is followed to its resolved default. Judged only for
these shapes and a fallback that resolves to a literal; anything else is left unchecked.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import parse_field
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.defaults.symdefaults import resolved_default
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import evaluate, own_nodes, same_value
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import section_subject
from caas_tui.review.static.outcomes.missingwords import MISSING_WORDS
from caas_tui.review.static.referents.subjects import subject_of
from caas_tui.review.static.wording.literals import LITERAL, literal_of
from caas_tui.review.static.wording.voice import active_claim, verb_start

# "``None`` (instead of raising) if the key is missing": a few words may sit between.
_AFTER = re.compile(rf"(?:{LITERAL})\)?\s*,?(?:\s+\(?[\w-]+\)?){{0,4}}?\s+(?:when|if|for|where|in\s+case)\b[^.;]*?\b{MISSING_WORDS}",
                    re.IGNORECASE)
# "For a missing key, `S.get` returns ``None``": the subject may stand between.
_BEFORE = re.compile(rf"\b(?:if|when|for)\b[^.;]*?\b{MISSING_WORDS}\b[^.;,]*,\s*(?:it\s+|this\s+|\S+\s+)?(?:returns?|gives?)\s+"
                     rf"(?:{LITERAL})", re.IGNORECASE)
_FALLBACK_CALLS = {"get": 2, "pop": 2, "getattr": 3, "next": 2}


@dataclass(frozen=True, slots=True)
class StatedFallback:
    value: object
    text: str
    start: int


def stated_fallbacks(text: str) -> list[StatedFallback]:
    """Literals a sentence gives as the result for a missing key or item."""
    out: list[StatedFallback] = []
    for pattern in (_AFTER, _BEFORE):
        for m in pattern.finditer(text):
            lit = literal_of(m)
            if lit is not None:
                out.append(StatedFallback(lit.value, lit.text, lit.start))
    return out


_CASES = {"get": "for a missing key", "pop": "for a missing key", "getattr": "for a missing attribute",
          "next": "when nothing is left"}


def _guarded_name(test: ast.expr) -> str | None:
    """``not x``, ``x is None``, ``len(x) == 0``, ``x == ""``: the name tested for being empty or absent."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _subject_name(test.operand)
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, right, op = test.left, test.comparators[0], test.ops[0]
        if isinstance(op, (ast.Is, ast.Eq)) and isinstance(right, ast.Constant) and right.value in (None, "", 0) \
                and not isinstance(right.value, bool):
            if isinstance(op, ast.Eq) and right.value == 0 and isinstance(left, ast.Call) \
                    and isinstance(left.func, ast.Name) and left.func.id == "len" and len(left.args) == 1:
                return _subject_name(left.args[0])
            return _subject_name(left) if right.value is None or isinstance(op, ast.Eq) else None
    return None


def _subject_name(expr: ast.expr) -> str | None:
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self":
        return expr.attr
    return None


def _fallback_expr(expr: ast.expr) -> tuple[ast.expr, str] | None:
    """The expression a ``return`` falls back on for a missing key (attribute, item), and
    that case in words; None if it has none."""
    if isinstance(expr, ast.BoolOp) and isinstance(expr.op, ast.Or) and len(expr.values) == 2:
        inner = _fallback_expr(expr.values[0])
        # ``d.get(k) or ""``: a missing key and a falsy value both give ""
        return (expr.values[1], inner[1]) if inner is not None else None
    if isinstance(expr, ast.IfExp):
        return _ifexp_fallback(expr)
    if not isinstance(expr, ast.Call) or expr.keywords or any(isinstance(a, ast.Starred) for a in expr.args):
        return None
    func = expr.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    if name is None:
        return None
    if isinstance(func, ast.Attribute) and name in ("get", "pop"):
        if isinstance(func.value, ast.Name) and func.value.id in ("self", "cls"):
            return None  # the class's own ``get``: not a mapping's
        n = len(expr.args)
        if name == "get" and n == 1:
            return ast.Constant(None), _CASES[name]
        return (expr.args[1], _CASES[name]) if n == 2 else None
    if isinstance(func, ast.Name) and name in ("getattr", "next"):
        want = _FALLBACK_CALLS[name]
        return (expr.args[want - 1], _CASES[name]) if len(expr.args) == want else None
    return None


def _ifexp_fallback(expr: ast.IfExp) -> tuple[ast.expr, str] | None:
    """``d[k] if k in d else default``, ``vals[0] if vals else None``: the branch taken when
    the key is absent or the value empty."""
    test = expr.test
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op = test.ops[0]
        if isinstance(op, ast.In):
            return expr.orelse, "for a missing key"
        if isinstance(op, ast.NotIn):
            return expr.body, "for a missing key"
        none = isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None
        if none and isinstance(op, ast.IsNot):
            return expr.orelse, "for a missing key"
        if none and isinstance(op, ast.Is):
            return expr.body, "for a missing key"
        return None
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and isinstance(test.operand, ast.Name | ast.Attribute):
        return expr.body, "for a missing key"
    if isinstance(test, ast.Name | ast.Attribute):
        return expr.orelse, "for a missing key"
    return None


def _looked_up(body: list[ast.stmt], name: str) -> bool:
    """``name = <mapping>.get(...)`` among the statements."""
    return any(isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
               and s.targets[0].id == name and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Attribute)
               and s.value.func.attr == "get" for s in body)


_LOOKUP_ERRORS = {"KeyError": "for a missing key", "LookupError": "for a missing key", "IndexError": "for a missing item",
                  "AttributeError": "for a missing attribute"}


def _guarded_fallback(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[ast.expr, str] | None:
    """``if key not in d: return default`` at the top of the body, or ``try: return d[key]``
    ``except KeyError: return default``: the value handed back for a missing key."""
    found: list[tuple[ast.expr, str]] = []
    for i, stmt in enumerate(node.body):
        early = isinstance(stmt, ast.If) and not stmt.orelse and len(stmt.body) == 1 \
            and isinstance(stmt.body[0], ast.Return) and stmt.body[0].value is not None
        if early and isinstance(stmt, ast.If) and isinstance(stmt.body[0], ast.Return) and stmt.body[0].value is not None:
            test = stmt.test
            if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.NotIn):
                found.append((stmt.body[0].value, "for a missing key"))
            # ``value = d.get(key)`` then ``if value is None: return default``
            name = _guarded_name(test)
            if name is not None and _looked_up(node.body[:i], name):
                found.append((stmt.body[0].value, "for a missing key"))
        if isinstance(stmt, ast.Try) and len(stmt.body) == 1 and isinstance(stmt.body[0], ast.Return) \
                and isinstance(stmt.body[0].value, ast.Subscript | ast.Attribute):
            for handler in stmt.handlers:
                caught = handler.type.id if isinstance(handler.type, ast.Name) else None
                if caught in _LOOKUP_ERRORS and len(handler.body) == 1 and isinstance(handler.body[0], ast.Return) \
                        and handler.body[0].value is not None:
                    found.append((handler.body[0].value, _LOOKUP_ERRORS[caught]))
    return found[0] if len(found) == 1 else None


def _search_fallback(node: ast.FunctionDef | ast.AsyncFunctionDef, returns: list[ast.Return]) -> tuple[ast.expr, str] | None:
    """``for x in xs: if ...: return x`` then ``return None``: the value after a search loop
    (a top-level ``for`` with a ``return`` in it), returned when nothing was found."""
    body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) < 2 or not isinstance(body[-1], ast.Return) or body[-1].value is None:
        return None
    loops = [s for s in body[:-1] if isinstance(s, (ast.For, ast.AsyncFor)) and not s.orelse]
    searching = [lp for lp in loops if any(isinstance(n, ast.Return) for st in lp.body for n in ast.walk(st))]
    if not searching or len(returns) < 2:
        return None
    return body[-1].value, "when its search finds nothing"


@dataclass(frozen=True, slots=True)
class Fallback:
    value: object
    source: str  # as the code writes it, with the parameter it came through
    via: tuple[Def, ...]
    case: str = "for a missing key"  # or "when its search finds nothing"


def code_fallback(ctx: ReviewContext, fn: Def) -> Fallback | None:
    """What ``fn`` returns for a missing key: the resolved fallback of its only value ``return``."""
    if not isinstance(fn.node, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.module is None:
        return None
    nodes = own_nodes(fn.node)
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in nodes):
        return None
    returns = [n for n in nodes if isinstance(n, ast.Return) and n.value is not None]
    found = _fallback_expr(returns[0].value) if len(returns) == 1 and returns[0].value is not None else None
    if found is not None:
        expr, case = found
    else:
        searched = _search_fallback(fn.node, returns) or _guarded_fallback(fn.node)
        if searched is None:
            return None
        expr, case = searched
    segment = ast.unparse(expr)
    if isinstance(expr, ast.Name):
        sig = ctx.signature(fn)
        p = sig.named(expr.id) if sig is not None else None
        if p is not None:
            if p.default is None or p.kind in ("var", "varkw") or sig is None:
                return None
            uses = [n for n in nodes if isinstance(n, ast.Name) and n.id == expr.id]
            if len(uses) != 1:
                return None  # tested, changed or used elsewhere before it is handed back
            # The parameter goes straight back to the caller: its own default, not a callee's.
            actual = resolved_default(ctx, sig, expr.id, p.default, none_stated=True)
            if actual is None:
                return None
            return Fallback(actual.value, f"`{expr.id}` (default {actual.source})", (fn, *actual.via), case)
    if isinstance(expr, ast.Constant):
        return Fallback(expr.value, f"`{segment}`", (fn,), case)
    value = evaluate(expr, Def("module", fn.module.name, fn.module), ctx.resolver)
    return Fallback(value.value, f"`{segment}`", (fn, *value.via), case) if value is not None else None


def _label(fn: Def) -> str:
    parts = fn.qualname.split(".")
    return ".".join(parts[-2:]) if fn.owner is not None else parts[-1]


def _same(stated: object, actual: object) -> bool:
    if isinstance(stated, (list, dict, tuple, bytes)) or isinstance(actual, (list, dict, tuple, bytes)):
        return type(stated) is type(actual) and stated == actual
    return same_value(stated, actual)


def check_missing_fallback(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind not in ("prose", "field"):
        return []
    fact = parse_field(claim.text) if claim.kind == "field" else None
    if fact is not None and fact.role not in ("returns", "rtype"):
        return []
    claim = active_claim(claim)
    stated = stated_fallbacks(claim.text)
    findings: list[Finding] = []
    for sf in stated:
        subject = section_subject(ctx, claim) if fact is not None else subject_of(ctx, claim, verb_start(claim.text, sf.start))
        if subject is None or subject.kind != "function":
            continue
        actual = code_fallback(ctx, subject)
        if actual is None:
            continue
        label = _label(subject)
        ev = [ctx.evidence(d) for d in actual.via]
        check = f"`{label}` returns {sf.text} {actual.case}"
        if _same(sf.value, actual.value):
            findings.append(ok(check, *ev, aspect="returns"))
        else:
            findings.append(bad("contradicted", check, f"`{label}` returns its fallback {actual.source} "
                                f"{actual.case}, i.e. {actual.value!r}, not {sf.text}", *ev, aspect="returns"))
    return findings
