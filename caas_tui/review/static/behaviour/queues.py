"""Which element a queue-like method hands out, against "in the order they were added" /
"FIFO" and "the most recently added" / "LIFO".

The code shape that settles it: a method that takes from one ``self`` container (``pop()``,
``pop(-1)``: the end; ``popleft()``, ``pop(0)``: the front), and the class's other methods
that put into that container at one end only (``append``: the end; ``appendleft``,
``insert(0, ...)``: the front), or a container built as ``queue.Queue`` / ``queue.LifoQueue``
(and asyncio's) read with ``get``. Taking from the end something put at the end hands out
the newest first; from the other end, the oldest. A heap, a sort, a container filled at
both ends or taken from in several ways is left alone.
"""

from __future__ import annotations

import ast
import re
from typing import Literal

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.behaviour.reading import functions_of, label, owning_class, prose_of, stated_of_functions
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import own_nodes
from caas_tui.review.static.model.resolve import Def

Order = Literal["fifo", "lifo"]

_VERBS = r"(?:added|enqueued|submitted|queued|put|pushed|inserted|received|scheduled|appended)"
_FIFO = re.compile(rf"\bFIFO\b|\bfirst[- ]in,?\s+first[- ]out\b|\bin\s+(?:the\s+)?(?:same\s+)?order\s+(?:in\s+which\s+)?"
                   rf"(?:they|it|items|tasks|jobs|entries|messages)\s+(?:were|was|are|is)\s+{_VERBS}\b|"
                   rf"\b(?:oldest|earliest|first[- ]{_VERBS})\s+(?:\w+\s+)?first\b", re.IGNORECASE)
_LIFO = re.compile(rf"\bLIFO\b|\blast[- ]in,?\s+first[- ]out\b|\bmost\s+recently\s+{_VERBS}\b|"
                   rf"\b(?:newest|latest|last[- ]{_VERBS})\s+(?:\w+\s+)?first\b", re.IGNORECASE)
_QUEUES = frozenset({"Queue", "SimpleQueue", "LifoQueue"})


def _self_attr(node: ast.AST) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _end_of(call: ast.Call, front: tuple[str, ...], back: tuple[str, ...]) -> str | None:
    """"front" / "back" for a call on a ``self`` container naming one of the methods."""
    if not isinstance(call.func, ast.Attribute):
        return None
    name = call.func.attr
    if name == "pop":
        arg = call.args[0] if call.args else None
        if arg is None or isinstance(arg, ast.UnaryOp) and isinstance(arg.op, ast.USub):
            return "back"
        return "front" if isinstance(arg, ast.Constant) and arg.value == 0 else None
    if name == "insert" and call.args and isinstance(call.args[0], ast.Constant) and call.args[0].value == 0:
        return "front"
    return "front" if name in front else "back" if name in back else None


def _ops(fn: ast.AST | None, attr: str, front: tuple[str, ...], back: tuple[str, ...], names: set[str]) -> set[str]:
    """The ends (front / back / ? when unclear) the calls ``names`` on ``self.<attr>`` in ``fn`` use."""
    ends: set[str] = set()
    for n in own_nodes(fn) if fn is not None else ():
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in names \
                and _self_attr(n.func.value) == attr:
            end = _end_of(n, front, back)
            ends.add(end or "?")
    return ends


def take_order(ctx: ReviewContext, method: Def) -> tuple[Order, Def] | None:
    """("fifo" | "lifo", the method that puts in) for ``method`` taking from a ``self`` container."""
    cls = owning_class(ctx, method)
    if cls is None or method.node is None:
        return None
    takes = {a for n in own_nodes(method.node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr in ("pop", "popleft", "get") and (a := _self_attr(n.func.value)) is not None}
    if len(takes) != 1:
        return None
    attr = next(iter(takes))
    others = [m for m in functions_of(ctx, cls) if m.node is not None and m.node is not method.node]
    built = _built_as(others + [method], attr)
    if built is not None:
        filler = next((m for m in others if _ops(m.node, attr, (), ("put", "put_nowait"), {"put", "put_nowait"})), None)
        return (built, filler) if filler is not None else None
    took = _ops(method.node, attr, ("popleft",), (), {"pop", "popleft"})
    puts = {(m, e) for m in others for e in _ops(m.node, attr, ("appendleft",), ("append",), {"append", "appendleft", "insert"})}
    ends = {e for _, e in puts}
    if len(took) != 1 or len(ends) != 1 or "?" in took | ends:
        return None
    order: Order = "lifo" if took == ends else "fifo"
    return order, next(m for m, _ in puts)


def _built_as(methods: list[Def], attr: str) -> Order | None:
    """The order of a ``queue``/``asyncio`` queue the class builds as ``self.<attr>``."""
    for m in methods:
        for n in own_nodes(m.node) if m.node is not None else ():
            targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(n, ast.AnnAssign) else []
            value = n.value if isinstance(n, (ast.Assign, ast.AnnAssign)) else None
            if any(_self_attr(t) == attr for t in targets) and isinstance(value, ast.Call):
                short = (dotted(value.func) or "").rsplit(".", 1)[-1]
                if short == "LifoQueue":
                    return "lifo"
                if short in _QUEUES:
                    return "fifo"
    return None


def check_take_order(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind not in ("prose", "field"):
        return []
    prose = prose_of(claim)
    fifo: Order = "fifo"
    lifo: Order = "lifo"
    for said, subj in stated_of_functions(ctx, claim, prose, ((_FIFO, fifo), (_LIFO, lifo))):
        found = take_order(ctx, subj)
        if found is None:
            continue
        order, filler = found
        words = {"fifo": "the oldest entry first (FIFO)", "lifo": "the newest entry first (LIFO)"}
        check = f"`{label(subj)}` hands out {words[said]}"
        ev = [ctx.evidence(subj), ctx.evidence(filler)]
        if order == said:
            return [ok(check, *ev, aspect=("behaviour", "effect", "returns"))]
        return [bad("contradicted", check, f"`{label(subj)}` hands out {words[order]}: it takes from the same end "
                    f"`{label(filler)}` puts at" if order == "lifo" else
                    f"`{label(subj)}` hands out {words[order]}: it takes from the other end than `{label(filler)}` "
                    "puts at", *ev, aspect=("behaviour", "effect", "returns"))]
    return []
