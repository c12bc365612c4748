"""Python source -> symbol-level pieces via ``ast``.

Every code piece's text is the exact source lines of its span, so a span can be
re-read from disk and verified. Docstrings additionally become ``api`` pieces.
"""

from __future__ import annotations

import ast
import bisect
import functools
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field

from caas_tui.ingest.gcpause import collector_paused
from caas_tui.ingest.ids import Piece, span_text, split_lines, trim, windows
from caas_tui.models import Kind, SourceFile

MAX_FUNC_LINES = 150  # longer functions/class headers are windowed (same symbol on each)
FUNC_WINDOW, FUNC_OVERLAP = 100, 10
GROUP_LINES = 60  # top-level statements between defs are grouped up to this size
SYNTAX_WINDOW, SYNTAX_OVERLAP = 40, 5
# Test docstrings describe tests, not an API; indexing them as "api" would put
# them in front of every API question.
API_KINDS = frozenset({"code", "upstream"})

_DefNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
# Statements whose bodies may hold defs that still belong to the enclosing scope
# (``if TYPE_CHECKING:``, ``try: ... except ImportError: def f(): ...``).
_COMPOUND = (ast.If, ast.Try, ast.TryStar, ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While, ast.Match)


def module_name(path: str) -> str:
    """``src/pkg/mod.py`` -> ``pkg.mod``; ``pkg/__init__.py`` -> ``pkg``."""
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]
    if len(parts) > 1 and parts[0] in ("src", "lib"):
        parts = parts[1:]
    if parts:
        last = parts[-1]
        for ext in (".pyi", ".py"):
            if last.endswith(ext):
                parts[-1] = last[: -len(ext)]
                break
        if parts[-1] == "__init__" and len(parts) > 1:
            parts.pop()
    return ".".join(parts)


@functools.lru_cache(maxsize=2)
def _parse_cached(path: str, text: str) -> ast.Module:
    with warnings.catch_warnings(), collector_paused():
        # Invalid escapes etc. warn at parse time; they are the file's business.
        warnings.simplefilter("ignore")
        return ast.parse(text, filename=path)


def parse_python(src: SourceFile) -> ast.Module:
    """``src``'s syntax tree, parsed once for the chunker and the graph's fact extractor
    (each reads it, neither changes it). Raises what ``ast.parse`` raises."""
    return _parse_cached(src.path, src.text)


def chunk_python(src: SourceFile) -> list[Piece]:
    lines, n = split_lines(src.text)
    if n == 0:
        return []
    try:
        tree = parse_python(src)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        # Unparseable (or too deeply nested): plain overlapping line windows.
        return [
            Piece(src.kind, s, e, None, span_text(lines, s, e))
            for s, e in windows(1, n, SYNTAX_WINDOW, SYNTAX_OVERLAP)
            if trim(lines, s, e) is not None
        ]
    walker = _Walker(lines=lines, kind=src.kind, api=src.kind in API_KINDS)
    mod = module_name(src.path)
    walker.docstring(tree, mod, None, None)
    walker.container(tree.body, mod, 1, n, loose_parent=None, in_class=False)
    return walker.pieces


def function_signature(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    """``def spawn(self, name: str, *components: Component) -> Entity``."""
    prefix = "async def" if isinstance(node, ast.AsyncFunctionDef) else "def"
    sig = f"{prefix} {node.name}({_arguments(node.args)})"
    return f"{sig} -> {ast.unparse(node.returns)}" if node.returns is not None else sig


def _arguments(args: ast.arguments) -> str:
    """Like ``ast.unparse(args)`` but PEP 8 spaced (``x: int = 1``, not ``x: int=1``),
    which is how signatures are written in the docs being checked."""

    def one(arg: ast.arg, default: ast.expr | None, star: str = "") -> str:
        text = star + arg.arg
        if arg.annotation is not None:
            text += f": {ast.unparse(arg.annotation)}"
            if default is not None:
                return f"{text} = {ast.unparse(default)}"
        return f"{text}={ast.unparse(default)}" if default is not None else text

    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    parts = [one(a, d) for a, d in zip(positional, defaults, strict=True)]
    if args.posonlyargs:
        parts.insert(len(args.posonlyargs), "/")
    if args.vararg is not None:
        parts.append(one(args.vararg, None, "*"))
    elif args.kwonlyargs:
        parts.append("*")
    parts.extend(one(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True))
    if args.kwarg is not None:
        parts.append(one(args.kwarg, None, "**"))
    return ", ".join(parts)


def class_signature(node: ast.ClassDef) -> str:
    args = [ast.unparse(b) for b in node.bases] + [ast.unparse(k) for k in node.keywords]
    return f"class {node.name}({', '.join(args)})" if args else f"class {node.name}"


def _start(node: ast.stmt) -> int:
    """First line of a statement, counting decorators (the span starts at ``@``)."""
    decorators = getattr(node, "decorator_list", None)
    return min([node.lineno, *(d.lineno for d in decorators)]) if decorators else node.lineno


def _end(node: ast.stmt) -> int:
    return node.end_lineno if node.end_lineno is not None else node.lineno


def _bodies(node: ast.stmt) -> Iterator[list[ast.stmt]]:
    """The statement lists directly inside a compound statement."""
    for name in ("body", "orelse", "finalbody"):
        body = getattr(node, name, None)
        if body:
            yield body
    for handler in getattr(node, "handlers", ()):
        yield handler.body
    for case in getattr(node, "cases", ()):
        yield case.body


def _scan(body: list[ast.stmt], defs: list[_DefNode], starts: list[int]) -> None:
    """Collect the defs of one scope (looking through compound statements) and the
    start line of every statement around them (the places a group may be cut)."""
    for stmt in body:
        starts.append(_start(stmt))
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defs.append(stmt)
        elif isinstance(stmt, _COMPOUND):
            for inner in _bodies(stmt):
                _scan(inner, defs, starts)


def _docstring_node(node: ast.AST) -> ast.Expr | None:
    body = getattr(node, "body", None)
    if body and isinstance(body[0], ast.Expr):
        value = body[0].value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return body[0]
    return None


@dataclass(frozen=True, slots=True)
class _Walker:
    """Accumulates the pieces of one file (only ``pieces`` grows)."""

    lines: list[str]
    kind: Kind
    api: bool
    pieces: list[Piece] = field(default_factory=list)

    def add(self, start: int, end: int, symbol: str | None, signature: str | None, parent: str | None) -> None:
        self.pieces.append(Piece(self.kind, start, end, symbol, span_text(self.lines, start, end), signature, parent))

    def add_windowed(self, start: int, end: int, symbol: str, signature: str, parent: str | None) -> None:
        """One piece, or overlapping windows (same symbol) when the span is huge."""
        if end - start + 1 <= MAX_FUNC_LINES:
            self.add(start, end, symbol, signature, parent)
            return
        for s, e in windows(start, end, FUNC_WINDOW, FUNC_OVERLAP):
            self.add(s, e, symbol, signature, parent)

    def docstring(self, node: ast.AST, symbol: str, signature: str | None, parent: str | None) -> None:
        expr = _docstring_node(node) if self.api else None
        if expr is None:
            return
        doc = ast.get_docstring(node, clean=True) or ""  # type: ignore[arg-type]
        if not doc.strip():
            return
        text = f"{signature}\n{doc}" if signature else doc
        self.pieces.append(Piece("api", expr.lineno, _end(expr), symbol, text, signature, parent))

    def container(
        self, body: list[ast.stmt], scope: str, lo: int, hi: int, loose_parent: str | None, in_class: bool
    ) -> None:
        """Emit the defs of one scope, then group the lines between them.

        ``lo..hi`` is the part of the scope not already emitted (for a class: the
        body after its header); ``loose_parent`` is the parent for those groups.
        """
        defs: list[_DefNode] = []
        starts: list[int] = []
        _scan(body, defs, starts)
        covered: list[tuple[int, int]] = []
        for node in defs:
            qual = f"{scope}.{node.name}"
            parent = scope if in_class else None
            if isinstance(node, ast.ClassDef):
                self.klass(node, qual, parent)
            else:
                self.function(node, qual, parent)
            covered.append((_start(node), _end(node)))
        self.loose(lo, hi, covered, sorted(set(starts)), scope, loose_parent)

    def function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, qual: str, parent: str | None) -> None:
        sig = function_signature(node)
        self.add_windowed(_start(node), _end(node), qual, sig, parent)
        self.docstring(node, qual, sig, parent)

    def klass(self, node: ast.ClassDef, qual: str, parent: str | None) -> None:
        sig = class_signature(node)
        start, end = _start(node), _end(node)
        inner: list[_DefNode] = []
        _scan(node.body, inner, [])
        first_def = None
        if inner:
            # The header runs up to the top-level body statement holding the first def.
            first_line = _start(inner[0])
            first_def = next(_start(s) for s in node.body if _start(s) <= first_line <= _end(s))
        header_end = end
        if first_def is not None:
            span = trim(self.lines, start, first_def - 1)
            header_end = span[1] if span else node.lineno
        self.add_windowed(start, header_end, qual, sig, parent)
        self.docstring(node, qual, sig, parent)
        if header_end < end:
            self.container(node.body, qual, header_end + 1, end, loose_parent=parent, in_class=True)

    def loose(
        self, lo: int, hi: int, covered: list[tuple[int, int]], starts: list[int], symbol: str, parent: str | None
    ) -> None:
        """Group the uncovered lines of ``lo..hi`` into chunks of <= GROUP_LINES,
        cutting at statement starts so a statement is split only if it is huge."""
        covered.sort()
        runs: list[tuple[int, int]] = []
        cur = lo
        for s, e in covered:
            if s > cur:
                runs.append((cur, min(s - 1, hi)))
            cur = max(cur, e + 1)
        if cur <= hi:
            runs.append((cur, hi))
        for a, b in runs:
            span = trim(self.lines, a, b)
            if span is None:
                continue
            g, b = span
            while g <= b:
                e = b
                if b - g + 1 > GROUP_LINES:
                    i = bisect.bisect_right(starts, g + GROUP_LINES) - 1
                    cut = starts[i] if i >= 0 and starts[i] > g else g + GROUP_LINES
                    e = cut - 1
                group = trim(self.lines, g, e)
                if group is not None and any(c.isalnum() for c in span_text(self.lines, *group)):
                    # Separator-only comment runs (``# -----``) carry nothing to find.
                    self.add(group[0], group[1], symbol, None, parent)
                g = e + 1
