"""Orders and policies a claim states, against the code shape that settles them.

- Eviction: "evicts the least recently used entry" / "LRU" against a class that evicts from
  the front of a dict (``popitem(last=False)``, ``del d[next(iter(d))]``): a read that moves
  the key to the end (``move_to_end``, or ``pop`` and re-insert) makes the front the least
  recently *used*; reads that never do make it the oldest *inserted* (first in, first out).
  "Oldest inserted first" / "FIFO" is judged the other way round.
- Sort direction: "newest first" / "oldest first" / "most recently modified first" against the
  one ``sorted(...)`` / ``.sort(...)`` of the subject whose key reads a time-like field
  (``created_at``, ``timestamp``, ``st_mtime``): ascending keeps the oldest first,
  ``reverse=True`` the newest.

Anything else (a heap, a key that is not a time, a reverse decided at run time) is left alone.
"""

from __future__ import annotations

import ast
import re

from caas_tui.models import Claim
from caas_tui.review.static.behaviour.reading import (
    denied,
    functions_of,
    label,
    owning_class,
    prose_of,
    stated_of_functions,
    subject,
)
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import own_nodes
from caas_tui.review.static.model.resolve import Def

_LRU = re.compile(r"\bLRU\b|\bleast[- ]recently[- ](?:used|read|accessed|requested|touched)\b", re.IGNORECASE)
_FIFO = re.compile(r"\bFIFO\b|\bfirst[- ]in,?\s+first[- ]out\b|\b(?:oldest|first|earliest)[- ](?:inserted|added|stored|"
                   r"written|put)\b|\bin\s+(?:the\s+)?order\s+(?:they|it)\s+(?:were|was)\s+(?:added|inserted|stored)\b",
                   re.IGNORECASE)
_EVICTION = re.compile(r"\b(?:evict\w*|drop\w*|discard\w*|remov\w*|expir\w*|purg\w*|cache\w*|full|capacity|"
                       r"max\w*|limit\w*|bound\w*|keeps?)\b", re.IGNORECASE)
_NEWEST = re.compile(r"\b(?:newest|latest|most\s+recent(?:ly\s+(?:\w+ed))?|youngest)\s+(?:\w+\s+)?first\b", re.IGNORECASE)
_OLDEST = re.compile(r"\b(?:oldest|earliest|least\s+recent(?:ly\s+(?:\w+ed))?)\s+(?:\w+\s+)?first\b", re.IGNORECASE)
_TIME_TOKENS = frozenset(str.split("time timestamp ts date datetime created modified updated mtime ctime when at "
                                   "seen started finished stamp"))
_REFRESH_CALLS = frozenset({"move_to_end"})


# -- eviction ------------------------------------------------------------------------------------
def _self_attr(node: ast.AST) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _front_eviction(fn: ast.AST) -> str | None:
    """The ``self.<attr>`` a method evicts from the front of, or None."""
    for n in own_nodes(fn):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "popitem":
            last = next((k.value for k in n.keywords if k.arg == "last"), n.args[0] if n.args else None)
            if isinstance(last, ast.Constant) and last.value is False:
                return _self_attr(n.func.value)
        # ``del self.d[next(iter(self.d))]`` / ``self.d.pop(next(iter(self.d)))``
        key = None
        if isinstance(n, ast.Delete) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Subscript):
            key, holder = n.targets[0].slice, n.targets[0].value
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "pop" and n.args:
            key, holder = n.args[0], n.func.value
        if key is not None and _first_key_of(key) is not None and _first_key_of(key) == _self_attr(holder):
            return _self_attr(holder)
    return None


def _first_key_of(expr: ast.expr) -> str | None:
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "next" and expr.args:
        inner = expr.args[0]
        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "iter" and inner.args:
            return _self_attr(inner.args[0])
    return None


def _reads(fn: ast.AST, attr: str) -> bool:
    """``self.<attr>[k]`` loaded, or ``self.<attr>.get/pop(k)``."""
    for n in own_nodes(fn):
        if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load) and _self_attr(n.value) == attr:
            return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("get", "pop") \
                and _self_attr(n.func.value) == attr and n.args and _first_key_of(n.args[0]) is None:
            return True
    return False


def _refreshes(fn: ast.AST, attr: str) -> bool:
    """``self.<attr>.move_to_end(k)``, or ``pop(k)`` then ``self.<attr>[k] = ...`` in one body."""
    nodes = own_nodes(fn)
    if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _REFRESH_CALLS
           and _self_attr(n.func.value) == attr and not any(k.arg == "last" for k in n.keywords) for n in nodes):
        return True
    pops = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "pop"
               and _self_attr(n.func.value) == attr and n.args and _first_key_of(n.args[0]) is None for n in nodes)
    stores = any(isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Store) and _self_attr(n.value) == attr
                 for n in nodes)
    return pops and stores


def eviction_policy(ctx: ReviewContext, cls: Def) -> tuple[str, Def, Def | None] | None:
    """("lru" | "fifo", evicting method, refreshing read) for a class that evicts from the
    front of one ``self`` dict; None for any other shape."""
    methods = functions_of(ctx, cls)
    evicting = [(m, a) for m in methods if m.node is not None and (a := _front_eviction(m.node)) is not None]
    if len({a for _, a in evicting}) != 1:
        return None
    evictor, attr = evicting[0]
    reads = [m for m in methods if m.node is not None and m.node is not evictor.node and _reads(m.node, attr)]
    refreshing = [m for m in reads if m.node is not None and _refreshes(m.node, attr)]
    if refreshing:
        return "lru", evictor, refreshing[0]
    if not reads:
        return None  # nothing here reads it: which entry is "used" least is not in this class
    # A write that re-inserts its key (``pop`` then store) moves it too: the front is then the
    # least recently *written*, still not the least recently used.
    return "fifo", evictor, None


def _eviction_findings(ctx: ReviewContext, claim: Claim, prose: str) -> list[Finding]:
    for pattern, said in ((_LRU, "lru"), (_FIFO, "fifo")):
        m = pattern.search(prose)
        if m is None or denied(prose, m.start()) or not _EVICTION.search(prose):
            continue
        subj = subject(ctx, claim, m.start())
        cls = owning_class(ctx, subj) if subj is not None else None
        found = eviction_policy(ctx, cls) if cls is not None else None
        if cls is None or found is None:
            continue
        policy, evictor, refresher = found
        words = "least recently used first" if said == "lru" else "oldest inserted first"
        check = f"`{label(cls)}` evicts the {words}"
        ev = [ctx.evidence(evictor), ctx.evidence(refresher) if refresher is not None else None]
        if policy == said:
            return [ok(check, *ev, aspect=("behaviour", "effect", "action"))]
        why = (f"`{label(evictor)}` evicts the front entry and no read moves a key to the end, so the oldest "
               "inserted entry goes first, however recently it was used" if refresher is None else
               f"`{label(refresher)}` moves the key it reads to the end, so the entry evicted by "
               f"`{label(evictor)}` is the least recently used one, not the oldest inserted")
        return [bad("contradicted", check, why, *ev, aspect=("behaviour", "effect", "action"))]
    return []


# -- sort direction -------------------------------------------------------------------------------
def _tokens(name: str) -> set[str]:
    return {t for t in re.split(r"[_\W]+", name.lower()) if t}


def _key_direction(key: ast.expr | None) -> bool | None:
    """True when the key is a time read as is, False when negated; None when it is no time."""
    if not isinstance(key, ast.Lambda):
        return None
    body = key.body
    negated = isinstance(body, ast.UnaryOp) and isinstance(body.op, ast.USub)
    if negated:
        assert isinstance(body, ast.UnaryOp)
        body = body.operand
    names = [n.attr for n in ast.walk(body) if isinstance(n, ast.Attribute)]
    names += [n.value for n in ast.walk(body) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    if not names or not (_tokens(names[-1] if isinstance(body, ast.Subscript) else names[0]) & _TIME_TOKENS):
        return None
    return not negated


def sort_direction(fn: Def) -> tuple[bool, str] | None:
    """(newest first?, the call) of the one time-keyed sort in ``fn``'s body."""
    if fn.node is None:
        return None
    sorts: list[ast.Call] = []
    for n in own_nodes(fn.node):
        if isinstance(n, ast.Call) and ((isinstance(n.func, ast.Name) and n.func.id == "sorted")
                                        or (isinstance(n.func, ast.Attribute) and n.func.attr == "sort")):
            sorts.append(n)
        if isinstance(n, ast.Call) and ((isinstance(n.func, ast.Name) and n.func.id == "reversed")
                                        or (isinstance(n.func, ast.Attribute) and n.func.attr == "reverse")):
            return None  # turned round afterwards
        if isinstance(n, ast.Slice) and isinstance(n.step, ast.UnaryOp):
            return None
    if len(sorts) != 1:
        return None
    call = sorts[0]
    key = next((k.value for k in call.keywords if k.arg == "key"), None)
    ascending = _key_direction(key)
    if ascending is None:
        return None
    rev = next((k.value for k in call.keywords if k.arg == "reverse"), ast.Constant(False))
    if not (isinstance(rev, ast.Constant) and isinstance(rev.value, bool)):
        return None
    return ascending == rev.value, ast.unparse(call)


def _sort_findings(ctx: ReviewContext, claim: Claim, prose: str) -> list[Finding]:
    out: list[Finding] = []
    for newest, subj in stated_of_functions(ctx, claim, prose, ((_NEWEST, True), (_OLDEST, False))):
        found = sort_direction(subj)
        if found is None:
            continue
        got, code = found
        check = f"`{label(subj)}` orders {'newest' if newest else 'oldest'} first"
        if got == newest:
            out.append(ok(check, ctx.evidence(subj), aspect=("behaviour", "effect")))
        else:
            out.append(bad("contradicted", check, f"`{label(subj)}` sorts with `{code}`, which puts the "
                           f"{'oldest' if newest else 'newest'} first", ctx.evidence(subj),
                           aspect=("behaviour", "effect")))
    return out


def check_orders(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind not in ("prose", "field"):
        return []
    prose = prose_of(claim)
    return _eviction_findings(ctx, claim, prose) + _sort_findings(ctx, claim, prose)
