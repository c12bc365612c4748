"""What a lookup on a plain ``dict`` raises for a key that is not there: ``KeyError`` from
``d[k]``, ``del d[k]`` and ``d.pop(k)`` (``d.get(k)`` and ``d.pop(k, default)`` raise nothing),
when the body reaches it first with that key (``firstreach``: no membership test, no call
handed the key, no ``try`` before it). The mapping must be a plain ``dict``: a parameter
annotated ``dict``, or an attribute or module global every assignment of which is a ``{...}``
literal, a comprehension or ``dict(...)`` (``defaultdict`` and ``Counter`` hand back a value
for a missing key, so anything else gets no answer).
"""

from __future__ import annotations

import ast

from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.codefacts.firstreach import UNKNOWN, external_type, first_reached
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.resolve import Def


def _plain_dict_value(value: ast.expr | None) -> bool:
    if isinstance(value, (ast.Dict, ast.DictComp)):
        return True
    return isinstance(value, ast.Call) and dotted(value.func) == "dict"


def _dict_annotation(ctx: ReviewContext, fn: Def, ann: ast.expr | None) -> bool:
    if isinstance(ann, ast.Subscript):
        ann = ann.value
    return ann is not None and (dotted(ann) or "").rsplit(".", 1)[-1] in ("dict", "Dict") \
        and external_type(ctx, fn, ann) in (dict, None)


def _assignments(tree: ast.AST, matches: object) -> list[ast.AST]:
    out: list[ast.AST] = []
    for n in ast.walk(tree):
        if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            if any(callable(matches) and matches(t) for t in targets):
                out.append(n)
    return out


def _plain_dict(ctx: ReviewContext, fn: Def, expr: ast.expr) -> bool:
    """``expr`` (``self._jobs``, a parameter, a module global) always holds a plain ``dict``."""
    node = fn.node
    if isinstance(expr, ast.Name) and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        args = {a.arg: a.annotation for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]}
        if expr.id in args:
            return _dict_annotation(ctx, fn, args[expr.id])
        tree = fn.module.tree if fn.module is not None else None
        found = _assignments(tree, lambda t: isinstance(t, ast.Name) and t.id == expr.id) if tree is not None else []
    elif isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self" \
            and fn.owner is not None and fn.owner.node is not None:
        attr = expr.attr
        found = _assignments(fn.owner.node, lambda t: isinstance(t, ast.Attribute) and t.attr == attr
                             and isinstance(t.value, ast.Name) and t.value.id == "self")
        found += [s for s in getattr(fn.owner.node, "body", []) if isinstance(s, ast.AnnAssign)
                  and isinstance(s.target, ast.Name) and s.target.id == attr]
    else:
        return False
    if not found:
        return False
    for n in found:
        value = getattr(n, "value", None)
        if isinstance(n, ast.AugAssign) or (value is not None and not _plain_dict_value(value)):
            return False
        if value is None and not (isinstance(n, ast.AnnAssign) and _dict_annotation(ctx, fn, n.annotation)):
            return False
    return True


def missing_key_lookup(ctx: ReviewContext, fn: Def, param: str) -> int | None:
    """The line of the plain-dict lookup of ``param`` the body reaches first, or None."""
    def lookup(n: ast.AST) -> ast.AST | None:
        if isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Name) and n.slice.id == param \
                and isinstance(n.ctx, (ast.Load, ast.Del)) and _plain_dict(ctx, fn, n.value):
            return n.slice
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "pop" \
                and len(n.args) == 1 and not n.keywords and isinstance(n.args[0], ast.Name) \
                and n.args[0].id == param and _plain_dict(ctx, fn, n.func.value):
            return n
        return None

    found = first_reached(ctx, fn, param, UNKNOWN, lookup)
    return getattr(found, "lineno", None) if found is not None else None
