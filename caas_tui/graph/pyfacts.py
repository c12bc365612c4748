"""Python source -> a ``Fragment`` of unresolved facts (defs, imports, uses, known types).

Nothing here looks at other files: names are recorded as written (relative imports
made absolute, since that needs only this file's own module name), and
``resolve.build_graph`` gives them meaning across the project.
"""

from __future__ import annotations

import ast
import warnings
from dataclasses import dataclass, field, replace

from caas_tui.graph.docfacts import docstring_mentions
from caas_tui.graph.model import Fragment, PyDef, Ref, Section, Typed
from caas_tui.ingest.python import module_name
from caas_tui.models import SourceFile

ANNOTATED = 0.9  # ``x: T`` says what ``x`` holds
ASSIGNED = 0.85  # ``x = T()`` holds now, may be rebound later
WITH_AS = 0.7  # ``with T() as x``: ``__enter__`` usually, not always, returns self
_WRAPPERS = frozenset({"Optional", "ClassVar", "Final", "Annotated", "Required", "NotRequired", "ReadOnly"})
_EXAMPLE_DIRS = frozenset({"examples", "example"})
_Func = ast.FunctionDef | ast.AsyncFunctionDef


def python_fragment(src: SourceFile) -> Fragment:
    module = module_name(src.path)
    name = src.path.rsplit("/", 1)[-1]
    is_package = name in ("__init__.py", "__init__.pyi")
    example = any(p in _EXAMPLE_DIRS for p in src.path.split("/")[:-1])
    base = Fragment(path=src.path, kind=src.kind, sha256=src.sha256, module=module, is_package=is_package, example=example)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(src.text, filename=src.path)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        # Unparseable: the module still exists (imports of it resolve), it just says nothing.
        return replace(base, defs=(PyDef(module, "module", 1, max(1, src.text.count("\n") + 1)),))
    package = module if is_package else module.rpartition(".")[0]
    walker = _Walker(src=src, module=module, package=package, record_names=src.kind == "test" or example)
    walker.run(tree, max(1, len(src.text.split("\n"))))
    return replace(base, defs=tuple(walker.defs), sections=tuple(walker.sections))


def dotted(node: ast.AST | None) -> str | None:
    """``a.b().c`` as written; ``?`` stands for a head we cannot name (``x[0].run`` -> ``?.run``)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{dotted(node.value) or '?'}.{node.attr}"
    if isinstance(node, ast.Call):
        inner = dotted(node.func)
        return f"{inner}()" if inner and not inner.endswith("()") else None
    return None


def annotation(node: ast.AST | None) -> str | None:
    """The class an annotation names, as a value expression (``Foo()``: an instance of Foo).

    Unwraps ``Optional``/``X | None``/string annotations; containers (``list[X]``)
    say nothing about the attribute itself and give ``None``.
    """
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return annotation(ast.parse(node.value.strip(), mode="eval").body)
        except SyntaxError:
            return None
    if isinstance(node, (ast.Name, ast.Attribute)):
        name = dotted(node)
        return f"{name}()" if name and name not in ("None", "Any") else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return annotation(node.right) if _is_none(node.left) else annotation(node.left)
    if isinstance(node, ast.Subscript):
        outer = (dotted(node.value) or "").rsplit(".", 1)[-1]
        inner = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if outer in _WRAPPERS:
            return annotation(inner[0])
        if outer == "Union":
            return next((annotation(e) for e in inner if not _is_none(e)), None)
        if outer in ("type", "Type"):
            name = dotted(inner[0])
            return name if name else None  # the class itself, not an instance
    return None


def _is_none(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is None or isinstance(node, ast.Name) and node.id == "None"


@dataclass
class _Scope:
    """Facts being gathered for one def (nested functions fold into their owner)."""

    qualname: str
    kind: str
    start: int
    end: int
    cls: str | None = None
    bases: list[str] = field(default_factory=list)
    attrs: dict[str, Typed] = field(default_factory=dict)
    locals: dict[str, Typed] = field(default_factory=dict)
    params: list[str] = field(default_factory=list)
    returns: str | None = None
    fixture: bool = False
    imports: list[tuple[str, str]] = field(default_factory=list)
    refs: list[Ref] = field(default_factory=list)

    def freeze(self) -> PyDef:
        return PyDef(
            self.qualname, self.kind, self.start, self.end, self.cls, tuple(self.bases),
            tuple(self.attrs.values()), tuple(self.locals.values()), tuple(self.params), self.returns,
            self.fixture, tuple(self.imports), tuple(self.refs),
        )


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
        scope = _Scope(self.module, "module", 1, n_lines)
        self.docstring(tree, self.module, self.module)
        self.body(tree.body, scope, None)
        self.defs.insert(0, scope.freeze())

    # -- definitions ---------------------------------------------------------------
    def body(self, stmts: list[ast.stmt], scope: _Scope, cls: _Scope | None) -> None:
        """Statements directly in a module or class body (defs there are their own scopes)."""
        for stmt in stmts:
            if isinstance(stmt, ast.ClassDef):
                self.klass(stmt, f"{scope.qualname}.{stmt.name}")
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.function(stmt, f"{scope.qualname}.{stmt.name}", cls)
            elif isinstance(stmt, (ast.If, ast.Try, ast.TryStar, ast.With)) and _holds_defs(stmt):
                # ``if TYPE_CHECKING:`` imports and ``try: ... except ImportError: def``
                # belong to the enclosing scope.
                self.visit(stmt, scope, shallow=True)
                for inner in _bodies(stmt):
                    self.body(inner, scope, cls)
            else:
                self.visit(stmt, scope)
                if cls is not None:
                    self.class_attr(stmt, cls)

    def klass(self, node: ast.ClassDef, qual: str) -> None:
        scope = _Scope(qual, "class", _start(node), _end(node))
        scope.bases = [b for b in (dotted(x) for x in node.bases) if b]
        for deco in node.decorator_list:
            self.visit(deco, scope)
        self.docstring(node, qual, qual)
        index = len(self.defs)
        self.body(node.body, scope, scope)
        self.defs.insert(index, scope.freeze())

    def function(self, node: _Func, qual: str, cls: _Scope | None) -> None:
        scope = _Scope(qual, "method" if cls else "function", _start(node), _end(node), cls=cls.qualname if cls else None)
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
            Section(f"{self.src.path}#{symbol}", "api", owner, expr.lineno, _end(expr), mentions)
        )

    # -- facts inside a scope --------------------------------------------------------
    def visit(self, root: ast.AST, scope: _Scope, *, shallow: bool = False) -> None:
        """Record calls, references, imports and typed names under ``root``."""
        todo: list[ast.AST] = [root]
        while todo:
            node = todo.pop()
            if shallow and node is not root and isinstance(node, ast.stmt):
                continue
            if isinstance(node, ast.Call):
                expr = dotted(node.func)
                if expr:
                    scope.refs.append(Ref(expr, node.lineno, True))
                    todo.extend(node.args)
                    todo.extend(k.value for k in node.keywords)
                    todo.extend(_call_heads(node.func))
                    continue
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                scope.imports.extend(self.imports(node))
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                typed = annotation(node.annotation)
                if typed:
                    scope.locals[node.target.id] = Typed(node.target.id, typed, ANNOTATED)
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                value = _value(node.value)
                if value and node.targets[0].id not in scope.locals:
                    scope.locals[node.targets[0].id] = Typed(node.targets[0].id, value, ASSIGNED)
            elif isinstance(node, ast.withitem) and isinstance(node.optional_vars, ast.Name):
                value = _value(node.context_expr)
                if value:
                    scope.locals[node.optional_vars.id] = Typed(node.optional_vars.id, value, WITH_AS)
            elif isinstance(node, (ast.Return, ast.Yield)) and scope.returns is None and node.value is not None:
                scope.returns = _value(node.value)
            elif self.record_names and isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Load):
                expr = dotted(node)
                if expr and "?" not in expr:
                    scope.refs.append(Ref(expr, node.lineno, False))
                    continue
            todo.extend(ast.iter_child_nodes(node))

    def imports(self, node: ast.Import | ast.ImportFrom) -> list[tuple[str, str]]:
        if isinstance(node, ast.Import):
            return [(a.asname, a.name) if a.asname else (a.name.split(".")[0], a.name.split(".")[0]) for a in node.names]
        base = node.module or ""
        if node.level:
            parts = self.package.split(".") if self.package else []
            parts = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
            base = ".".join([*parts, *([node.module] if node.module else [])])
        out: list[tuple[str, str]] = []
        for alias in node.names:
            target = f"{base}.{alias.name}" if base else alias.name
            out.append(("*", base) if alias.name == "*" else (alias.asname or alias.name, target))
        return out

    def class_attr(self, stmt: ast.stmt, cls: _Scope) -> None:
        """``state: StateManager`` / ``state = StateManager()`` in a class body."""
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            typed = annotation(stmt.annotation)
            if typed:
                cls.attrs[stmt.target.id] = Typed(stmt.target.id, typed, ANNOTATED)
        elif isinstance(stmt, ast.Assign):
            value = _value(stmt.value)
            for target in stmt.targets:
                if value and isinstance(target, ast.Name) and target.id not in cls.attrs:
                    cls.attrs[target.id] = Typed(target.id, value, ASSIGNED)

    def _self_attrs(self, node: _Func, scope: _Scope, cls: _Scope | None) -> None:
        """``self.x: T = ...`` and ``self.x = value`` in a method type the class attribute ``x``.

        A value naming a parameter or local is replaced by that name's known type
        here, since the class scope that resolves attributes cannot see them.
        """
        if cls is None:
            return
        for sub in ast.walk(node):
            target: ast.AST | None = None
            typed: str | None = None
            conf = ASSIGNED
            if isinstance(sub, ast.AnnAssign):
                target, typed, conf = sub.target, annotation(sub.annotation), ANNOTATED
            elif isinstance(sub, ast.Assign) and len(sub.targets) == 1:
                target, typed = sub.targets[0], _value(sub.value)
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


def _value(node: ast.AST | None) -> str | None:
    """A value expression worth remembering: ``Foo(...)``, ``make()``, ``self.x``, ``a or Foo()``."""
    if isinstance(node, (ast.Call, ast.Attribute, ast.Name)):
        expr = dotted(node)
        return expr if expr and "?" not in expr and expr not in ("None", "True", "False") else None
    if isinstance(node, ast.BoolOp):
        return next((v for v in (_value(x) for x in reversed(node.values)) if v), None)
    if isinstance(node, ast.IfExp):
        return _value(node.body) or _value(node.orelse)
    if isinstance(node, ast.Await):
        return _value(node.value)
    return None


def _call_heads(func: ast.AST) -> list[ast.AST]:
    """Sub-expressions of a callee still worth visiting (``a(x).b()``: the ``a(x)`` call)."""
    out: list[ast.AST] = []
    while isinstance(func, (ast.Attribute, ast.Call, ast.Subscript)):
        if isinstance(func, ast.Call):
            out.append(func)
            break
        if isinstance(func, ast.Subscript):
            out.append(func.slice)
        func = func.value
    return out


def _holds_defs(stmt: ast.stmt) -> bool:
    return any(isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom))
               for body in _bodies(stmt) for s in body)


def _bodies(stmt: ast.stmt) -> list[list[ast.stmt]]:
    out = [getattr(stmt, name) for name in ("body", "orelse", "finalbody") if getattr(stmt, name, None)]
    out.extend(h.body for h in getattr(stmt, "handlers", ()))
    return out


def _start(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", None)
    return min([node.lineno, *(d.lineno for d in decorators)]) if decorators else node.lineno


def _end(node: ast.stmt) -> int:
    return node.end_lineno if node.end_lineno is not None else node.lineno
