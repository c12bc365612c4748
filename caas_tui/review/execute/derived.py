"""Probes for a docstring's ``Raises`` entry that writes no call: ``ValueError: If ``size`` is smaller
than 1.`` on ``Batcher``. The call is built from a literal call of the SAME callable that the project's
tests or docs make, with the named parameter replaced by a value meeting the condition, taken from a
small general vocabulary (a float, negative, zero, empty, None, a non-numeric string, below / above a
number). Each disjunct of the condition (``a float, or a string that is not a number``) is a sufficient
condition of its own, so each becomes a probe when it maps to exactly one value; anything else (a
method, two parameters, a condition outside the vocabulary, no literal call to start from) is left
alone. The call it was built from runs first in the same fork: if that raises, nothing is decided.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import code_spans
from caas_tui.review.execute.probes import MAX_PROBES, Probe, ProbePlan

_FIELD = re.compile(r"^\s*Raises\s*:\s*([A-Za-z_][\w.]*)\s*:\s*(?:if|when|whenever)\s+(.+)$", re.IGNORECASE | re.DOTALL)
_OR = re.compile(r",?\s+or\s+|;\s*", re.IGNORECASE)
_NEGATED = re.compile(r"\bnot\b|\bnon-|n't\b", re.IGNORECASE)
_NOT_A_NUMBER = re.compile(r"\bnot\s+(?:a\s+)?(?:number|numeric)\b|\bnon-numeric\b", re.IGNORECASE)
_BELOW = re.compile(r"\b(?:smaller|less|lower|fewer)\s+than\s+(-?\d+)\b|\bbelow\s+(-?\d+)\b", re.IGNORECASE)
_ABOVE = re.compile(r"\b(?:greater|larger|more|bigger)\s+than\s+(-?\d+)\b|\babove\s+(-?\d+)\b|\bexceeds\s+(-?\d+)\b",
                    re.IGNORECASE)
_TERMS = (
    ("float", re.compile(r"\b(?:a\s+)?floats?\b", re.IGNORECASE)),
    ("negative", re.compile(r"\bnegative\b", re.IGNORECASE)),
    ("zero", re.compile(r"\bzero\b", re.IGNORECASE)),
    ("none", re.compile(r"\bNone\b")),
    ("empty", re.compile(r"\bempty\b", re.IGNORECASE)),
)
_MAX_FILES = 400
_EMPTY: dict[type, object] = {str: "", list: [], tuple: (), dict: {}, bytes: b""}


@dataclass(frozen=True, slots=True)
class BaseCall:
    call: ast.Call
    source: str
    where: str  # ``tests/test_x.py:12``


def _value(condition: str, base: object) -> tuple[str, object] | None:
    """The one vocabulary value meeting ``condition`` (a description and the value), if exactly one does."""
    found: list[tuple[str, object]] = []
    if _NOT_A_NUMBER.search(condition):
        found.append(("a non-numeric string", "abc"))
    elif _NEGATED.search(condition):
        return None  # ``not positive``, ``non-empty``: more than one value meets it, or none of ours
    numeric = isinstance(base, int | float) and not isinstance(base, bool)
    for m in _BELOW.finditer(condition):
        if numeric:
            found.append((f"below {m.group(1) or m.group(2)}", int(m.group(1) or m.group(2)) - 1))
    for m in _ABOVE.finditer(condition):
        if numeric:
            n = next(g for g in m.groups() if g is not None)
            found.append((f"above {n}", int(n) + 1))
    for name, pattern in _TERMS:
        if not pattern.search(condition):
            continue
        if name == "float":
            found.append(("a float", 1.5))
        elif name == "negative" and numeric:
            found.append(("negative", -1))
        elif name == "zero" and numeric:
            found.append(("zero", 0))
        elif name == "none":
            found.append(("None", None))
        elif name == "empty" and type(base) in _EMPTY:
            found.append(("empty", _EMPTY[type(base)]))
    return found[0] if len(found) == 1 else None


def _signature(source: str, qualname: str) -> tuple[str, list[str]] | None:
    """The callable's name and parameter names (a class: its ``__init__``'s), for a module-level
    function or class only: a method needs an instance no literal call builds."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    parts = qualname.split(".")
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == parts[-1]:
            return node.name, [a.arg for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]]
        if isinstance(node, ast.ClassDef) and node.name == parts[-1]:
            init = next((n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
            if init is None:
                return None
            args = [a.arg for a in [*init.args.posonlyargs, *init.args.args, *init.args.kwonlyargs]]
            return node.name, args[1:]
    return None


def _literal(node: ast.expr) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def _snippets(root: Path) -> Iterator[tuple[str, str]]:
    """Python the project writes calls in: its tests, and the code lines of its docs and docstrings."""
    files = 0
    # docs first: a test file also makes the calls that are meant to fail
    for path in sorted(root.rglob("*"), key=lambda p: (any(x in ("tests", "test") for x in p.parts), p)):
        if files >= _MAX_FILES:
            return
        rel = path.relative_to(root)
        if any(p.startswith(".") or p in ("venv", "node_modules", "site-packages") for p in rel.parts):
            continue
        if path.suffix not in (".py", ".md", ".rst") or not path.is_file():
            continue
        files += 1
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if path.suffix == ".py" and any(p in ("tests", "test") for p in rel.parts):
            yield rel.as_posix(), text
            continue
        for n, line in enumerate(text.split("\n"), 1):  # a ``>>>`` line or a code line of a doc
            stripped = line.strip().removeprefix(">>> ").removeprefix("... ")
            if "(" in stripped:
                yield f"{rel.as_posix()}:{n}", stripped


def _base_calls(root: Path, name: str) -> Iterator[BaseCall]:
    for where, text in _snippets(root):
        if f"{name}(" not in text:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        failing = _expected_to_fail(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or id(node) in failing:
                continue
            func = node.func
            last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
            if last == name and all(_literal(a) for a in node.args) and all(
                    k.arg and _literal(k.value) for k in node.keywords):
                line = f":{node.lineno}" if ":" not in where else ""
                yield BaseCall(node, ast.unparse(node), where + line)


_RAISES_CTX = frozenset({"raises", "assertRaises", "assertRaisesRegex"})


def _expected_to_fail(tree: ast.AST) -> set[int]:
    """The calls inside ``with pytest.raises(...)`` / ``assertRaises``: a test's failing inputs."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.With | ast.AsyncWith) and any(
                isinstance(i.context_expr, ast.Call) and _last_name(i.context_expr.func) in _RAISES_CTX
                for i in node.items):
            out |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return out


def _last_name(func: ast.expr) -> str | None:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def _with(base: BaseCall, name: str, params: list[str], param: str, value: object) -> str | None:
    call = ast.Call(ast.Name(name, ast.Load()), list(base.call.args), list(base.call.keywords))
    index = params.index(param)
    new = ast.parse(repr(value), mode="eval").body  # every vocabulary value has a literal repr
    if any(k.arg == param for k in call.keywords):
        call.keywords = [ast.keyword(param, new) if k.arg == param else k for k in call.keywords]
    elif index < len(call.args):
        call.args = [new if i == index else a for i, a in enumerate(call.args)]
    else:
        return None  # the base call leaves the parameter at its default: not what the condition is about
    return ast.unparse(call)


def derived_plan(claim: Claim, root: Path, module_source: str) -> ProbePlan | None:
    """Probes for a ``Raises`` field of a docstring's callable, or None."""
    m = _FIELD.match(claim.text) if claim.kind == "field" and claim.section else None
    if m is None or claim.section is None:
        return None
    sig = _signature(module_source, claim.section)
    if sig is None:
        return None
    name, params = sig
    exc = m.group(1).rsplit(".", 1)[-1]
    probes: list[Probe] = []
    bases: list[BaseCall] | None = None
    param = ""
    for part in _OR.split(m.group(2)):
        named = {s.strip() for s in code_spans(part) if s.strip() in params}
        if len(named) > 1 or not (named or param) or len(probes) >= MAX_PROBES:
            param = ""
            continue
        param = next(iter(named)) if named else param  # ``If `a` is a float, or a string ...``: still `a`
        if bases is None:
            bases = list(_base_calls(root, name))[:20]
        for base in bases:
            current = _current(base, params, param)
            if current is _UNSET:
                continue
            picked = _value(part, current)
            if picked is None:
                break
            source = _with(base, name, params, param, picked[1])
            if source is not None:
                origin = f"built from `{base.source}` ({base.where}) with `{param}` {picked[0]}"
                probes.append(Probe(source, "raises", exc, base=base.source, origin=origin))
            break
    return ProbePlan(tuple(probes), True) if probes else None


_UNSET = object()


def _current(base: BaseCall, params: list[str], param: str) -> object:
    """The literal the base call passes for ``param`` (``_UNSET`` when it passes none)."""
    for k in base.call.keywords:
        if k.arg == param:
            return ast.literal_eval(k.value)
    index = params.index(param)
    if index < len(base.call.args):
        return ast.literal_eval(base.call.args[index])
    return _UNSET
