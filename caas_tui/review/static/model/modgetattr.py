"""Which names a module-level ``__getattr__`` can answer.

A module that defines ``__getattr__`` may bind any name at run time, so the resolver calls
it dynamic and never says a name is missing there. Most such hooks answer a fixed list
(``if name in __all__: return import_module(...)``, ``if name == "__version__": ...``,
``if name not in _DEPRECATED: raise AttributeError``) and raise ``AttributeError`` for
everything else; for those, a name outside the list is as missing as in a static module.
Anything the reading below does not follow (a loop, a ``try``, a return for any name, a
container built at run time) leaves the module dynamic.
"""

from __future__ import annotations

import ast
import re

from caas_tui.review.static.model.project import ModuleSource

# the other run-time binders ``ModuleSource.dynamic`` looks for: with one of them, no name list is closed
_OTHER_DYNAMIC = ("globals()", "sys.modules[__name__]", "vars()[")


def closed_names(src: ModuleSource) -> frozenset[str] | None:
    """The names ``src``'s ``__getattr__`` may return for, when that list is all it answers;
    None when the module can bind other names at run time (or defines no such hook)."""
    hook = src.bindings.get("__getattr__")
    if not isinstance(hook, ast.FunctionDef) or len(hook.args.args) != 1 or hook.args.vararg:
        return None
    if any(marker in line for line in src.lines for marker in _OTHER_DYNAMIC):
        return None
    param = hook.args.args[0].arg
    local: dict[str, frozenset[str]] = {}
    answered: set[str] = set()
    for stmt in hook.body:
        if isinstance(stmt, ast.Raise):
            return frozenset(answered)
        if isinstance(stmt, (ast.Import, ast.ImportFrom, ast.Pass)) or _docstring(stmt):
            continue
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            if not _returns(stmt):
                lit = _strings(stmt.value)
                if lit is not None:
                    local[stmt.targets[0].id] = lit
                continue
            return None
        if isinstance(stmt, ast.If) and not stmt.orelse:
            test = _test(stmt.test, param, src, local)
            if test is None:
                return None
            names, positive = test
            if positive and _returns(stmt):  # ``if name in X: return ...``: X may be answered
                answered |= names
                continue
            if not positive and _always_raises(stmt.body):  # ``if name not in X: raise``: only X gets past
                return frozenset(answered | names)
            if not _returns(stmt):
                continue
            return None
        if isinstance(stmt, ast.Expr) and not _returns(stmt):
            continue
        return None
    return None  # fell off the end (returns None for every name): not a closed list


def may_bind(src: ModuleSource, name: str) -> bool:
    """Whether ``name`` can appear in ``src`` at run time beyond its static bindings."""
    if not src.dynamic:
        return False
    closed = closed_names(src)
    return closed is None or name in closed


def _docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def _returns(node: ast.AST) -> bool:
    return any(isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom)) for n in ast.walk(node))


def _always_raises(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], ast.Raise) and not _returns(ast.Module(body=body, type_ignores=[]))


def _test(test: ast.expr, param: str, src: ModuleSource, local: dict[str, frozenset[str]]
          ) -> tuple[frozenset[str], bool] | None:
    """``name == "x"`` / ``name in X`` -> ({x...}, True); ``!=`` / ``not in`` -> (..., False)."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        parts = [_test(v, param, src, local) for v in test.values]
        if all(p is not None and p[1] for p in parts):
            return frozenset().union(*(p[0] for p in parts if p is not None)), True
        return None
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name)
            and test.left.id == param):
        return None
    op, right = test.ops[0], test.comparators[0]
    if isinstance(op, (ast.Eq, ast.NotEq)):
        if isinstance(right, ast.Constant) and isinstance(right.value, str):
            return frozenset({right.value}), isinstance(op, ast.Eq)
        return None
    if isinstance(op, (ast.In, ast.NotIn)):
        names = _container(right, src, local)
        return (names, isinstance(op, ast.In)) if names is not None else None
    return None


def _container(node: ast.expr, src: ModuleSource, local: dict[str, frozenset[str]]) -> frozenset[str] | None:
    if isinstance(node, ast.Name):
        if node.id in local:
            return local[node.id]
        binding = src.bindings.get(node.id)
        grown = re.compile(rf"\b{re.escape(node.id)}\s*(?:\+=|\|=|\.(?:append|extend|update|add|insert)\()")
        if any(grown.search(line) for line in src.lines):
            return None  # ``__all__ += [...]``: the literal is not the whole list
        if isinstance(binding, ast.Assign | ast.AnnAssign) and binding.value is not None:
            return _strings(binding.value)
        return None
    return _strings(node)


def _strings(node: ast.expr) -> frozenset[str] | None:
    """The strings of a literal tuple, list, set or dict (its keys); None for anything else."""
    items: list[ast.expr | None]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        items = list(node.elts)
    elif isinstance(node, ast.Dict):
        items = list(node.keys)
    else:
        return None
    out = [i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)]
    return frozenset(out) if len(out) == len(items) else None
