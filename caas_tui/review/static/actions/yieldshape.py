"""What a doc says a loop keeps or drops, against the two loop shapes that settle it.

- The trailing partial group: "the final partial batch is dropped" / "the last, shorter
  chunk is yielded too" against a generator that fills a list in its loop, yields it
  whenever it is full, and after the loop yields what is left (``if batch: yield batch``)
  or does not.
- Which duplicate wins: "keeps the last record seen for each key" against a loop that
  skips a key already seen (``if key in seen: continue``; the first wins) or one that
  overwrites a dict entry per key (``by_key[key] = record``; the last wins).

Any other shape is left unchecked: the words stay asserted and unread.
"""

from __future__ import annotations

import ast
import re

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import parse_field
from caas_tui.review.static.actions.flagclaims import own_functions
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import own_nodes
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import section_subject
from caas_tui.review.static.referents.subjects import subject_of
from caas_tui.review.static.wording.effects import effect_words

_TAIL = r"(?:final|last|remaining|leftover|left-over|trailing|partial|incomplete|short(?:er)?|unfilled)"
_DROPPED = r"(?:dropped|discarded|skipped|ignored|lost|omitted|thrown\s+away|not\s+(?:yielded|emitted|returned)|never\s+(?:yielded|emitted|returned))"
_KEPT = r"(?:yielded|emitted|returned|flushed|included|kept|also\s+yielded|still\s+yielded|yielded\s+too|yielded\s+as\s+well)"
_GROUP = r"(?:batch|batches|chunk|chunks|group|groups|window|windows|page|pages|block|blocks|slice|slices|buffer)"
# "the final partial batch is dropped", "a last, shorter chunk is yielded too".
_TAIL_CLAIM = re.compile(
    rf"\b(?:the|a|any)\s+(?:{_TAIL}[\s,]+(?:and\s+)?){{1,3}}{_GROUP}\b[^.;]*?\b(?:is|are|gets?|will\s+be)\s+"
    rf"(?:(?:also|still|silently|simply)\s+)?(?P<verb>{_DROPPED}|{_KEPT})\b",
    re.IGNORECASE,
)
# "the last chunk may be shorter": the tail is yielded.
_MAY_BE_SHORT = re.compile(
    rf"\bthe\s+(?:last|final)\s+{_GROUP}\s+(?:may|can|might|will|could)\s+(?:be\s+)?(?P<verb>shorter|smaller|"
    r"partial|incomplete|contain\s+fewer|have\s+fewer|hold\s+fewer)\b",
    re.IGNORECASE,
)
_TAIL_WORDS = frozenset(str.split("final last remaining leftover left-over trailing partial incomplete short shorter "
                                  "unfilled drop drops dropped discard discards discarded skip skips skipped ignored lost omitted kept"))
# "keeps the last record seen for each key", "the first occurrence wins".
_WHICH = re.compile(
    r"\b(?:keeps?|keeping|retains?|yields?|returns?|emits?|passes)\s+(?:only\s+)?the\s+(?P<a>first|last|latest|earliest|"
    r"most\s+recent)\b|\bthe\s+(?P<b>first|last|latest|earliest)\s+(?:\w+\s+)?(?:wins|is\s+kept|one\s+wins)\b",
    re.IGNORECASE,
)
# "later values override earlier ones", "earlier entries take precedence".
_ORDER_WINS = re.compile(
    r"\b(?P<later>later|subsequent|last)\s+(?:[\w-]+\s+){0,3}?(?:override|overrides|overwrite|overwrites|replace|"
    r"replaces|win|wins|take\s+precedence|takes\s+precedence)\b|\b(?P<earlier>earlier|first)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:win|wins|is\s+kept|are\s+kept|take\s+precedence|takes\s+precedence)\b",
    re.IGNORECASE,
)
_DUPLICATES = re.compile(r"\b(?:each|every|per)\s+(?:\w+\s+)?key\b|\bduplicat|\brepeat|\bseen\b|\bsame\s+(?:key|name)\b|"
                         r"\btwice\b|\bmore\s+than\s+once\b|\b(?:several|multiple)\s+times\b|\boverrid|\boverwrit|"
                         r"\bprecedence\b|\bwins\b", re.IGNORECASE)
_WHICH_WORDS = frozenset(str.split("first last latest earliest keeps kept unique duplicate duplicates later earlier "
                                   "subsequent"))


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _loops(fn: ast.AST) -> list[ast.For | ast.AsyncFor | ast.While]:
    return [n for n in own_nodes(fn) if isinstance(n, (ast.For, ast.AsyncFor, ast.While))]


def _yields_of(nodes: list[ast.AST] | tuple[ast.AST, ...], acc: str) -> bool:
    return any(isinstance(n, (ast.Yield, ast.YieldFrom)) and n.value is not None and acc in _names(n.value)
               for n in nodes)


def _empty_list(node: ast.expr | None) -> bool:
    if isinstance(node, ast.List) and not node.elts:
        return True
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("list", "deque") \
        and not node.args


def tail_yielded(fn: Def) -> bool | None:
    """Whether a generator that yields a filled list inside its loop also yields what is
    left after the loop; None when ``fn`` has no such loop."""
    if not isinstance(fn.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    nodes = own_nodes(fn.node)
    accs = {t.id for n in nodes if isinstance(n, ast.Assign) and _empty_list(n.value)
            for t in n.targets if isinstance(t, ast.Name)}
    accs |= {n.target.id for n in nodes if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
             and _empty_list(n.value)}
    found: bool | None = None
    for loop in _loops(fn.node):
        inside = [n for stmt in loop.body for n in ast.walk(stmt)]
        inside_ids = {id(n) for n in inside}
        for acc in accs:
            grows = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("append", "extend")
                        and isinstance(n.func.value, ast.Name) and n.func.value.id == acc for n in inside)
            if not grows or not _yields_of(inside, acc):
                continue
            outside = [n for n in nodes if id(n) not in inside_ids and n is not loop]
            if any(isinstance(n, ast.Return) and n.value is not None and acc in _names(n.value) for n in outside):
                return None  # handed back another way: not this shape
            here = _yields_of(outside, acc)
            if found is not None and found != here:
                return None
            found = here
    return found


def duplicate_winner(fn: Def) -> str | None:
    """``first`` for a loop that skips keys it has seen, ``last`` for one that overwrites a
    dict entry per key; None for any other shape (or both)."""
    if not isinstance(fn.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    kinds: set[str] = set()
    for loop in _loops(fn.node):
        if not isinstance(loop, (ast.For, ast.AsyncFor)):
            continue
        for stmt in loop.body:
            # ``if key in seen: continue`` followed by ``seen.add(key)``
            if isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Compare) and len(stmt.test.ops) == 1 \
                    and isinstance(stmt.test.ops[0], ast.In) and isinstance(stmt.test.comparators[0], ast.Name) \
                    and len(stmt.body) == 1 and isinstance(stmt.body[0], ast.Continue):
                seen = stmt.test.comparators[0].id
                adds = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "add"
                           and isinstance(n.func.value, ast.Name) and n.func.value.id == seen
                           for s in loop.body for n in ast.walk(s))
                if adds:
                    kinds.add("first")
            # ``if key not in by_key: by_key[key] = item``: the first stays
            if isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Compare) and len(stmt.test.ops) == 1 \
                    and isinstance(stmt.test.ops[0], ast.NotIn) and not stmt.orelse \
                    and any(_sets_item(s, loop) for s in stmt.body):
                kinds.add("first")
            # ``by_key.setdefault(key, item)``: the first stays
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) \
                    and isinstance(stmt.value.func, ast.Attribute) and stmt.value.func.attr == "setdefault" \
                    and len(stmt.value.args) == 2 and _names(stmt.value.args[1]) & _names(loop.target):
                kinds.add("first")
            # ``by_key[key] = record`` at the top level of the loop body: the last overwrites
            if _sets_item(stmt, loop):
                kinds.add("last")
    return next(iter(kinds)) if len(kinds) == 1 else None


def _sets_item(stmt: ast.stmt, loop: ast.For | ast.AsyncFor) -> bool:
    """``d[key] = <something from the loop variable>``."""
    return isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Subscript) \
        and isinstance(stmt.targets[0].value, ast.Name) and bool(_names(loop.target) & _names(stmt.value))


def _label(fn: Def) -> str:
    parts = fn.qualname.split(".")
    return ".".join(parts[-2:]) if fn.owner is not None else parts[-1]


def _subject(ctx: ReviewContext, claim: Claim, offset: int) -> Def | None:
    if claim.kind == "field":
        return section_subject(ctx, claim)
    return subject_of(ctx, claim, offset)


def _aspects(claim: Claim, read: frozenset[str]) -> tuple[str, ...]:
    """The effect is covered only when every such word of the claim is one this check read."""
    words = set(effect_words(claim))
    return ("returns", "effect") if words and words <= read else ("returns",)


def check_loop_shapes(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind not in ("prose", "field"):
        return []
    fact = parse_field(claim.text) if claim.kind == "field" else None
    if fact is not None and fact.role not in ("returns", "yields"):
        return []
    findings: list[Finding] = []
    for m in [*_TAIL_CLAIM.finditer(claim.text), *_MAY_BE_SHORT.finditer(claim.text)]:
        subject = _subject(ctx, claim, m.start())
        if subject is None:
            continue
        shapes = {id(d.node): (d, tail_yielded(d)) for d in own_functions(ctx, subject)}
        known = [(d, t) for d, t in shapes.values() if t is not None]
        if len(known) != 1:
            continue
        fn, yielded = known[0]
        dropped = re.fullmatch(_DROPPED, m.group("verb"), re.IGNORECASE) is not None
        check = f"`{_label(fn)}` {'drops' if dropped else 'yields'} the final partial group"
        ev = ctx.evidence(fn)
        if dropped != yielded:
            findings.append(ok(check, ev, aspect=_aspects(claim, _TAIL_WORDS)))
        elif dropped:
            findings.append(bad("contradicted", check, f"`{_label(fn)}` yields what is left after its loop "
                                "(the final partial group), so it is not dropped", ev, aspect="returns"))
        else:
            findings.append(bad("contradicted", check, f"`{_label(fn)}` yields only inside its loop; what is "
                                "left after it (the final partial group) is never yielded", ev, aspect="returns"))
    for m in [*_WHICH.finditer(claim.text), *_ORDER_WINS.finditer(claim.text)]:
        said = next(g for g in m.groups() if g).lower()
        said = "first" if said in ("first", "earliest", "earlier") else "last"
        if not _DUPLICATES.search(claim.text):
            continue
        subject = _subject(ctx, claim, m.start())
        if subject is None:
            continue
        winners = {id(d.node): (d, duplicate_winner(d)) for d in own_functions(ctx, subject)}
        known_w = [(d, w) for d, w in winners.values() if w is not None]
        if len(known_w) != 1:
            continue
        fn, winner = known_w[0]
        check = f"`{_label(fn)}` keeps the {said} of each key"
        ev = ctx.evidence(fn)
        if winner == said:
            findings.append(ok(check, ev, aspect=_aspects(claim, _WHICH_WORDS)))
        else:
            how = ("skips a key it has already seen" if winner == "first"
                   else "overwrites the entry of a key it has already seen")
            findings.append(bad("contradicted", check, f"`{_label(fn)}` {how}, so the {winner} one wins, "
                                f"not the {said}", ev, aspect="returns"))
    return findings
