"""A raise claim whose condition is one of the function's own calls failing ("if some
currency cannot be converted" over ``book.convert(...)``, "when the file cannot be parsed"
over ``parse(text)``): what that call fails with is what its own docstring's Raises section
lists and its code raises. An exception of that kind the function lets escape (no ``try``
around the call catches it) that the claim, and the function's own Raises section, name
neither directly nor through a base makes the claim incomplete: on that condition the
caller can get it instead.

Only a call the condition's words name (its function's name), made exactly (``callee``),
outside a guard's test (a predicate decides a condition, it does not fail), and only when
the stated exception is one of that call's documented failures: the claim is then about
that call, not about something else the function does.
"""

from __future__ import annotations

import ast
import re

from caas_tui.models import Claim
from caas_tui.review.claims.blocks import Line
from caas_tui.review.claims.docstrings import docstring_blocks, parse_field
from caas_tui.review.static.codefacts.delegation import callee
from caas_tui.review.static.codefacts.raisecheck import is_subclass, reach, stated_exception
from caas_tui.review.static.codefacts.raiseguards import caught_around, failing_verbs, verb_of
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.pysig import own_nodes
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.wording.facts import stated_raises
from caas_tui.review.static.wording.words import same_word

_LISTED = re.compile(r"^\s*((?:~?[A-Za-z_][\w.]*\s*,\s*)+~?[A-Za-z_][\w.]*)\s*:")


# a class name in code or a role (```Expired```, ``:exc:`Expired` ``)
_CLASS_WORD = re.compile(r"`~?((?:\w+\.)*[A-Z]\w*)`")


def documented_raises(ctx: ReviewContext, fn: Def) -> list[Def]:
    """The exception classes ``fn``'s docstring Raises section names (Google, NumPy, Sphinx)."""
    node = fn.node
    text = ast.get_docstring(node) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
    if not text:
        return []
    lines = [Line(k + 1, t) for k, t in enumerate(text.split("\n"))]
    out: list[Def] = []
    for block in docstring_blocks(lines, fn.qualname):
        fact = parse_field(block.text) if block.kind == "field" and block.text else None
        if fact is None or fact.role != "raises":
            continue
        listed = _LISTED.match(fact.desc) if not fact.name else None  # NumPy ``A, B`` on one line
        names = fact.name or (listed.group(1) if listed else "")
        for name in names.split(","):
            if not name.strip():
                continue
            exc = stated_exception(ctx, name.strip().lstrip("~"))
            if exc is not None and all(e.qualname != exc.qualname for e in out):
                out.append(exc)
    return out


def _named_operation(ctx: ReviewContext, fn: Def, verbs: set[str]) -> tuple[ast.Call, Def] | None:
    """The one call in ``fn``'s body, outside any guard's test, whose function's verb the
    condition says fails."""
    node = fn.node
    if node is None:
        return None
    tested = {id(x) for n in own_nodes(node) if isinstance(n, (ast.If, ast.While, ast.IfExp, ast.Assert))
              for x in ast.walk(n.test)}
    found: dict[int, tuple[ast.Call, Def]] = {}
    for call in (n for n in own_nodes(node) if isinstance(n, ast.Call) and id(n) not in tested):
        target = callee(ctx, fn, call)
        if target is None or target.kind != "function":
            continue
        if any(same_word(v, verb_of(target)) for v in verbs):
            found.setdefault(id(target.node), (call, target))
    return next(iter(found.values())) if len(found) == 1 else None


def omitted_failure(ctx: ReviewContext, claim: Claim, fn: Def, exc: Def, condition: str) -> tuple[str, Def] | None:
    """(why the claim is incomplete, the failing call's function), or None."""
    verbs = failing_verbs(condition)
    found = _named_operation(ctx, fn, verbs) if verbs else None
    if found is None or fn.node is None:
        return None
    call, op = found
    documented = documented_raises(ctx, op)
    if not any(is_subclass(ctx, d, exc) for d in documented):
        return None  # the stated exception is not one of that call's failures: not about it
    parents = {id(c): p for p in ast.walk(fn.node) for c in ast.iter_child_nodes(p)}
    caught = caught_around(ctx, fn, call, parents)
    if caught is None:
        return None
    named = [exc, *documented_raises(ctx, fn)]
    # every exception class the claim names ("raises `A` or `B` if ..."), not only the first
    spelled = {*stated_raises(claim.text), *_CLASS_WORD.findall(claim.text)}
    named += [e for e in (stated_exception(ctx, n, claim) for n in sorted(spelled)) if e is not None]
    raised = reach(ctx, op)
    for d in documented:
        if not d.is_project or d.qualname not in raised.certain:
            continue  # documented but not visibly raised, or a builtin the interpreter may raise anyway
        if any(is_subclass(ctx, d, n) for n in named) or any(is_subclass(ctx, d, c) for c in caught):
            continue
        return (f"the condition is `{_short(op)}` failing, and `{_short(op)}` also raises `{d.short}` (its docstring "
                f"lists it and its code raises it), which `{_short(fn)}` lets through; the claim names only "
                f"`{exc.short}`"), op
    return None


def _short(fn: Def) -> str:
    parts = fn.qualname.split(".")
    return ".".join(parts[-2:]) if fn.owner is not None else parts[-1]
