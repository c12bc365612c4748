"""Where a call inside a function goes, exactly: ``helper()`` (a name in its module),
``self.method()``, ``self.attr.method()`` when the attribute's class is known (a
class-level annotation, or ``self.attr = Cls(...)`` / an annotated parameter stored in
``__init__``), and ``param.method()`` on a parameter annotated with a project class. A method that hands its work to a helper object is judged by what the
helper does; anything less certain than these forms is no answer (``None``)."""

from __future__ import annotations

import ast

from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.resolve import Def


def _class_named(ctx: ReviewContext, where: Def, expr: ast.expr | None) -> Def | None:
    if expr is None or where.module is None:
        return None
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        try:
            expr = ast.parse(expr.value, mode="eval").body
        except SyntaxError:
            return None
    return project_def(ctx, where, expr, "class")


def project_def(ctx: ReviewContext, where: Def, expr: ast.expr, kind: str) -> Def | None:
    """The one project definition of ``kind`` that the dotted name ``expr`` names in ``where``'s module."""
    name = dotted(expr)
    if name is None or where.module is None:
        return None
    res = ctx.resolver.resolve_in(where.module, name)
    target = res.target if res.found and not res.ambiguous else None
    return target if target is not None and target.kind == kind and target.is_project else None


def attribute_class(ctx: ReviewContext, owner: Def, attr: str) -> Def | None:
    """The project class of ``self.<attr>`` on instances of ``owner``, when one place says so."""
    node = owner.node
    if not isinstance(node, ast.ClassDef):
        return None
    found: list[Def | None] = []
    for stmt in node.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id == attr:
            found.append(_class_named(ctx, owner, stmt.annotation))
    init = next((s for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and s.name == "__init__"), None)
    if init is not None:
        params = {a.arg: a.annotation for a in [*init.args.args, *init.args.kwonlyargs]}
        for n in ast.walk(init):
            target: ast.expr | None = None
            value: ast.expr | None = None
            annotation: ast.expr | None = None
            if isinstance(n, ast.Assign) and len(n.targets) == 1:
                target, value = n.targets[0], n.value
            elif isinstance(n, ast.AnnAssign):
                target, value, annotation = n.target, n.value, n.annotation
            if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                    and target.value.id == "self" and target.attr == attr):
                continue
            if annotation is not None:
                found.append(_class_named(ctx, owner, annotation))
            elif isinstance(value, ast.Call):
                found.append(_class_named(ctx, owner, value.func))
            elif isinstance(value, ast.Name) and value.id in params:
                found.append(_class_named(ctx, owner, params[value.id]))
            else:
                found.append(None)
    classes = {id(c.node): c for c in found if c is not None}
    if len(classes) != 1 or None in found:
        return None
    return next(iter(classes.values()))


def parameter_class(ctx: ReviewContext, fn: Def, name: str) -> Def | None:
    """The project class a parameter of ``fn`` is annotated with (``book: RateBook``), when
    the body never rebinds it: what ``book.convert(...)`` runs is that class's method."""
    node = fn.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or name in ("self", "cls"):
        return None
    args = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
    ann = next((a.annotation for a in args if a.arg == name), None)
    if ann is None or any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
                          for n in ast.walk(node)):
        return None
    return _class_named(ctx, fn, ann)


def callee(ctx: ReviewContext, fn: Def, call: ast.Call) -> Def | None:
    """The project function or class ``call`` (inside ``fn``) reaches, or None."""
    if fn.module is None:
        return None
    func = call.func
    parts = (dotted(func) or "").split(".")
    if not parts[0]:
        return None
    target: Def | None = None
    if parts[0] in ("self", "cls") and fn.owner is not None and len(parts) in (2, 3):
        base: Def | None = fn.owner
        if len(parts) == 3:
            base = attribute_class(ctx, fn.owner, parts[1])
        if base is not None:
            res = ctx.resolver.member(base, parts[-1])
            target = res.target if res.found and not res.ambiguous else None
    elif parts[0] not in ("self", "cls"):
        res = ctx.resolver.resolve_in(fn.module, ".".join(parts))
        target = res.target if res.found and not res.ambiguous else None
        typed = parameter_class(ctx, fn, parts[0]) if target is None and len(parts) == 2 else None
        if typed is not None:
            res = ctx.resolver.member(typed, parts[1])
            target = res.target if res.found and not res.ambiguous else None
    if target is None or not target.is_project or target.kind not in ("function", "class"):
        return None
    owner = target.owner
    if target.kind == "function" and owner is not None and owner.kind == "class" and any(
        target.short in ctx.resolver.class_bindings(sub) for sub in ctx.subclasses(owner)
    ):
        return None  # overridden: which body runs depends on the object
    return target
