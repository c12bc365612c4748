"""Whether a callable's call hands back an awaitable, from its definition, and the code-block
findings that follow: ``await f(...)`` of a plain ``def`` whose result is no awaitable, and
``f(...).attr`` of an ``async def`` called without ``await``.

A plain ``def`` can still hand back an awaitable (``return self._send(...)`` of an ``async
def``, ``-> Awaitable[...]``): only a body whose result is known not to be one is judged.
"""

from __future__ import annotations

import ast
import re

from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad
from caas_tui.review.static.model.pysig import own_nodes
from caas_tui.review.static.model.resolve import Def

_AWAITABLE = re.compile(r"(?:^|\.)(?:Awaitable|Coroutine|Future|Task|Any|AsyncIterator|AsyncGenerator|Deferred)$")


def function_node(d: Def) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    node = d.node
    return node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


def decorator_names(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    return {(dotted(d.func if isinstance(d, ast.Call) else d) or "").rsplit(".", 1)[-1] for d in node.decorator_list}


def is_coroutine_function(d: Def) -> bool | None:
    """True for ``async def`` (not an async generator); False for a plain ``def`` whose result is
    known to be no awaitable; None when it can't be told (decorated, returns a call, annotated
    with an awaitable type)."""
    node = function_node(d)
    if node is None or decorator_names(node) - {"staticmethod", "classmethod", "property", "abstractmethod", "override"}:
        return None
    if isinstance(node, ast.AsyncFunctionDef):
        return None if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in own_nodes(node)) else True
    if node.returns is not None:
        name = dotted(node.returns.value if isinstance(node.returns, ast.Subscript) else node.returns) or ""
        if _AWAITABLE.search(name) or isinstance(node.returns, ast.Constant) and isinstance(node.returns.value, str):
            return None
        return False
    returns = [n.value for n in own_nodes(node) if isinstance(n, ast.Return) and n.value is not None]
    if any(not isinstance(v, (ast.Constant, ast.JoinedStr, ast.List, ast.Dict, ast.Tuple, ast.Set, ast.Compare,
                              ast.BinOp, ast.BoolOp, ast.UnaryOp)) for v in returns):
        return None  # ``return self._send(...)`` may hand back a coroutine
    return False


def awaited_sync(ctx: ReviewContext, target: Def) -> Finding | None:
    """``await target(...)`` in a code block where ``target``'s result is no awaitable."""
    if is_coroutine_function(target) is not False:
        return None
    label = target.label
    return bad("contradicted", f"`{label}(...)` can be awaited",
               f"`{label}` is a plain `def` whose result is no awaitable: `await` on it raises `TypeError`",
               ctx.evidence(target), aspect="runs")


def unawaited_async(ctx: ReviewContext, target: Def, used: str) -> Finding | None:
    """``target(...).attr`` in a code block where ``target`` is an ``async def``."""
    if is_coroutine_function(target) is not True:
        return None
    label = target.label
    return bad("contradicted", f"`{label}(...)` gives its result without `await`",
               f"`{label}` is an `async def`: without `await` the call gives a coroutine, which has no {used}",
               ctx.evidence(target), aspect="runs")
