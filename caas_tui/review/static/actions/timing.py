""""`X` removes it at once / right away / immediately" against a body that hands the
work to a queue or scheduler (``self.state.queue_destroy(entity)``), directly or through
a project helper it calls. A claim that already speaks of queues, steps or "until" is
left alone, and so is one with a condition when only some paths defer: the doc may be
describing the other path."""

from __future__ import annotations

import ast
import re

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.codefacts.delegation import callee
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad
from caas_tui.review.static.model.pysig import parent_map
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import callable_mentions
from caas_tui.review.static.referents.subjects import subject_of

IMMEDIATE = re.compile(
    r"\b(?:at\s+once|immediately|right\s+away|straight\s+away|instantly|synchronously|there\s+and\s+then)\b",
    re.IGNORECASE,
)
# The claim itself says the work waits: nothing to contradict.
_DEFERRAL_WORDS = re.compile(
    r"\b(?:queue[sd]?|queuing|queueing|defer\w*|schedul\w*|later|until|pending|end\s+of|next\s+(?:flush|step|tick|frame)|"
    r"asynchronous\w*|background|postpone\w*)\b",
    re.IGNORECASE,
)
# Where a clause ends: the words after ", so ..." describe a consequence, not when the work
# happens ("removes it at once, so systems that run later no longer see it").
_CLAUSE_END = re.compile(r"[;!?]|\.\s|,\s*(?:so|and|but|which|because|then)\b|\bso\s+(?:that\s+)?(?=\w)", re.IGNORECASE)
_CONDITION = re.compile(
    r"\b(?:if|when|whenever|unless|outside|inside|without|while|only|once|except|otherwise|for\s+an?)\b", re.IGNORECASE
)
_NEGATED = re.compile(r"(?:\bnot|\bnever|n't)\s+(?:\w+\s+){0,4}$", re.IGNORECASE)
# A callee whose name says it only records the work for later.
_DEFERRING = re.compile(r"(?:^|_)(?:queue|enqueue|schedule|defer|postpone|call_soon|call_later)(?:_|$)", re.IGNORECASE)
_MAX_DEPTH = 2


def _clause_of(prose: str, start: int, end: int) -> str:
    """The clause of ``prose`` around ``start:end`` (from the last clause end before it to the next)."""
    before = [b.end() for b in _CLAUSE_END.finditer(prose, 0, start)]
    after = _CLAUSE_END.search(prose, end)
    return prose[before[-1] if before else 0: after.start() if after else len(prose)]


def _prose(text: str) -> str:
    return re.sub(r"(`+)(.+?)\1|:[\w:-]+:`[^`]*`", " X ", text)


def _conditional(node: ast.AST, parents: dict[int, ast.AST], top: ast.AST) -> bool:
    cur = parents.get(id(node))
    while cur is not None and cur is not top:
        if isinstance(cur, (ast.If, ast.IfExp, ast.Try, ast.For, ast.While, ast.Match)):
            return True
        cur = parents.get(id(cur))
    return False


def deferring_call(ctx: ReviewContext, fn: Def, depth: int = 0) -> tuple[ast.Call, Def, Def | None, bool] | None:
    """(call, function making it, the deferring callee if resolved, conditional) for the first
    call in ``fn`` (or a project helper it calls) that hands the work to a queue."""
    node = fn.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or depth > _MAX_DEPTH:
        return None
    parents = parent_map(node)
    calls = sorted((n for n in ast.walk(node) if isinstance(n, ast.Call)), key=lambda c: (c.lineno, c.col_offset))
    for call in calls:
        if any(isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and p is not node
               for p in _ancestors(call, parents)):
            continue  # a nested function's call runs when that function is called
        short = (dotted(call.func) or "").rsplit(".", 1)[-1]
        target = callee(ctx, fn, call)
        if short and _DEFERRING.search(short):
            return call, fn, target, _conditional(call, parents, node)
        if target is not None and target.kind == "function":
            inner = deferring_call(ctx, target, depth + 1)
            if inner is not None:
                return inner[0], inner[1], inner[2], inner[3] or _conditional(call, parents, node)
    return None


def _ancestors(node: ast.AST, parents: dict[int, ast.AST]) -> list[ast.AST]:
    out: list[ast.AST] = []
    cur = parents.get(id(node))
    while cur is not None:
        out.append(cur)
        cur = parents.get(id(cur))
    return out


def _label(fn: Def) -> str:
    parts = fn.qualname.split(".")
    return ".".join(parts[-2:]) if fn.owner is not None else parts[-1]


def check_immediacy(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind != "prose" and claim.kind != "field":
        return []
    prose = _prose(claim.text)
    m = IMMEDIATE.search(prose)
    if m is None or _NEGATED.search(prose[: m.start()]):
        return []
    if _DEFERRAL_WORDS.search(_clause_of(prose, m.start(), m.end())):
        return []
    subject = subject_of(ctx, claim, m.start())
    if subject is None or subject.kind != "function":
        return []
    found = deferring_call(ctx, subject)
    if found is None:
        return []
    call, maker, target, conditional = found
    named = any(d.node is subject.node for _, d in callable_mentions(ctx, claim))
    if conditional and (not named or _CONDITION.search(prose)):
        return []  # some paths defer: the doc may describe another one
    how = ast.unparse(call.func)
    where = "" if maker.node is subject.node else f" (through `{_label(maker)}`)"
    when = " on one of its paths" if conditional else ""
    what = f"`{how}(...)`" + (f" (`{_label(target)}`)" if target is not None else "")
    evidence = [ctx.evidence(subject)]
    if maker.node is not subject.node:
        evidence.append(ctx.evidence(maker))
    if target is not None:
        evidence.append(ctx.evidence(target))
    return [bad("contradicted", f"`{_label(subject)}` acts {m.group(0)}",
                f"`{_label(subject)}` hands the work to {what}{where}{when}, which queues it for later, "
                f"so it does not happen {m.group(0)}", *evidence, aspect="behaviour")]
