"""Both directions of "out of range": a sentence that says a bad argument is handled quietly ("a negative `zoom` is clamped to 0",
"an unknown `mode` is ignored", "values of `ttl` over 60 are capped") against a function that
raises on that argument instead: an ``if`` in its own body whose test reads the parameter and
whose body raises, on the side of the range the sentence names.

The side comes from the sentence's words (negative, below, under, less/fewer than, too small:
the low side; above, over, more/greater/larger than, exceeds, too large: the high side) and
from the guard's comparison (``zoom < 0`` is the low side of ``zoom``). A sentence naming no
side is judged only when every condition on the parameter raises. A ``min``/``max`` around the
parameter on that side, a test that returns instead, or a raise the body catches itself is no
contradiction; a function that hands the check to a helper is no answer.

The other direction: "`zoom` above 20 raises `ValueError`" where the function clamps that side
with ``min``/``max`` and no guard on that side raises.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Literal

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad
from caas_tui.review.static.model.pysig import Signature, own_nodes
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.referents.subjects import subject_of

Side = Literal["low", "high", "both", "other"]

_QUIET = re.compile(
    r"\b(?:is|are|gets?|will\s+be|be)\s+(?:silently\s+|quietly\s+|simply\s+)?(?:clamped|capped|clipped|ignored|"
    r"treated\s+as|coerced|truncated|rounded\s+(?:up|down)\s+to|reset\s+to|replaced\s+(?:by|with))\b|"
    r"\b(?:clamps|caps|clips|ignores|truncates)\b",
    re.IGNORECASE,
)
_LOW = re.compile(r"\b(?:negative|below|under|less\s+than|fewer\s+than|smaller\s+than|lower\s+than|too\s+(?:small|low|"
                  r"short)|zero\s+or\s+less|minimum)\b", re.IGNORECASE)
_HIGH = re.compile(r"\b(?:above|over|more\s+than|greater\s+than|larger\s+than|higher\s+than|bigger\s+than|exceed\w*|"
                   r"too\s+(?:large|big|high|long|many)|beyond|maximum)\b", re.IGNORECASE)
_NEGATED = re.compile(r"(?:\bnot|n't|\bnever)\s+(?:\w+\s+){0,2}$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _Guard:
    side: Side
    test: str
    line: int
    exc: str


def _compare_side(test: ast.expr, param: str) -> Side:
    """Which side of ``param``'s range an ``if`` test rejects."""
    sides: set[str] = set()
    for node in ast.walk(test):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        for i, op in enumerate(node.ops):
            left, right = operands[i], operands[i + 1]
            lt = isinstance(op, (ast.Lt, ast.LtE))
            gt = isinstance(op, (ast.Gt, ast.GtE))
            if not (lt or gt):
                continue
            if isinstance(left, ast.Name) and left.id == param:
                sides.add("low" if lt else "high")
            elif isinstance(right, ast.Name) and right.id == param:
                sides.add("high" if lt else "low")
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    if negated and len(sides) == 2 or sides == {"low", "high"}:
        return "both"  # ``not lo <= x <= hi``; ``x < lo or x > hi``
    if len(sides) == 1:
        side = next(iter(sides))
        if negated:  # ``not x >= 0`` rejects the low side
            return "high" if side == "low" else "low"
        return "low" if side == "low" else "high"
    return "other"


def _conditions(fn: Def, param: str) -> tuple[list[_Guard], bool, set[str]]:
    """The raising guards on ``param`` in ``fn``'s own body, whether some other ``if`` on it
    handles it without raising, and the sides a ``min``/``max`` clamps."""
    node = fn.node
    assert node is not None
    own = own_nodes(node)
    caught = {id(x) for t in own if isinstance(t, ast.Try) for s in t.body for x in ast.walk(s)}
    guards: list[_Guard] = []
    quiet = False
    for n in own:
        if not isinstance(n, ast.If) or not any(isinstance(x, ast.Name) and x.id == param for x in ast.walk(n.test)):
            continue
        raises = [s for s in n.body if isinstance(s, ast.Raise) and s.exc is not None]
        exc = raises[0].exc if raises else None
        if exc is not None and id(raises[0]) not in caught:
            target = exc.func if isinstance(exc, ast.Call) else exc
            guards.append(_Guard(_compare_side(n.test, param), ast.unparse(n.test), n.lineno,
                                 (dotted(target) or "an exception").rsplit(".", 1)[-1]))
        elif not any(isinstance(x, ast.Raise) for s in n.body for x in ast.walk(s)):
            quiet = True
    clamped: set[str] = set()
    for n in own:
        if isinstance(n, ast.Call) and (dotted(n.func) or "") in ("min", "max") \
                and any(isinstance(a, ast.Name) and a.id == param for a in n.args):
            clamped.add("high" if dotted(n.func) == "min" else "low")
    return guards, quiet, clamped


def _about(ctx: ReviewContext, claim: Claim, offset: int) -> tuple[Signature, str, Side] | None:
    """(signature, parameter, stated side) of a sentence about one parameter of its subject."""
    subject = subject_of(ctx, claim, offset)
    if subject is None or subject.kind not in ("function", "class"):
        return None
    sig = ctx.call_signature(subject, on_instance=True)
    if sig is None or not sig.reliable or sig.fn.node is None:
        return None
    param = _param_in(claim.text, [p.name for p in sig.params if p.kind not in ("var", "varkw") and len(p.name) > 2])
    if param is None:
        return None
    low, high = bool(_LOW.search(claim.text)), bool(_HIGH.search(claim.text))
    return sig, param, "other" if low == high else "low" if low else "high"


def _param_in(text: str, params: list[str]) -> str | None:
    """The one parameter the sentence names, in code or as a plain word."""
    found = [p for p in params if re.search(rf"(?<![\w.]){re.escape(p)}(?![\w(])", text, re.IGNORECASE)]
    return found[0] if len(found) == 1 else None


def check_quiet_handling(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind not in ("prose", "field"):
        return []
    out: list[Finding] = []
    for m in _QUIET.finditer(claim.text):
        if _NEGATED.search(claim.text[max(0, m.start() - 30):m.start()]):
            continue  # "is not clamped": the raise is what it says
        about = _about(ctx, claim, len(claim.text))
        if about is None:
            continue
        sig, param, stated = about
        guards, quiet, clamped = _conditions(sig.fn, param)
        if stated == "other":
            hits = guards if guards and not quiet and not clamped else []
        else:
            hits = [g for g in guards if g.side in (stated, "both")] if stated not in clamped else []
        if not hits:
            continue
        g = hits[0]
        label = sig.fn.label
        out.append(bad(
            "contradicted", f"`{label}` handles a bad `{param}` without raising",
            f"`{label}` raises `{g.exc}` when `{g.test}` (line {g.line}) instead of handling `{param}` quietly",
            ctx.evidence(sig.fn), aspect=("raises", "behaviour"),
        ))
        break
    return out


_RAISE = re.compile(r"\b(?:raises?|throws?)\s+(?:an?\s+)?(?::exc:|:class:)?`{1,2}~?(?P<exc>[A-Za-z_][\w.]*)`{1,2}")


def check_clamped_raise(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    """"`zoom` above 20 raises `ValueError`" where the code clamps that side instead."""
    if claim.kind not in ("prose", "field"):
        return []
    m = _RAISE.search(claim.text)
    if m is None or _NEGATED.search(claim.text[max(0, m.start() - 30):m.start()]):
        return []
    about = _about(ctx, claim, len(claim.text))
    if about is None or about[2] not in ("low", "high"):
        return []
    sig, param, side = about
    guards, _, clamped = _conditions(sig.fn, param)
    if side not in clamped or any(g.side in (side, "both", "other") for g in guards):
        return []
    label = sig.fn.label
    how = "min" if side == "high" else "max"
    where = "above" if side == "high" else "below"
    return [bad("contradicted", f"`{label}` raises `{m.group('exc')}` for a `{param}` {where} its range",
                f"`{label}` clamps `{param}` with `{how}(...)` on that side instead of raising", ctx.evidence(sig.fn),
                aspect="raises")]
