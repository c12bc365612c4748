"""One-sided bounds a doc states for a parameter ("`rate` > 0", "`retries` must be at least 1",
"must be positive", a table cell "`ttl` >= 0") against the guard that raises on the other side
(``if rate <= 0: raise ...``).

Strictness counts: "> 0" is what ``if rate <= 0: raise`` leaves, ">= 0" is what ``if rate < 0``
leaves; for an ``int`` parameter "> 0" and ">= 1" are the same bound. A side the function does
not guard itself (a helper may) is no answer, and so is a guard whose bound is no constant.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import parse_field
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.kinds.ranges import constant_of, is_param
from caas_tui.review.static.model.pysig import Signature, own_nodes
from caas_tui.review.static.naming.names import callable_mentions, section_subject

_NUM = r"-?\d+(?:\.\d+)?"
_SYMBOL = re.compile(rf"(?P<tick>`+)(?P<param>[A-Za-z_]\w*)(?P=tick)\s*(?P<op>>=|<=|>|<|\u2265|\u2264)\s*`*(?P<num>{_NUM})`*(?!\w|\.\d)")
_WORDS = re.compile(
    rf"(?:(?P<tick>`+)(?P<param>[A-Za-z_]\w*)(?P=tick)\s+)?(?:must|should|has\s+to|needs\s+to)\s+be\s+"
    rf"(?P<word>positive|non-negative|nonnegative|negative|greater\s+than(?:\s+or\s+equal\s+to)?|at\s+least|"
    rf"less\s+than(?:\s+or\s+equal\s+to)?|at\s+most)(?:\s+`*(?P<num>{_NUM})`*)?(?!\w|\.\d)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Bound:
    side: str  # low | high
    value: float
    strict: bool

    def normal(self, integer: bool) -> tuple[str, float, bool]:
        """``> 0`` of an int is ``>= 1``: compare integer bounds inclusively."""
        if integer and self.strict and self.value == int(self.value):
            return self.side, self.value + (1 if self.side == "low" else -1), False
        return self.side, self.value, self.strict

    def text(self) -> str:
        op = {("low", True): ">", ("low", False): ">=", ("high", True): "<", ("high", False): "<="}[(self.side, self.strict)]
        return f"{op} {self.value:g}"


def _stated(m: re.Match[str]) -> Bound | None:
    groups = m.groupdict()
    if groups.get("op"):
        op = {"\u2265": ">=", "\u2264": "<="}.get(m.group("op"), m.group("op"))
        return Bound("low" if op.startswith(">") else "high", float(m.group("num")), len(op) == 1)
    word = re.sub(r"\s+", " ", m.group("word").lower())
    if word == "positive":
        return Bound("low", 0.0, True)
    if word in ("non-negative", "nonnegative"):
        return Bound("low", 0.0, False)
    if word == "negative":
        return Bound("high", 0.0, True)
    if m.group("num") is None:
        return None
    value = float(m.group("num"))
    return {"greater than": Bound("low", value, True), "greater than or equal to": Bound("low", value, False),
            "at least": Bound("low", value, False), "less than": Bound("high", value, True),
            "less than or equal to": Bound("high", value, False), "at most": Bound("high", value, False)}.get(word)


def guarded_bounds(ctx: ReviewContext, sig: Signature, param: str) -> list[Bound]:
    """What the function's own raising ``if`` guards on ``param`` leave through."""
    fn = sig.fn
    out: list[Bound] = []
    for node in own_nodes(fn.node) if fn.node is not None else ():
        if not (isinstance(node, ast.If) and any(isinstance(s, ast.Raise) for s in node.body)):
            continue
        tests = node.test.values if isinstance(node.test, ast.BoolOp) and isinstance(node.test.op, ast.Or) else [node.test]
        for test in tests:
            if not isinstance(test, ast.Compare) or len(test.ops) != 1:
                continue
            left, op, right = test.left, test.ops[0], test.comparators[0]
            if is_param(right, param):
                left, right = right, left
                op = {ast.Lt: ast.Gt(), ast.LtE: ast.GtE(), ast.Gt: ast.Lt(), ast.GtE: ast.LtE()}.get(type(op), op)
            value = constant_of(ctx, fn, right) if is_param(left, param) else None
            if value is None:
                continue
            # the guard rejects what the test is true for; the bound is what it lets through
            if isinstance(op, ast.LtE):
                out.append(Bound("low", value, True))
            elif isinstance(op, ast.Lt):
                out.append(Bound("low", value, False))
            elif isinstance(op, ast.GtE):
                out.append(Bound("high", value, True))
            elif isinstance(op, ast.Gt):
                out.append(Bound("high", value, False))
    return out


def _integer(sig: Signature, param: str) -> bool:
    p = sig.named(param)
    return p is not None and isinstance(p.annotation, ast.Name) and p.annotation.id == "int"


def check_stated_bounds(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind not in ("prose", "field"):
        return []
    fact = parse_field(claim.text) if claim.kind == "field" else None
    subjects = [d for _, d in callable_mentions(ctx, claim)]
    owner = section_subject(ctx, claim)
    if owner is not None:
        subjects.append(owner)
    sigs = {id(s.fn.node): s for d in subjects if (s := ctx.call_signature(d, on_instance=True)) is not None
            and s.reliable}
    out: list[Finding] = []
    for pattern in (_SYMBOL, _WORDS):
        for m in pattern.finditer(claim.text):
            param = m.group("param") or (fact.name if fact is not None and fact.role == "param" else None)
            stated = _stated(m)
            having = [s for s in sigs.values() if param and s.named(param) is not None]
            if stated is None or param is None or len(having) != 1:
                continue
            sig = having[0]
            guards = [b for b in guarded_bounds(ctx, sig, param) if b.side == stated.side]
            if len(guards) != 1:
                continue  # not guarded here (a helper may), or guarded twice
            integer = _integer(sig, param)
            label = f"{sig.fn.owner.short}.{sig.fn.short}" if sig.fn.owner is not None else sig.fn.short
            check = f"`{label}` takes `{param}` {stated.text()}"
            ev = ctx.evidence(sig.fn)
            if guards[0].normal(integer) == stated.normal(integer):
                out.append(ok(check, ev, aspect=("value", "raises", "behaviour")))
            else:
                out.append(bad("contradicted", check, f"`{label}` raises unless `{param}` {guards[0].text()}, "
                               f"not {stated.text()}", ev, aspect=("value", "raises", "behaviour")))
    return out
