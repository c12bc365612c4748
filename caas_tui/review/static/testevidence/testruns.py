"""What each project test shows a project callable doing on the input the test gives it.

A call inside ``with pytest.raises(E):`` (a one-statement block) or ``assertRaises(E, f, ...)``
*raises* ``E``. A call in a top-level statement of a test, outside any raises block, ``try``,
loop or branch, *returns*: the test passes only if it does (tests marked ``skip``/``xfail`` are
left out). With it: the asserted result when it is a literal (``assert f(x) == V``, ``is None``,
``assertEqual``, ``assertIsNone``, a result variable asserted later), the possible literal
values of each argument (``parametrize`` rows included), which arguments are a path under
``tmp_path`` the test never creates, and the words of the test's name and docstring (test names
are sentences: ``test_missing_file_gives_no_rows``).
"""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Literal

from caas_tui.models import EvidenceSpan
from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.project import ModuleSource
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.testevidence.testfacts import MISSING, PerCallable, project_test_sources, resolve_in_test
from caas_tui.review.static.testevidence.testobjects import class_of, made_types, objects, self_attr, set_up

Outcome = Literal["raises", "returns"]
_TMP = ("tmp_path", "tmpdir")
_SKIPPED = re.compile(r"\b(?:skip|skipif|xfail)\b")


@dataclass(frozen=True)
class TestRun:
    fn: Def  # the project callable the test calls
    call: ast.Call
    outcome: Outcome
    exc: Def | None  # raises: the exception class the block expects (None when it does not resolve)
    exc_name: str | None
    expected: object  # returns: the asserted literal result, or MISSING
    truth: bool | None  # returns: ``assert f(x)`` (True), ``assert not f(x)`` (False)
    values: tuple[tuple[str, tuple[object, ...]], ...]  # argument key ("0", "1", kw) -> possible literal values
    missing_paths: frozenset[str]  # argument keys that are paths under tmp_path the test never creates
    evidence: EvidenceSpan
    words: str  # the test's name and docstring, lower case, "_" as spaces
    test: str  # the test's name (``TestX.test_y``)
    calls_in_test: int  # how many calls of ``fn`` the test makes (a name can speak of one call only)
    ordinal: int = 1  # this call's place among the test's calls of ``fn`` on the same receiver

    @property
    def where(self) -> str:
        return f"{self.evidence.path}:{self.call.lineno}"

    @property
    def has_value(self) -> bool:
        return self.expected is not MISSING

    def arg_values(self, key: str) -> tuple[object, ...]:
        return next((v for k, v in self.values if k == key), ())

    def shown(self) -> str:
        return ast.unparse(self.call)


def test_runs(ctx: ReviewContext, fn: Def) -> list[TestRun]:
    """Every call of ``fn`` in the project's tests whose outcome the test pins."""
    return _RUNS.of(ctx, fn)



def _collect(ctx: ReviewContext) -> list[TestRun]:
    sources = project_test_sources(ctx)
    fixtures: dict[str, Def] = {}
    helpers: dict[int, dict[str, Def]] = {}
    for src in sources:
        made = made_types(ctx, src)
        fixtures.update({n: d for n, (d, fixture) in made.items() if fixture})
        helpers[id(src)] = {n: d for n, (d, fixture) in made.items() if not fixture}
    out: list[TestRun] = []
    for src in sources:
        assert src.tree is not None
        own = helpers[id(src)]
        module_env = objects(ctx, src, src.tree.body, own, lambda t: t.id if isinstance(t, ast.Name) else None)
        for node, qual, cls in _tests(src.tree):
            env = dict(module_env)
            if cls is not None:
                env.update(set_up(ctx, src, cls, own))
            out += _Test(ctx, src, node, qual, fixtures, own, env).runs()
    return out


_RUNS: PerCallable[TestRun] = PerCallable(_collect)


def _tests(tree: ast.Module) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef, str, ast.ClassDef | None]]:
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            yield node, node.name, None
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name.startswith("test"):
                    yield item, f"{node.name}.{item.name}", node


def _literal(node: ast.expr) -> object:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return MISSING


def _parametrized(node: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, tuple[object, ...]]:
    out: dict[str, tuple[object, ...]] = {}
    for d in node.decorator_list:
        if not (isinstance(d, ast.Call) and (dotted(d.func) or "").endswith("parametrize") and len(d.args) >= 2):
            continue
        names, rows = _literal(d.args[0]), _literal(d.args[1])
        if not isinstance(names, str) or not isinstance(rows, (list, tuple)):
            continue
        keys = [n.strip() for n in names.split(",") if n.strip()]
        for i, key in enumerate(keys):
            if len(keys) == 1:
                out[key] = tuple(rows)
            elif all(isinstance(r, (list, tuple)) and len(r) == len(keys) for r in rows):
                out[key] = tuple(r[i] for r in rows)
    return out


def _exception(ctx: ReviewContext, src: ModuleSource, node: ast.expr) -> tuple[Def | None, str | None]:
    name = dotted(node)
    if not name:
        return None, None
    obj = getattr(builtins, name, None) if "." not in name else None
    if isinstance(obj, type) and issubclass(obj, BaseException):
        return Def("external", name, value=obj), name
    target = resolve_in_test(ctx, src, name)
    return (target if target is not None and target.kind == "class" else None), name


_SHORT_CIRCUIT = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.IfExp, ast.BoolOp)


def _executed_calls(node: ast.AST) -> Iterator[ast.Call]:
    """Calls a statement certainly makes: not inside a lambda, comprehension or short-circuit."""
    if isinstance(node, _SHORT_CIRCUIT):
        return
    if isinstance(node, ast.Call):
        yield node
    for child in ast.iter_child_nodes(node):
        yield from _executed_calls(child)


class _Test:
    def __init__(self, ctx: ReviewContext, src: ModuleSource, node: ast.FunctionDef | ast.AsyncFunctionDef, qual: str,
                 fixtures: dict[str, Def], helpers: dict[str, Def], env: dict[str, Def]) -> None:
        self.ctx, self.src, self.node, self.qual, self.helpers = ctx, src, node, qual, helpers
        self.params = _parametrized(node)
        args = [a.arg for a in node.args.args]
        self.env: dict[str, Def] = {k: v for k, v in env.items() if k not in args}
        self.env.update({a: fixtures[a] for a in args if a in fixtures and a not in self.params})
        self.tmp = {a for a in args if a in _TMP}
        self.paths: dict[str, ast.expr] = {}
        doc = ast.get_docstring(node) or ""
        self.words = f"{node.name.replace('_', ' ')} {doc}".lower()
        start, end = src.span(node)
        self.evidence = EvidenceSpan(src.path, start, end, f"{src.name}.{qual}", src.span_hash(start, end),
                                     "project test")
        self.results: dict[str, int] = {}  # result variable -> index in self.out
        self.out: list[TestRun] = []

    # -- what a call is ---------------------------------------------------------------------
    def target(self, call: ast.Call) -> Def | None:
        func = call.func
        if isinstance(func, ast.Attribute):
            owner: Def | None = None
            if isinstance(func.value, ast.Name) and func.value.id in self.env:
                owner = self.env[func.value.id]
            elif (attr := self_attr(func.value)) is not None and attr in self.env:
                owner = self.env[attr]
            elif isinstance(func.value, ast.Call):
                owner = self._built(func.value)
            if owner is not None:
                res = self.ctx.resolver.member(owner, func.attr)
                t = res.target if res.found and not res.ambiguous else None
                return t if t is not None and t.kind == "function" and t.is_project else None
        name = dotted(func)
        t = resolve_in_test(self.ctx, self.src, name) if name else None
        if t is not None and t.kind == "class":
            init = self.ctx.resolver.member(t, "__init__")
            t = init.target if init.found and not init.ambiguous else None
        return t if t is not None and t.kind == "function" and t.is_project else None

    def _built(self, value: ast.expr) -> Def | None:
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in self.helpers:
            return self.helpers[value.func.id]
        return class_of(self.ctx, self.src, value)

    def _values(self, node: ast.expr) -> tuple[object, ...]:
        if isinstance(node, ast.Name) and node.id in self.params:
            return self.params[node.id]
        lit = _literal(node)
        return () if lit is MISSING else (lit,)

    def _never_created(self, node: ast.expr) -> bool:
        """A path under ``tmp_path`` that nothing else in the test names (so nothing creates it)."""
        expr, var = node, None
        if isinstance(node, ast.Name) and node.id in self.paths:
            expr, var = self.paths[node.id], node.id
        if not (isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Div) and isinstance(expr.left, ast.Name)
                and expr.left.id in self.tmp and isinstance(expr.right, ast.Constant)):
            return False
        leaf = expr.right.value
        uses = [n for n in ast.walk(self.node) if isinstance(n, ast.Constant) and n.value == leaf]
        loads = [n for n in ast.walk(self.node) if isinstance(n, ast.Name) and n.id == var and isinstance(n.ctx, ast.Load)]
        return len(uses) == 1 and (var is None or len(loads) == 1)

    def _run(self, call: ast.Call, outcome: Outcome, **kw: object) -> TestRun | None:
        fn = self.target(call)
        if fn is None:
            return None
        keys = [(str(i), a) for i, a in enumerate(call.args) if not isinstance(a, ast.Starred)]
        keys += [(k.arg, k.value) for k in call.keywords if k.arg]
        values = tuple((k, self._values(a)) for k, a in keys)
        missing = frozenset(k for k, a in keys if self._never_created(a))
        base: dict[str, object] = {"exc": None, "exc_name": None, "expected": MISSING, "truth": None}
        base.update(kw)
        return TestRun(fn, call, outcome, values=values, missing_paths=missing, evidence=self.evidence,
                       words=self.words, test=self.qual, calls_in_test=0, **base)  # type: ignore[arg-type]

    def _add(self, run: TestRun | None) -> int | None:
        if run is None:
            return None
        self.out.append(run)
        return len(self.out) - 1

    # -- the statements -------------------------------------------------------------------------
    def runs(self) -> list[TestRun]:
        if any(_SKIPPED.search(ast.unparse(d)) for d in self.node.decorator_list):
            return []
        self._body(self.node.body)
        counts: dict[int, int] = {}
        nth: dict[tuple[int, str], int] = {}
        places = []
        for r in self.out:
            counts[id(r.fn.node)] = counts.get(id(r.fn.node), 0) + 1
            func = r.call.func
            key = (id(r.fn.node), ast.unparse(func.value) if isinstance(func, ast.Attribute) else "")
            nth[key] = nth.get(key, 0) + 1
            places.append(nth[key])
        return [replace(r, calls_in_test=counts[id(r.fn.node)], ordinal=n) for r, n in zip(self.out, places, strict=True)]

    def _body(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            if isinstance(stmt, (ast.With, ast.AsyncWith)):
                if not self._raises_block(stmt):
                    self._body(stmt.body)
            elif isinstance(stmt, ast.Assign):
                self._assign(stmt)
            elif isinstance(stmt, ast.Assert):
                self._assert(stmt.test)
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                self._expr_call(stmt.value)
            elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Return)):
                self._returned(stmt)
            # loops, branches and ``try``: what runs, and whether an exception is handled, is not certain

    def _returned(self, node: ast.AST, **kw: object) -> None:
        for call in _executed_calls(node):
            self._add(self._run(call, "returns", **kw))

    def _assign(self, stmt: ast.Assign) -> None:
        target = stmt.targets[0] if len(stmt.targets) == 1 else None
        value = stmt.value
        if isinstance(target, ast.Name):
            built = self._built(value) if isinstance(value, ast.Call) else None
            if built is not None:
                self.env[target.id] = built
            if isinstance(value, ast.BinOp):
                self.paths[target.id] = value
        if isinstance(value, ast.Call) and self.target(value) is not None:
            truth = True if isinstance(target, (ast.Tuple, ast.List)) and target.elts else None  # ``(a,) = f()``
            i = self._add(self._run(value, "returns", truth=truth))
            if i is not None and isinstance(target, ast.Name):
                self.results[target.id] = i
            for arg in [*value.args, *(k.value for k in value.keywords)]:
                self._returned(arg)
            return
        self._returned(value)

    def _expect(self, node: ast.expr, **kw: object) -> bool:
        """``node`` is a project call (or a result variable) whose result the test asserts."""
        if isinstance(node, ast.Name) and node.id in self.results:
            i = self.results[node.id]
            self.out[i] = replace(self.out[i], **kw)  # type: ignore[arg-type]
            return True
        if isinstance(node, ast.Call) and self.target(node) is not None:
            self._add(self._run(node, "returns", **kw))
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                self._returned(arg)
            return True
        return False

    def _assert(self, test: ast.expr) -> None:
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.Is)):
            for side, other in ((test.left, test.comparators[0]), (test.comparators[0], test.left)):
                lit = _literal(other)
                if lit is not MISSING and self._expect(side, expected=lit):
                    return
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and self._expect(test.operand, truth=False):
            return
        if self._expect(test, truth=True):
            return
        self._returned(test)

    def _expr_call(self, call: ast.Call) -> None:
        method = (dotted(call.func) or "").rsplit(".", 1)[-1]
        args = call.args
        if method in ("assertRaises", "raises") and len(args) >= 2:
            exc, name = _exception(self.ctx, self.src, args[0])
            fake = ast.Call(func=args[1], args=list(args[2:]), keywords=[k for k in call.keywords if k.arg != "match"])
            ast.copy_location(fake, call)
            self._add(self._run(fake, "raises", exc=exc, exc_name=name))
            return
        if method in ("assertEqual", "assertIs") and len(args) >= 2:
            for side, other in ((args[0], args[1]), (args[1], args[0])):
                lit = _literal(other)
                if lit is not MISSING and self._expect(side, expected=lit):
                    return
        if method == "assertIsNone" and args and self._expect(args[0], expected=None):
            return
        if method in ("assertTrue", "assertFalse") and args and self._expect(args[0], truth=method == "assertTrue"):
            return
        self._returned(call)

    def _raises_block(self, stmt: ast.With | ast.AsyncWith) -> bool:
        for item in stmt.items:
            ce = item.context_expr
            if isinstance(ce, ast.Call) and (dotted(ce.func) or "").rsplit(".", 1)[-1] in ("raises", "assertRaises") \
                    and ce.args:
                # Several statements: the last is the one that raised only when no other calls project code.
                others = [c for st in stmt.body[:-1] for c in _executed_calls(st) if self.target(c) is not None]
                if not others:
                    only = stmt.body[-1]
                    value = only.value if isinstance(only, (ast.Expr, ast.Assign)) else None
                    if isinstance(value, ast.Call):
                        exc, name = _exception(self.ctx, self.src, ce.args[0])
                        self._add(self._run(value, "raises", exc=exc, exc_name=name))
                return True
        return False
