"""Which ``raise`` a stated condition is about: every ``raise`` of a function and of the
project code it calls exactly (``codefacts.delegation``, across modules), with the words
of the guard it sits under (the enclosing ``if``/``while`` tests: names, attributes,
literals, ``isinstance`` types, ``not x``, ``x is None``, ``k not in d``, comparisons with
zero; the caught type of a ``try/except E: raise F``; the exception's name and message), matched against the condition's
content words. Only a condition whose distinguishing words all point at one exception
class gets an answer; several candidates, or none, is no answer.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.codefacts.delegation import callee
from caas_tui.review.static.codefacts.raisecheck import is_subclass
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.pysig import own_nodes, parent_map
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.wording.words import STOPWORDS, content_stems, same_word, stem

_MAX_DEPTH = 6
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+")
# Words of the claim's own frame, never the condition's content.
_FRAME = frozenset(stem(w) for w in ("raise", "raises", "raised", "throw", "thrown", "error", "exception", "exc", "self", "cls",
                                     "given", "passed", "argument", "parameter", "value", "called", "instead"))


@dataclass(frozen=True)
class GuardedRaise:
    exc: Def  # the class raised
    words: frozenset[str]  # stems of what the guard reads
    fn: Def  # the function whose body holds the ``raise``
    line: int


def ident_stems(name: str) -> set[str]:
    """Stems of an identifier's word parts (``_expired`` -> expir, ``RateMissing`` -> rate, missing)."""
    out: set[str] = set()
    for seg in re.split(r"[._\d]+", name):
        out |= {stem(p) for p in _CAMEL.findall(seg) if len(p) >= 3}
    return out


def _test_words(test: ast.AST) -> set[str]:
    words: set[str] = set()
    for n in ast.walk(test):
        if isinstance(n, ast.Name):
            words |= ident_stems(n.id)
        elif isinstance(n, ast.Attribute):
            words |= ident_stems(n.attr)
        elif isinstance(n, ast.Constant):
            if n.value is None:
                words.add("none")
            elif isinstance(n.value, str):
                words |= content_stems(n.value)
            elif n.value == 0 and not isinstance(n.value, bool):
                words.add("zero")
        elif isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
            words |= {"empty", "none", "missing"}
        elif isinstance(n, ast.Compare):
            if any(isinstance(op, ast.NotIn) for op in n.ops):
                words |= {"missing", "unknown", "absent"}
            zero = any(isinstance(c, ast.Constant) and c.value == 0 and not isinstance(c.value, bool)
                       for c in n.comparators)
            if zero and any(isinstance(op, (ast.Lt, ast.LtE)) for op in n.ops):
                words.add("negative")
            if zero and any(isinstance(op, (ast.Gt, ast.GtE)) for op in n.ops):
                words.add("positive")
    return words


def _own_raises(ctx: ReviewContext, fn: Def) -> tuple[list[GuardedRaise], bool]:
    """The guarded raises of ``fn``'s own body; True when one names no class we can place."""
    node, module = fn.node, fn.module
    if node is None or module is None:
        return [], True
    parents = parent_map(node)
    out: list[GuardedRaise] = []
    unknown = False
    for n in own_nodes(node):
        if not isinstance(n, ast.Raise):
            continue
        target = n.exc.func if isinstance(n.exc, ast.Call) else n.exc
        name = dotted(target) if target is not None else None
        res = ctx.resolver.resolve_in(module, name) if name else None
        if res is None or not res.found or res.target is None or res.target.kind not in ("class", "external"):
            unknown = True
            continue
        words: set[str] = set()
        cur: ast.AST | None = parents.get(id(n))
        below: ast.AST = n
        while cur is not None and cur is not node:
            elif_branch = isinstance(cur, ast.If) and cur.orelse == [below] and isinstance(below, ast.If)
            if isinstance(cur, (ast.If, ast.While)) and not elif_branch:
                words |= _test_words(cur.test)
            elif isinstance(cur, ast.ExceptHandler) and cur.type is not None:
                words |= {w for t in ast.walk(cur.type) if isinstance(t, (ast.Name, ast.Attribute))
                          for w in ident_stems(t.id if isinstance(t, ast.Name) else t.attr)}
            below, cur = cur, parents.get(id(cur))
        # the class's own name and the message say what the raise is about (``StaleRate`` for
        # "a stale rate", ``"ratios must not all be zero"``)
        words |= ident_stems(res.target.short) - {"error", "exception"}
        if isinstance(n.exc, ast.Call):
            words |= {w for a in n.exc.args for c in ast.walk(a) if isinstance(c, ast.Constant)
                      and isinstance(c.value, str) for w in content_stems(c.value)}
        out.append(GuardedRaise(res.target, frozenset(words), fn, n.lineno))
    return out, unknown


def caught_around(ctx: ReviewContext, f: Def, call: ast.AST, parents: dict[int, ast.AST]) -> list[Def] | None:
    """The exception classes the ``try`` statements around ``call`` catch; None when one
    cannot be placed (a bare ``except:``)."""
    out: list[Def] = []
    cur, below = parents.get(id(call)), call
    while cur is not None and cur is not f.node:
        if isinstance(cur, ast.Try) and below in cur.body:
            for handler in cur.handlers:
                types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
                for t in types:
                    name = dotted(t) if t is not None else None
                    res = ctx.resolver.resolve_in(f.module, name) if name and f.module is not None else None
                    if res is None or not res.found or res.target is None:
                        return None
                    out.append(res.target)
        below, cur = cur, parents.get(id(cur))
    return out


def guarded_raises(ctx: ReviewContext, fn: Def) -> list[GuardedRaise] | None:
    """Every guarded raise of ``fn`` and of the project functions it calls exactly; None when
    some ``raise`` cannot be placed (a bare ``raise``, ``raise err``)."""
    out: list[GuardedRaise] = []
    seen: set[int] = set()

    def visit(f: Def, depth: int) -> bool:
        if f.node is None or id(f.node) in seen or depth > _MAX_DEPTH:
            return depth <= _MAX_DEPTH
        seen.add(id(f.node))
        own, unknown = _own_raises(ctx, f)
        if unknown:
            return False
        out.extend(own)
        parents = parent_map(f.node)
        for call in (n for n in own_nodes(f.node) if isinstance(n, ast.Call)):
            target = callee(ctx, f, call)
            if target is not None and target.kind == "class":
                init = ctx.resolver.member(target, "__init__")
                target = init.target if init.found and init.target is not None and init.target.kind == "function" \
                    else None
            if target is None or target.kind != "function":
                continue
            start = len(out)
            if not visit(target, depth + 1):
                return False
            caught = caught_around(ctx, f, call, parents)
            if caught is None:
                return False  # a bare ``except:`` or a type we can't place around the call
            out[start:] = [r for r in out[start:] if not any(is_subclass(ctx, r.exc, c) for c in caught)]
        return True

    return out if visit(fn, 0) else None


# "cannot be converted", "fails to parse", "could not be loaded", "if reading fails": the
# condition is an operation failing, named by its verb
_FAILING = re.compile(r"\b(?:cannot|can't|can\s+not|could\s+not|couldn't|fails?\s+to|failed\s+to|unable\s+to)"
                      r"\s+(?:be\s+)?(?P<verb>[a-z]\w+)|\b(?P<ing>[a-z]\w+ing)\s+(?:\w+\s+){0,3}?fails\b",
                      re.IGNORECASE)


def failing_verbs(condition: str) -> set[str]:
    """Stems of the verbs a condition says fail (``cannot be converted`` -> convert)."""
    return {stem(m.group("verb") or m.group("ing")) for m in _FAILING.finditer(condition)}


def verb_of(fn: Def) -> str:
    """The stem of a function name's first word, its verb by convention (``coerce_currency`` -> coerc)."""
    parts = _CAMEL.findall(fn.short.lstrip("_").split("_", 1)[0]) or [fn.short]
    return stem(parts[0].lower())


def operation_stems(ctx: ReviewContext, fn: Def) -> set[str]:
    """The verbs of the project functions ``fn`` calls exactly, at any depth (``book.convert(...)``
    -> convert), outside guards' tests (a predicate such as ``rate.is_expired(at)`` decides a
    condition; it does not fail)."""
    out: set[str] = set()
    seen: set[int] = {id(fn.node)}
    todo = [(fn, 0)]
    while todo:
        f, depth = todo.pop()
        if f.node is None or depth >= _MAX_DEPTH:
            continue
        tested = {id(x) for n in own_nodes(f.node) if isinstance(n, (ast.If, ast.While, ast.IfExp, ast.Assert))
                  for x in ast.walk(n.test)}
        for call in (n for n in own_nodes(f.node) if isinstance(n, ast.Call) and id(n) not in tested):
            target = callee(ctx, f, call)
            if target is None or target.kind != "function" or id(target.node) in seen:
                continue
            seen.add(id(target.node))
            out.add(verb_of(target))
            todo.append((target, depth + 1))
    return out


def condition_stems(condition: str, exc_name: str, subject: Def) -> set[str]:
    """The condition's content words, without the words of the exception's and the subject's
    names (``RateMissing when the rate has expired`` -> expir)."""
    frame = ident_stems(exc_name.rsplit(".", 1)[-1]) | ident_stems(subject.short) | _FRAME
    if subject.owner is not None:
        frame |= ident_stems(subject.owner.short)
    words: set[str] = set()
    for token in re.findall(r"[A-Za-z][A-Za-z0-9_]*", condition):
        if token.lower() not in STOPWORDS:
            words |= ident_stems(token)
    return words - frame


def raise_on_condition(ctx: ReviewContext, raises: list[GuardedRaise], words: set[str]) -> list[GuardedRaise] | None:
    """The raises (best match first) of the one exception class the condition's distinguishing words point at
    (words some guard reads that the guards of no other class read); None when the words
    point at no class or at several."""
    if not words or not raises:
        return None
    by_class: dict[str, set[str]] = {}
    hits: dict[int, int] = {}
    for r in raises:
        matched = {w for w in words if any(same_word(w, g) for g in r.words)}
        hits[id(r)] = len(matched)
        by_class.setdefault(r.exc.qualname, set()).update(matched)
    counts: dict[str, int] = {}
    for matched in by_class.values():
        for w in matched:
            counts[w] = counts.get(w, 0) + 1
    pointing = [q for q, matched in by_class.items() if any(counts[w] == 1 for w in matched)]
    if len(pointing) != 1:
        return None
    # best-matching guard first: the line a rationale cites
    return sorted((r for r in raises if r.exc.qualname == pointing[0]), key=lambda r: -hits[id(r)])
