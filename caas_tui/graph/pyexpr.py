"""Reading Python expressions as dotted names, annotations and values (for ``pyfacts``)."""

from __future__ import annotations

import ast
import re

_WRAPPERS = frozenset({"Optional", "ClassVar", "Final", "Annotated", "Required", "NotRequired", "ReadOnly"})
# Nodes with no fields: a ``Load`` on every name, an operator on every ``BinOp``. They are a
# third of a module's nodes and no fact is read from them.
_LEAVES = (ast.expr_context, ast.boolop, ast.operator, ast.unaryop, ast.cmpop)
# Where statements nest: a statement's parent is a statement, a handler or a match case.
_BLOCKS = (ast.stmt, ast.excepthandler, ast.match_case)


# ASDL field types that never hold a node the graph walks into: names, numbers, constants and
# the field-less leaves (``_LEAVES``).
_SCALAR_TYPES = frozenset({"identifier", "string", "int", "constant", "expr_context", "boolop", "operator",
                           "unaryop", "cmpop"})
_BLOCK_TYPES = frozenset({"stmt", "excepthandler", "match_case"})
_ASDL_FIELD = re.compile(r"\s*(\w+)([*?]?)\s+(\w+)\s*")
FIELD_MANY, FIELD_ONE, FIELD_ANY = 0, 1, 2  # a list field, a single (optional) node, an unknown field read the generic way
# Per node class: the fields that can hold child nodes, learnt once from the class's ASDL signature.
_CHILD_FIELDS: dict[type, tuple[tuple[str, int], ...]] = {}
_BLOCK_FIELDS: dict[type, tuple[str, ...]] = {}


def _signature(cls: type) -> list[tuple[str, str, str]] | None:
    """``(type, quantifier, name)`` per field, from the ASDL line ``ast`` puts in each node class's
    docstring (``Name(identifier id, expr_context ctx)``); ``None`` when it does not match ``_fields``."""
    fields = getattr(cls, "_fields", None)
    doc = (cls.__doc__ or "").split("\n", 1)[0]
    if fields is None or not doc.startswith(f"{cls.__name__}(") or not doc.endswith(")"):
        return None
    inner = doc[len(cls.__name__) + 1 : -1]
    parts = [_ASDL_FIELD.fullmatch(p) for p in inner.split(",")] if inner.strip() else []
    if any(m is None for m in parts):
        return None
    found = [(m.group(1), m.group(2), m.group(3)) for m in parts if m is not None]
    return found if tuple(name for _, _, name in found) == tuple(fields) else None


def child_fields(cls: type) -> tuple[tuple[str, int], ...]:
    """``(field, FIELD_MANY | FIELD_ONE | FIELD_ANY)`` for the fields of ``cls`` that can hold child nodes.

    A list field may still hold ``None`` (``Dict.keys`` for ``**x``), a single field may be ``None``;
    a class whose signature cannot be read keeps every field, read the generic way."""
    known = _CHILD_FIELDS.get(cls)
    if known is None:
        sig = _signature(cls)
        if sig is None:
            known = tuple((name, FIELD_ANY) for name in getattr(cls, "_fields", ()))
        else:
            known = tuple((name, FIELD_MANY if quant == "*" else FIELD_ONE)
                          for kind, quant, name in sig if kind not in _SCALAR_TYPES)
        _CHILD_FIELDS[cls] = known
    return known


def child_field_table() -> dict[type, tuple[tuple[str, int], ...]]:
    """The learnt ``child_fields`` per class, for a walk that inlines the lookup (``None``: not learnt yet)."""
    return _CHILD_FIELDS


def child_nodes(node: ast.AST) -> list[ast.AST]:
    """``ast.iter_child_nodes(node)`` in its order, without the field-less leaves
    (``_LEAVES``) and without its two generators: the graph's walks over every body."""
    out: list[ast.AST] = []
    for name, how in child_fields(type(node)):
        value = getattr(node, name, None)
        if how == FIELD_MANY:
            out.extend(item for item in value or () if item is not None)
        elif how == FIELD_ONE:
            if value is not None:
                out.append(value)
        elif isinstance(value, ast.AST):
            if not isinstance(value, _LEAVES):
                out.append(value)
        elif isinstance(value, list):
            out.extend(item for item in value if isinstance(item, ast.AST) and not isinstance(item, _LEAVES))
    return out


def _block_fields(cls: type) -> tuple[str, ...]:
    known = _BLOCK_FIELDS.get(cls)
    if known is None:
        sig = _signature(cls)
        # Unreadable signature: every field, filtered by type below.
        known = tuple(getattr(cls, "_fields", ())) if sig is None else tuple(
            name for kind, quant, name in sig if quant == "*" and kind in _BLOCK_TYPES)
        _BLOCK_FIELDS[cls] = known
    return known


def walk_statements(node: ast.AST) -> list[ast.AST]:
    """The statements under ``node`` (and ``node``, handlers and match cases) in the order
    ``ast.walk`` yields them, without visiting a single expression. Breadth-first order
    survives the filter: every kept node's parent is kept, at the same depth."""
    out = [node]
    i = 0
    while i < len(out):
        current = out[i]
        i += 1
        for name in _block_fields(type(current)):
            value = getattr(current, name, None)
            if isinstance(value, list):
                out.extend(item for item in value if isinstance(item, _BLOCKS))
    return out


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


def value_expr(node: ast.AST | None) -> str | None:
    """A value expression worth remembering: ``Foo(...)``, ``make()``, ``self.x``, ``a or Foo()``."""
    if isinstance(node, (ast.Call, ast.Attribute, ast.Name)):
        expr = dotted(node)
        return expr if expr and "?" not in expr and expr not in ("None", "True", "False") else None
    if isinstance(node, ast.BoolOp):
        return next((v for v in (value_expr(x) for x in reversed(node.values)) if v), None)
    if isinstance(node, ast.IfExp):
        return value_expr(node.body) or value_expr(node.orelse)
    if isinstance(node, ast.Await):
        return value_expr(node.value)
    return None


def call_heads(func: ast.AST) -> list[ast.AST]:
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


def holds_defs(stmt: ast.stmt) -> bool:
    return any(isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom))
               for body in bodies(stmt) for s in body)


def bodies(stmt: ast.stmt) -> list[list[ast.stmt]]:
    out = [getattr(stmt, name) for name in ("body", "orelse", "finalbody") if getattr(stmt, name, None)]
    out.extend(h.body for h in getattr(stmt, "handlers", ()))
    return out


def start(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", None)
    return min([node.lineno, *(d.lineno for d in decorators)]) if decorators else node.lineno


def end(node: ast.stmt) -> int:
    return node.end_lineno if node.end_lineno is not None else node.lineno
