"""Python source -> a ``Fragment`` of unresolved facts (defs, imports, uses, known types).

Nothing here looks at other files: names are recorded as written (relative imports
made absolute, since that needs only this file's own module name), and
``build.build_graph`` gives them meaning across the project.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import cast

from caas_tui.graph.defbuilder import DefBuilder
from caas_tui.graph.docfacts import docstring_mentions
from caas_tui.graph.model import Fragment, PyDef, Ref, Section, Typed
from caas_tui.graph.pyexpr import (
    FIELD_MANY,
    FIELD_ONE,
    annotation,
    bodies,
    call_heads,
    child_field_table,
    child_fields,
    child_nodes,
    dotted,
    end,
    holds_defs,
    start,
    value_expr,
    walk_statements,
)
from caas_tui.ingest.python import module_name, parse_python
from caas_tui.models import SourceFile

ANNOTATED = 0.9  # ``x: T`` says what ``x`` holds
ASSIGNED = 0.85  # ``x = T()`` holds now, may be rebound later
WITH_AS = 0.7  # ``with T() as x``: ``__enter__`` usually, not always, returns self
_EXAMPLE_DIRS = frozenset({"examples", "example"})
# PEP 8 constants (``DEFAULT_TOLERANCE = 1e-4``): where documented defaults live, so
# they become graph nodes and reads of them become ``uses`` edges.
_CONSTANT = re.compile(r"^_?[A-Z][A-Z0-9_]+$")
# Names worth recording when only read, not called: constants, and class-like names
# (``isinstance(s, ManagedSystem)``, ``except SceneError``, ``{"box": BoxShape}``).
_READ_WORTHY = re.compile(r"^_?[A-Z](?:[A-Z0-9_]+|\w*[a-z]\w*)$")
_Func = ast.FunctionDef | ast.AsyncFunctionDef
# The node types ``_Walker.visit`` reads a fact from; every other node is only walked through.
_FACT_NODES = frozenset({ast.Call, ast.Import, ast.ImportFrom, ast.AnnAssign, ast.Assign, ast.withitem,
                         ast.Return, ast.Yield, ast.Name, ast.Attribute})


def python_fragment(src: SourceFile) -> Fragment:
    module = module_name(src.path)
    name = src.path.rsplit("/", 1)[-1]
    is_package = name in ("__init__.py", "__init__.pyi")
    example = any(p in _EXAMPLE_DIRS for p in src.path.split("/")[:-1])
    base = Fragment(path=src.path, kind=src.kind, sha256=src.sha256, module=module, is_package=is_package, example=example)
    try:
        tree = parse_python(src)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        # Unparseable: the module still exists (imports of it resolve), it just says nothing.
        return replace(base, defs=(PyDef(module, "module", 1, max(1, src.text.count("\n") + 1)),))
    package = module if is_package else module.rpartition(".")[0]
    walker = _Walker(src=src, module=module, package=package, record_names=src.kind == "test" or example)
    walker.run(tree, max(1, len(src.text.split("\n"))))
    return replace(base, defs=tuple(walker.defs), sections=tuple(walker.sections))


@dataclass
class _Walker:
    src: SourceFile
    module: str
    package: str  # what ``from . import x`` is relative to
    # Tests and examples also "use" a class by naming it (``pytest.raises(E)``,
    # ``isinstance(x, C)``); elsewhere only calls are kept, to keep fragments small.
    record_names: bool
    defs: list[PyDef] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)

    def run(self, tree: ast.Module, n_lines: int) -> None:
        scope = DefBuilder(self.module, "module", 1, n_lines)
        self.docstring(tree, self.module, self.module)
        self.body(tree.body, scope, None)
        self.defs.insert(0, scope.freeze())

    # -- definitions ---------------------------------------------------------------
    def body(self, stmts: list[ast.stmt], scope: DefBuilder, cls: DefBuilder | None) -> None:
        """Statements directly in a module or class body (defs there are their own scopes)."""
        for stmt in stmts:
            if isinstance(stmt, ast.ClassDef):
                self.klass(stmt, f"{scope.qualname}.{stmt.name}")
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.function(stmt, f"{scope.qualname}.{stmt.name}", cls)
            elif isinstance(stmt, (ast.If, ast.Try, ast.TryStar, ast.With)) and holds_defs(stmt):
                # ``if TYPE_CHECKING:`` imports and ``try: ... except ImportError: def``
                # belong to the enclosing scope.
                self.visit(stmt, scope, shallow=True)
                for inner in bodies(stmt):
                    self.body(inner, scope, cls)
            else:
                self.visit(stmt, scope)
                if cls is not None:
                    self.class_attr(stmt, cls)
                self.constant(stmt, scope)

    def constant(self, stmt: ast.stmt, scope: DefBuilder) -> None:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, ast.AnnAssign) else []
        for target in targets:
            if isinstance(target, ast.Name) and _CONSTANT.match(target.id):
                self.defs.append(PyDef(f"{scope.qualname}.{target.id}", "variable", start(stmt), end(stmt)))

    def klass(self, node: ast.ClassDef, qual: str) -> None:
        scope = DefBuilder(qual, "class", start(node), end(node))
        scope.bases = [b for b in (dotted(x) for x in node.bases) if b]
        for deco in node.decorator_list:
            self.visit(deco, scope)
        self.docstring(node, qual, qual)
        index = len(self.defs)
        self.body(node.body, scope, scope)
        self.defs.insert(index, scope.freeze())

    def function(self, node: _Func, qual: str, cls: DefBuilder | None) -> None:
        scope = DefBuilder(qual, "method" if cls else "function", start(node), end(node), cls=cls.qualname if cls else None)
        scope.fixture = any((dotted(d) or "").replace("()", "").endswith("fixture") for d in node.decorator_list)
        args = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        for i, arg in enumerate(args):
            if cls is not None and i == 0 and arg.arg in ("self", "cls"):
                continue
            typed = annotation(arg.annotation)
            if typed:
                scope.locals[arg.arg] = Typed(arg.arg, typed, ANNOTATED)
            else:
                scope.params.append(arg.arg)
        scope.returns = annotation(node.returns)
        for deco in node.decorator_list:
            self.visit(deco, scope)
        for default in [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]:
            self.visit(default, scope)  # ``tolerance: float = DEFAULT_TOLERANCE``
        self.docstring(node, qual, qual)
        for stmt in node.body:
            self.visit(stmt, scope)
        self._self_attrs(node, scope, cls)
        self.defs.append(scope.freeze())

    def docstring(self, node: ast.AST, symbol: str, owner: str) -> None:
        if self.src.kind != "code":
            return  # test docstrings describe tests; ingest makes no api chunk of them either
        body = getattr(node, "body", None)
        if not (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)):
            return
        value = body[0].value.value
        if not isinstance(value, str) or not value.strip():
            return
        expr = body[0]
        mentions = docstring_mentions(value, expr.lineno)
        self.sections.append(
            Section(f"{self.src.path}#{symbol}", "api", owner, expr.lineno, end(expr), mentions)
        )

    # -- facts inside a scope --------------------------------------------------------
    def visit(self, root: ast.AST, scope: DefBuilder, *, shallow: bool = False) -> None:
        """Record calls, references, imports and typed names under ``root``.

        Runs once for every node of every body, so ``child_nodes`` is inlined and node
        classes are compared with ``is`` (``ast.parse`` builds no subclasses)."""
        todo: list[ast.AST | None] = [root]
        pop, push, extend = todo.pop, todo.append, todo.extend
        known_fields = child_field_table()
        refs = scope.refs
        record, read_worthy = self.record_names, _READ_WORTHY.match
        while todo:
            node = pop()
            if shallow and node is not root and isinstance(node, ast.stmt):
                continue
            cls = type(node)
            if cls is ast.Name:  # a third of all nodes: the ``fact`` branch inlined; a name has no children
                named = cast(ast.Name, node)
                if isinstance(named.ctx, ast.Load) and (record or read_worthy(named.id)):
                    refs.append(Ref(named.id, named.lineno, False))
                continue
            if cls in _FACT_NODES and not self.fact(node, cls, scope, refs, extend):  # type: ignore[arg-type]
                continue  # the fact says which children are still worth walking
            # A ``None`` from a list field (``Dict.keys`` for ``**x``) is pushed too: it has
            # no fields, so it costs one pop.
            fields = known_fields.get(cls)
            for name, how in fields if fields is not None else child_fields(cls):
                if how == FIELD_MANY:
                    extend(getattr(node, name))
                elif how == FIELD_ONE:
                    push(getattr(node, name))
                else:
                    extend(child_nodes(node))  # type: ignore[arg-type]
                    break

    def fact(self, node: ast.AST, cls: type, scope: DefBuilder, refs: list[Ref],
             extend: Callable[[Iterable[ast.AST]], None]) -> bool:
        """Record what ``node`` says; ``False`` when it queued the children worth walking itself."""
        if cls is ast.Call:
            call = cast(ast.Call, node)
            expr = dotted(call.func)
            if expr:
                refs.append(Ref(expr, call.lineno, True))
                extend(call.args)
                extend([k.value for k in call.keywords])
                extend(call_heads(call.func))
                return False
        elif cls is ast.Import or cls is ast.ImportFrom:
            scope.imports.extend(self.imports(cast(ast.Import | ast.ImportFrom, node)))
        elif cls is ast.AnnAssign:
            ann = cast(ast.AnnAssign, node)
            if isinstance(ann.target, ast.Name):
                typed = annotation(ann.annotation)
                if typed:
                    scope.locals[ann.target.id] = Typed(ann.target.id, typed, ANNOTATED)
        elif cls is ast.Assign:
            assign = cast(ast.Assign, node)
            if len(assign.targets) == 1 and isinstance(assign.targets[0], ast.Name):
                value = value_expr(assign.value)
                if value and assign.targets[0].id not in scope.locals:
                    scope.locals[assign.targets[0].id] = Typed(assign.targets[0].id, value, ASSIGNED)
        elif cls is ast.withitem:
            item = cast(ast.withitem, node)
            if isinstance(item.optional_vars, ast.Name):
                value = value_expr(item.context_expr)
                if value:
                    scope.locals[item.optional_vars.id] = Typed(item.optional_vars.id, value, WITH_AS)
        elif cls is ast.Return or cls is ast.Yield:
            ret = cast(ast.Return | ast.Yield, node)
            if scope.returns is None and ret.value is not None:
                scope.returns = value_expr(ret.value)
        else:  # ``ast.Name`` or ``ast.Attribute``
            ref = cast(ast.Name | ast.Attribute, node)
            if isinstance(ref.ctx, ast.Load) and (
                self.record_names or _READ_WORTHY.match(ref.id if cls is ast.Name else ref.attr)  # type: ignore[union-attr]
            ):
                expr = dotted(ref)
                if expr and "?" not in expr:
                    refs.append(Ref(expr, ref.lineno, False))
                    extend(call_heads(ref))  # ``Scene().state``: the ``Scene()`` call
                    return False
        return True

    def imports(self, node: ast.Import | ast.ImportFrom) -> list[tuple[str, str]]:
        if isinstance(node, ast.Import):
            out: list[tuple[str, str]] = []
            for a in node.names:
                if a.asname:
                    out.append((a.asname, a.name))
                else:
                    # ``import a.b`` binds ``a`` but imports ``a.b``: an alias-less entry
                    # ("" never matches a name) keeps the module for the imports edge.
                    out.append((a.name.split(".")[0], a.name.split(".")[0]))
                    if "." in a.name:
                        out.append(("", a.name))
            return out
        base = node.module or ""
        if node.level:
            parts = self.package.split(".") if self.package else []
            parts = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
            base = ".".join([*parts, *([node.module] if node.module else [])])
        found: list[tuple[str, str]] = []
        for alias in node.names:
            target = f"{base}.{alias.name}" if base else alias.name
            found.append(("*", base) if alias.name == "*" else (alias.asname or alias.name, target))
        return found

    def class_attr(self, stmt: ast.stmt, cls: DefBuilder) -> None:
        """``state: StateManager`` / ``state = StateManager()`` in a class body."""
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            typed = annotation(stmt.annotation)
            if typed:
                cls.attrs[stmt.target.id] = Typed(stmt.target.id, typed, ANNOTATED)
        elif isinstance(stmt, ast.Assign):
            value = value_expr(stmt.value)
            for target in stmt.targets:
                if value and isinstance(target, ast.Name) and target.id not in cls.attrs:
                    cls.attrs[target.id] = Typed(target.id, value, ASSIGNED)

    def _self_attrs(self, node: _Func, scope: DefBuilder, cls: DefBuilder | None) -> None:
        """``self.x: T = ...`` and ``self.x = value`` in a method type the class attribute ``x``.

        A value naming a parameter or local is replaced by that name's known type
        here, since the class scope that resolves attributes cannot see them.
        """
        if cls is None:
            return
        for sub in walk_statements(node):
            target: ast.AST | None = None
            typed: str | None = None
            conf = ASSIGNED
            if isinstance(sub, ast.AnnAssign):
                target, typed, conf = sub.target, annotation(sub.annotation), ANNOTATED
            elif isinstance(sub, ast.Assign) and len(sub.targets) == 1:
                target, typed = sub.targets[0], value_expr(sub.value)
            if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                    and target.value.id == "self" and typed):
                continue
            head = typed.split(".", 1)[0].removesuffix("()")
            if head in scope.params:
                continue  # an untyped parameter: nothing known, and the class scope must not guess
            known = scope.locals.get(head)
            if known is not None and typed.split(".", 1)[0] == head:
                rest = typed[len(head):]
                typed, conf = known.type_expr + rest, min(conf, known.confidence)
            if target.attr not in cls.attrs or conf > cls.attrs[target.attr].confidence:
                cls.attrs[target.attr] = Typed(target.attr, typed, conf)
