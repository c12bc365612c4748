"""String prefixes the code adds itself: ``f"res://{path}"``, ``SCHEME + name``, or a
class whose ``__str__`` renders ``f"{_PREFIX}{self.package}/{self.path}"``.

A doc that passes a value already carrying that prefix makes the code write it twice
(``res://res://...``, ``res://demo/res://...``). Code that inspects the same value for
the prefix (``startswith``, ``removeprefix``, ``in``) copes with it and is left out.
"""

from __future__ import annotations

import ast
import re

from caas_tui.review.static.model.project import ModuleSource
from caas_tui.review.static.model.pysig import evaluate, own_nodes, signature
from caas_tui.review.static.model.resolve import Def, Resolver

_INSPECT = frozenset({"startswith", "removeprefix", "lstrip", "partition", "split", "find", "index", "replace"})
# A prefix is only ever built by an f-string (its ``f``/``rf``/``fr`` prefix right before the
# quote) or by ``+`` (``+=`` is no ``BinOp``): code whose text has neither builds none, and
# is not walked.
_BUILDS = re.compile(r"""\+(?!=)|[fF][rR]?['"]""")


def _may_build(src: ModuleSource, node: ast.AST) -> bool:
    return src.may_contain(_BUILDS, node)


def _is_uri_scheme(prefix: str) -> bool:
    return "://" in prefix


def _worth_it(prefix: str) -> bool:
    """A scheme/path-like literal (``res://``, ``/api/``), not message text."""
    return len(prefix) >= 3 and any(not c.isalnum() for c in prefix) and not any(c.isspace() for c in prefix)


def _literal(expr: ast.expr, module: Def, resolver: Resolver) -> str | None:
    value = evaluate(expr, module, resolver)
    return value.value if value is not None and isinstance(value.value, str) else None


def _subject(expr: ast.expr, me: str | None) -> str | None:
    """The parameter (``path``) or field (``self.path``) an expression reads."""
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "str" and len(expr.args) == 1:
        return _subject(expr.args[0], me)
    if isinstance(expr, ast.FormattedValue):
        # ``{path!r}`` / ``{x:>8}`` render something else than the value itself.
        return _subject(expr.value, me) if expr.conversion == -1 and expr.format_spec is None else None
    if me is None and isinstance(expr, ast.Name):
        return expr.id
    if me is not None and isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == me:
        return expr.attr
    return None


def _built(nodes: tuple[ast.AST, ...], me: str | None, module: Def, resolver: Resolver) -> dict[str, str]:
    """subject -> prefix for every string built as prefix-then-subject."""
    found: dict[str, str] = {}
    for node in nodes:
        if isinstance(node, ast.JoinedStr) and len(node.values) >= 2:
            head = node.values[0]
            prefix = head.value if isinstance(head, ast.Constant) and isinstance(head.value, str) else (
                _literal(head.value, module, resolver) if isinstance(head, ast.FormattedValue) else None)
            if not prefix or not _worth_it(prefix):
                continue
            for k, part in enumerate(node.values[1:], start=1):
                subject = _subject(part, me) if isinstance(part, ast.FormattedValue) else None
                # A URI scheme doubled anywhere later in the same URI is just as broken.
                if subject and (k == 1 or _is_uri_scheme(prefix)):
                    found.setdefault(subject, prefix)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            subject = _subject(node.right, me)
            prefix = _literal(node.left, module, resolver)
            if subject and prefix and _worth_it(prefix):
                found.setdefault(subject, prefix)
    return found


def _guarded(nodes: tuple[ast.AST, ...], me: str | None, module: Def, resolver: Resolver) -> dict[str, list[str | None]]:
    """subject -> the strings the code looks for in it (None: something it can't evaluate)."""
    out: dict[str, list[str | None]] = {}
    for node in nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _INSPECT:
            subject = _subject(node.func.value, me)
            if subject:
                args = node.args[:1]
                probes = [_literal(a, module, resolver) for a in args] if args else [None]
                out.setdefault(subject, []).extend(probes)
        elif isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
            sides = [node.left, *node.comparators]
            for i, side in enumerate(sides):
                subject = _subject(side, me)
                if subject:
                    others = [_literal(o, module, resolver) for j, o in enumerate(sides) if j != i]
                    out.setdefault(subject, []).extend(others or [None])
    return out


def _unguarded(found: dict[str, str], guarded: dict[str, list[str | None]]) -> dict[str, str]:
    """Drop subjects whose code checks for (part of) the prefix: it copes with prefixed input."""
    def related(probe: str | None, prefix: str) -> bool:
        return probe is None or (bool(probe) and (prefix.startswith(probe) or probe.startswith(prefix)
                                                   or (len(probe) >= 2 and probe in prefix)))

    return {k: v for k, v in found.items() if not any(related(p, v) for p in guarded.get(k, []))}


def function_prefixes(fn: Def, resolver: Resolver) -> dict[str, str]:
    """Parameters a function puts a literal prefix in front of."""
    if fn.node is None or fn.module is None or not _may_build(fn.module, fn.node):
        return {}
    sig = signature(fn)
    if sig is None:
        return {}
    module = Def("module", fn.module.name, fn.module)
    nodes = own_nodes(fn.node)
    names = {p.name for p in sig.params}
    found = {k: v for k, v in _built(nodes, None, module, resolver).items() if k in names}
    return _unguarded(found, _guarded(nodes, None, module, resolver)) if found else {}


def field_prefixes(cls: Def, resolver: Resolver) -> dict[str, str]:
    """Fields (``self.path``) a class renders after a literal prefix in any of its methods."""
    node = cls.node
    if not isinstance(node, ast.ClassDef) or cls.module is None:
        return {}
    module = Def("module", cls.module.name, cls.module)
    methods: list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, str]] = []
    for method in node.body:
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) or not method.args.args:
            continue
        if method.name == "__repr__":
            continue  # debugging output (``Entity(id=...)``), not a value anyone consumes
        methods.append((method, method.args.args[0].arg))
    found: dict[str, str] = {}
    for method, me in methods:
        if _may_build(cls.module, method):
            for k, v in _built(own_nodes(method), me, module, resolver).items():
                found.setdefault(k, v)
    if not found:
        return {}
    # Any method, building or not, may be the one that checks a field for the prefix.
    guarded: dict[str, list[str | None]] = {}
    for method, me in methods:
        for k, probes in _guarded(own_nodes(method), me, module, resolver).items():
            guarded.setdefault(k, []).extend(probes)
    return _unguarded(found, guarded)


def dataclass_fields(cls: Def) -> list[str]:
    """Constructor order of a dataclass's fields (annotated class attributes)."""
    node = cls.node
    if not isinstance(node, ast.ClassDef):
        return []
    return [s.target.id for s in node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
            and "ClassVar" not in ast.unparse(s.annotation)]
