"""What the project's own tests say a function does: ``assert f(args) == V``,
``assert f(args) is None``, ``self.assertEqual(f(args), V)`` and
``with pytest.raises(E): f(args)`` / ``self.assertRaises(E, f, args)``.

Test files are the index's ``test`` chunks. A call is tied to a project function only
when its target is certain: a name imported from the project, a method on a local built
from a project class (``c = Cache()``; ``Cache().get``), or on a fixture whose body
returns one.
"""

from __future__ import annotations

import ast
import warnings
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from caas_tui.errors import CaasError
from caas_tui.ingest import module_name
from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.project import ImportRef, ModuleSource, scope_bindings
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.textutil import read_text, split_lines

_MISSING = object()


@dataclass(frozen=True)
class TestCall:
    fn: Def  # the project function called
    call: ast.Call
    path: str
    line: int
    expected: object = _MISSING  # the asserted result (a literal), or _MISSING
    raises: str | None = None  # the exception name a ``raises`` block expects

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    @property
    def has_value(self) -> bool:
        return self.expected is not _MISSING


class _HasFn(Protocol):
    @property
    def fn(self) -> Def: ...


T = TypeVar("T", bound=_HasFn)


class PerCallable(Generic[T]):
    """What the project's tests show, collected once per review run and looked up by callable:
    ``test_calls`` and ``testruns.test_runs`` each keep one."""

    def __init__(self, collect: Callable[[ReviewContext], list[T]]) -> None:
        self._collect = collect
        self._tables: weakref.WeakKeyDictionary[ReviewContext, dict[int, list[T]]] = weakref.WeakKeyDictionary()

    def of(self, ctx: ReviewContext, fn: Def) -> list[T]:
        table = self._tables.get(ctx)
        if table is None:
            table = {}
            for item in self._collect(ctx):
                table.setdefault(id(item.fn.node), []).append(item)
            self._tables[ctx] = table
        return table.get(id(fn.node), [])


def test_calls(ctx: ReviewContext, fn: Def) -> list[TestCall]:
    """Every asserted call of ``fn`` in the project's tests."""
    return _CALLS.of(ctx, fn)


def _collect(ctx: ReviewContext) -> list[TestCall]:
    sources = project_test_sources(ctx)
    fixtures: dict[str, Def] = {}
    for src in sources:
        fixtures.update(fixture_types(ctx, src))
    out: list[TestCall] = []
    for src in sources:
        assert src.tree is not None
        for node in ast.walk(src.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out += _TestBody(ctx, src, node, fixtures).facts()
    return out


_CALLS: PerCallable[TestCall] = PerCallable(_collect)
_SOURCES: weakref.WeakKeyDictionary[ReviewContext, list[ModuleSource]] = weakref.WeakKeyDictionary()


def project_test_sources(ctx: ReviewContext) -> list[ModuleSource]:
    """The project's Python test files, parsed once per review run (the index's ``test`` chunks
    say which)."""
    found = _SOURCES.get(ctx)
    if found is None:
        paths = sorted({c.path for c in ctx.engine.chunks() if c.kind == "test" and c.path.endswith(".py")})
        found = _SOURCES[ctx] = [s for s in (load_test_source(ctx, p) for p in paths) if s is not None]
    return found


def load_test_source(ctx: ReviewContext, path: str) -> ModuleSource | None:
    try:
        text = read_text(ctx.engine.resolve_path(path))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except (CaasError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    name = module_name(path)
    return ModuleSource(name, path, split_lines(text), tree, scope_bindings(tree.body, name.rpartition(".")[0]))


def resolve_in_test(ctx: ReviewContext, src: ModuleSource, name: str) -> Def | None:
    parts = name.split(".")
    binding = src.bindings.get(parts[0])
    if not isinstance(binding, ImportRef):
        return None
    full = binding.module if binding.name is None else f"{binding.module}.{binding.name}"
    if not ctx.project.is_project(full):
        return None
    res = ctx.resolver.resolve(".".join([full, *parts[1:]]))
    if not res.found or res.ambiguous or res.target is None or not res.target.is_project:
        return None
    return res.target


def fixture_types(ctx: ReviewContext, src: ModuleSource) -> dict[str, Def]:
    out: dict[str, Def] = {}
    assert src.tree is not None
    for node in src.tree.body:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if not any("fixture" in (dotted(d.func if isinstance(d, ast.Call) else d) or "") for d in node.decorator_list):
            continue
        made = [n.value for n in ast.walk(node) if isinstance(n, (ast.Return, ast.Yield)) and isinstance(n.value, ast.Call)]
        classes = {id(c.node): c for c in (_class_of(ctx, src, m, {}) for m in made) if c is not None}
        if len(classes) == 1:
            out[node.name] = next(iter(classes.values()))
    return out


def _class_of(ctx: ReviewContext, src: ModuleSource, call: ast.Call, env: dict[str, Def]) -> Def | None:
    name = dotted(call.func)
    target = resolve_in_test(ctx, src, name) if name else None
    return target if target is not None and target.kind == "class" else None


class _TestBody:
    def __init__(self, ctx: ReviewContext, src: ModuleSource, fn: ast.FunctionDef | ast.AsyncFunctionDef,
                 fixtures: dict[str, Def]) -> None:
        self.ctx, self.src, self.node = ctx, src, fn
        self.env: dict[str, Def] = {a.arg: fixtures[a.arg] for a in fn.args.args if a.arg in fixtures}

    def target(self, call: ast.Call) -> Def | None:
        func = call.func
        if isinstance(func, ast.Attribute):
            owner: Def | None = None
            if isinstance(func.value, ast.Name) and func.value.id in self.env:
                owner = self.env[func.value.id]
            elif isinstance(func.value, ast.Call):
                owner = _class_of(self.ctx, self.src, func.value, self.env)
            if owner is not None:
                res = self.ctx.resolver.member(owner, func.attr)
                t = res.target if res.found and not res.ambiguous else None
                return t if t is not None and t.kind == "function" and t.is_project else None
        name = dotted(func)
        t = resolve_in_test(self.ctx, self.src, name) if name else None
        if t is not None and t.kind == "class":
            init = self.ctx.resolver.member(t, "__init__")  # ``Version("x")`` runs ``__init__``
            t = init.target if init.found and not init.ambiguous else None
        return t if t is not None and t.kind == "function" and t.is_project else None

    def facts(self) -> list[TestCall]:
        out: list[TestCall] = []
        for stmt in ast.walk(self.node):
            if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and len(stmt.targets) == 1 \
                    and isinstance(stmt.targets[0], ast.Name):
                cls = _class_of(self.ctx, self.src, stmt.value, self.env)
                if cls is not None:
                    self.env[stmt.targets[0].id] = cls
            elif isinstance(stmt, ast.Assert):
                out += self._assert(stmt.test, stmt.lineno)
            elif isinstance(stmt, (ast.With, ast.AsyncWith)):
                out += self._raises_block(stmt)
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                out += self._unittest(stmt.value, stmt.lineno)
        return out

    def _called(self, expr: ast.expr, line: int, **kw: object) -> list[TestCall]:
        if isinstance(expr, ast.Call):
            t = self.target(expr)
            if t is not None:
                return [TestCall(t, expr, self.src.path, line, **kw)]  # type: ignore[arg-type]
        return []

    def _assert(self, test: ast.expr, line: int) -> list[TestCall]:
        if isinstance(test, ast.Compare) and len(test.ops) == 1:
            left, right, op = test.left, test.comparators[0], test.ops[0]
            if isinstance(op, (ast.Eq, ast.Is)):
                for call, value in ((left, right), (right, left)):
                    lit = _literal(value)
                    if lit is not _MISSING:
                        return self._called(call, line, expected=lit)
        return []

    def _raises_block(self, stmt: ast.With | ast.AsyncWith) -> list[TestCall]:
        exc = None
        for item in stmt.items:
            ce = item.context_expr
            if isinstance(ce, ast.Call) and (dotted(ce.func) or "").rsplit(".", 1)[-1] in ("raises", "assertRaises") \
                    and ce.args:
                exc = dotted(ce.args[0])
        if exc is None or len(stmt.body) != 1:
            return []  # several statements: which one raised is not certain
        only = stmt.body[0]
        value = only.value if isinstance(only, (ast.Expr, ast.Assign)) else None
        return self._called(value, stmt.lineno, raises=exc) if isinstance(value, ast.Call) else []

    def _unittest(self, call: ast.Call, line: int) -> list[TestCall]:
        method = (dotted(call.func) or "").rsplit(".", 1)[-1]
        if method in ("assertEqual", "assertIs") and len(call.args) >= 2:
            for a, b in ((call.args[0], call.args[1]), (call.args[1], call.args[0])):
                lit = _literal(b)
                if lit is not _MISSING:
                    return self._called(a, line, expected=lit)
        if method == "assertIsNone" and call.args:
            return self._called(call.args[0], line, expected=None)
        return []


def _literal(node: ast.expr) -> object:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _MISSING


def literal_args(call: ast.Call) -> tuple[tuple[object, ...], tuple[tuple[str, object], ...]] | None:
    """The call's arguments as values, when all are literals."""
    args = [_literal(a) for a in call.args]
    kwargs = [(k.arg, _literal(k.value)) for k in call.keywords if k.arg]
    if any(a is _MISSING for a in args) or any(v is _MISSING for _, v in kwargs) or len(kwargs) != len(call.keywords):
        return None
    return tuple(args), tuple(sorted(kwargs))


def argument(call: ast.Call, fn_params: list[str], param: str) -> object:
    """The literal passed for ``param`` (by keyword or position), else _MISSING."""
    for k in call.keywords:
        if k.arg == param:
            return _literal(k.value)
    if param in fn_params:
        i = fn_params.index(param)
        if i < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[: i + 1]):
            return _literal(call.args[i])
    return _MISSING


MISSING = _MISSING
