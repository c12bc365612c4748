"""A raise claim that promises a fallback first ("a stale direct quote falls back to the
inverse pair before this is raised", "falls back to the cache before raising"): for the
function to try something else first, something in it must look at the condition the
``raise`` is guarded by before that ``raise`` runs, or catch the exception and carry on.

Judged only when every ``raise`` of the stated exception in reach (the function and the
project code it calls exactly, ``guarded_raises``) sits under a guard that reads a named
predicate or attribute (``if rate.is_expired(at):``). No other code in reach touches that
predicate, no ``try`` in reach handles the exception, and nothing in reach is opaque (a
raise or a dispatch that cannot be placed): then nothing can notice the condition before
the ``raise`` does, so nothing falls back first. Anything else is no answer.
"""

from __future__ import annotations

import ast
import re

from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.codefacts.delegation import callee
from caas_tui.review.static.codefacts.raisecheck import is_subclass, reach, stated_exception
from caas_tui.review.static.codefacts.raiseguards import GuardedRaise, guarded_raises
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.pysig import own_nodes
from caas_tui.review.static.model.resolve import Def

FALLS_BACK = re.compile(r"\bfalls?\s+back\b[^.;]*\bbefore\s+(?:this|it|that|one)?\s*(?:is\s+)?rais",
                        re.IGNORECASE)
_MAX_DEPTH = 6


def _functions(ctx: ReviewContext, fn: Def) -> list[Def]:
    """``fn`` and the project functions it calls exactly, at any depth."""
    out, seen, todo = [fn], {id(fn.node)}, [(fn, 0)]
    while todo:
        f, depth = todo.pop()
        if f.node is None or depth >= _MAX_DEPTH:
            continue
        for call in (n for n in own_nodes(f.node) if isinstance(n, ast.Call)):
            target = callee(ctx, f, call)
            if target is not None and target.kind == "class":
                init = ctx.resolver.member(target, "__init__")
                target = init.target if init.found and init.target is not None else None
            if target is None or target.kind != "function" or id(target.node) in seen:
                continue
            seen.add(id(target.node))
            out.append(target)
            todo.append((target, depth + 1))
    return out


def _guard_tests(r: GuardedRaise) -> list[ast.expr]:
    """The tests of the ``if``/``while`` statements a raise sits under."""
    node = r.fn.node
    if node is None:
        return []
    parents = {id(c): p for p in ast.walk(node) for c in ast.iter_child_nodes(p)}
    raised = next((n for n in own_nodes(node) if isinstance(n, ast.Raise) and n.lineno == r.line), None)
    tests: list[ast.expr] = []
    cur = parents.get(id(raised)) if raised is not None else None
    while cur is not None and cur is not node:
        if isinstance(cur, (ast.If, ast.While)):
            tests.append(cur.test)
        cur = parents.get(id(cur))
    return tests


def _predicates(test: ast.expr) -> set[str]:
    """Attributes and called names a guard reads (``rate.is_expired(at)`` -> is_expired)."""
    out = {n.attr for n in ast.walk(test) if isinstance(n, ast.Attribute)}
    out |= {n.func.id for n in ast.walk(test) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    return out - {"isinstance", "len"}


def _handles(ctx: ReviewContext, f: Def, exc: Def) -> bool:
    """A ``try`` in ``f`` whose handler could catch ``exc`` (or one that cannot be placed)."""
    for n in own_nodes(f.node) if f.node is not None else ():
        if not isinstance(n, ast.Try):
            continue
        for handler in n.handlers:
            types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
            for t in types:
                name = dotted(t) if t is not None else None
                caught = stated_exception(ctx, name) if name else None
                if caught is None or is_subclass(ctx, exc, caught) or is_subclass(ctx, caught, exc):
                    return True
    return False


def no_fallback(ctx: ReviewContext, fn: Def, exc: Def) -> GuardedRaise | None:
    """The raise of ``exc`` nothing can fall back before, or None when one might."""
    raises = guarded_raises(ctx, fn)
    if not raises or reach(ctx, fn).unplaced:
        return None
    targets = [r for r in raises if is_subclass(ctx, r.exc, exc)]
    if not targets:
        return None
    guards: set[int] = set()
    predicates: set[str] = set()
    for r in targets:
        tests = _guard_tests(r)
        reads = set().union(*(_predicates(t) for t in tests)) if tests else set()
        if not reads:
            return None  # a guard on plain values: what a fallback would look at is not named
        predicates |= reads
        guards |= {id(x) for t in tests for x in ast.walk(t)}
    for f in _functions(ctx, fn):
        if _handles(ctx, f, exc):
            return None
        for n in own_nodes(f.node) if f.node is not None else ():
            if id(n) in guards:
                continue
            if isinstance(n, ast.Attribute) and n.attr in predicates or \
                    isinstance(n, ast.Name) and n.id in predicates and isinstance(n.ctx, ast.Load):
                return None  # the condition is looked at elsewhere too: a fallback may happen there
    return targets[0]
