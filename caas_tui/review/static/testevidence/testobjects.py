"""Which names in a test file hold an instance of a project class: module-level objects, fixtures
and helpers that return one (``return Store()``, ``s = Store(); ...; return s``), objects a
project factory builds (``Store.open(path)`` annotated ``-> Store``), and
``self.x = Store()`` in a test class's ``setUp``. A name bound twice is left out."""

from __future__ import annotations

import ast
from collections.abc import Callable

from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.codefacts.rettypes import annotation_kinds
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.project import ModuleSource
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.testevidence.testfacts import resolve_in_test


def objects(ctx: ReviewContext, src: ModuleSource, body: list[ast.stmt], helpers: dict[str, Def],
             key: Callable[[ast.expr], str | None]) -> dict[str, Def]:
    """Names bound, once, to an instance of a project class by these statements."""
    out: dict[str, Def] = {}
    seen: set[str] = set()
    for stmt in body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.value, ast.Call):
            name = key(stmt.targets[0])
            if name is None:
                continue
            func = stmt.value.func
            cls = helpers.get(func.id) if isinstance(func, ast.Name) and func.id in helpers else class_of(
                ctx, src, stmt.value)
            if cls is not None and name not in seen:
                out[name] = cls
            else:
                out.pop(name, None)  # rebound to something else: not certain
            seen.add(name)
    return out


def set_up(ctx: ReviewContext, src: ModuleSource, cls: ast.ClassDef, helpers: dict[str, Def]) -> dict[str, Def]:
    """``self.x = Store()`` in a test class's ``setUp`` / ``setup_method``: ``self.x`` in its tests."""
    out: dict[str, Def] = {}
    for item in cls.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name in (
                "setUp", "setup_method", "asyncSetUp", "setUpClass", "setup_class"):
            out.update(objects(ctx, src, item.body, helpers, self_attr))
    return out


def self_attr(node: ast.expr) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
        return f"self.{node.attr}"
    return None


def is_fixture(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any("fixture" in (dotted(d.func if isinstance(d, ast.Call) else d) or "") for d in node.decorator_list)


def class_of(ctx: ReviewContext, src: ModuleSource, call: ast.AST) -> Def | None:
    """The project class a call builds: the class itself, or a project factory (a function or
    classmethod) whose return annotation is one class or whose every ``return`` is ``cls(...)``."""
    name = dotted(call.func) if isinstance(call, ast.Call) else None
    target = resolve_in_test(ctx, src, name) if name else None
    if target is None or target.kind == "class":
        return target
    if target.kind != "function" or not isinstance(target.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    kinds = annotation_kinds(ctx, target, target.node.returns)
    if kinds is not None and len(kinds) == 1 and next(iter(kinds)).startswith("class:"):
        res = ctx.resolver.resolve(next(iter(kinds)).removeprefix("class:"))
        return res.target if res.found and not res.ambiguous and res.target is not None and res.target.is_project \
            and res.target.kind == "class" else None
    returns = [n.value for n in ast.walk(target.node) if isinstance(n, ast.Return)]
    if target.owner is not None and returns and all(
            isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "cls" for v in returns):
        return target.owner
    return None


def made_types(ctx: ReviewContext, src: ModuleSource) -> dict[str, tuple[Def, bool]]:
    """Module-level fixtures and helpers of a test file that hand back an instance of one
    project class (``return Store()``, or ``s = Store(); ...; return s``)."""
    out: dict[str, tuple[Def, bool]] = {}
    assert src.tree is not None
    for node in src.tree.body:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.name.startswith("test"):
            continue
        built = {t.id: class_of(ctx, src, n.value) for n in ast.walk(node) if isinstance(n, ast.Assign)
                 for t in n.targets if isinstance(t, ast.Name)}
        found: dict[int, Def] = {}
        returns = [n.value for n in ast.walk(node) if isinstance(n, (ast.Return, ast.Yield)) and n.value is not None]
        for value in returns:
            cls = built.get(value.id) if isinstance(value, ast.Name) else class_of(ctx, src, value)
            if cls is None:
                found = {}
                break
            found[id(cls.node)] = cls
        if len(found) == 1:
            out[node.name] = (next(iter(found.values())), is_fixture(node))
    return out
