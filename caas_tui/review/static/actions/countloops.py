"""How many values a doc says a generator produces ("one delay per attempt", "``max_attempts=4``
gives four delays") against a loop ``for _ in range(n - k)`` whose body yields (or appends)
once per turn, ``n`` a parameter or a ``self`` attribute named for the doc's noun.

Judged only for that loop shape with one yield or append per turn and nothing that leaves
the loop early; any other count is left to ``counts`` (defaults) or unchecked.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from caas_tui.models import Claim
from caas_tui.review.static.actions.flagclaims import own_functions
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.defaults.symdefaults import resolved_default
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import own_nodes
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.referents.subjects import subject_of
from caas_tui.review.static.wording.assertions import NUMBER_WORDS
from caas_tui.review.static.wording.words import same_word, stem


@dataclass(frozen=True, slots=True)
class RangeLoop:
    bound: str  # the parameter or attribute the loop counts (``max_attempts``)
    offset: int  # turns = bound + offset
    source: str  # ``range(self.max_attempts - 1)``


def _bound_name(expr: ast.expr) -> str | None:
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self":
        return expr.attr
    return None


def _range_of(expr: ast.expr) -> tuple[str, int] | None:
    if not (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "range"
            and len(expr.args) == 1 and not expr.keywords):
        return None
    arg = expr.args[0]
    name = _bound_name(arg)
    if name is not None:
        return name, 0
    if isinstance(arg, ast.BinOp) and isinstance(arg.op, (ast.Add, ast.Sub)) and isinstance(arg.right, ast.Constant) \
            and isinstance(arg.right.value, int) and not isinstance(arg.right.value, bool):
        name = _bound_name(arg.left)
        if name is not None:
            return name, arg.right.value if isinstance(arg.op, ast.Add) else -arg.right.value
    return None


def counted_loop(fn: Def) -> RangeLoop | None:
    """The one ``for _ in range(n - k)`` loop of ``fn`` that yields once per turn (``fn``
    yields nowhere else), or None."""
    if not isinstance(fn.node, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.module is None:
        return None
    nodes = own_nodes(fn.node)
    yields = [n for n in nodes if isinstance(n, (ast.Yield, ast.YieldFrom))]
    loops = [n for n in nodes if isinstance(n, ast.For) and _range_of(n.iter) is not None]
    if len(loops) != 1 or len(yields) != 1 or isinstance(yields[0], ast.YieldFrom):
        return None
    loop = loops[0]
    body = [n for stmt in loop.body for n in ast.walk(stmt)]
    if yields[0] not in body or loop.orelse:
        return None
    # Once per turn: the yield is a statement of the loop body itself, and nothing skips or leaves.
    direct = any(isinstance(s, ast.Expr) and s.value is yields[0] for s in loop.body)
    if not direct or any(isinstance(n, (ast.Break, ast.Continue, ast.Return, ast.Raise)) for n in body):
        return None
    bound = _range_of(loop.iter)
    if bound is None:
        return None
    segment = fn.module.segment(loop.iter)
    return RangeLoop(bound[0], bound[1], segment)


def attempt_loop(fn: Def) -> RangeLoop | None:
    """The one ``for _ in range(n + k)`` loop of ``fn`` that makes one attempt per turn: a
    ``try`` in its body that returns (or breaks) on success and goes round again on failure."""
    if not isinstance(fn.node, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.module is None:
        return None
    loops = [n for n in own_nodes(fn.node) if isinstance(n, (ast.For, ast.AsyncFor)) and _range_of(n.iter) is not None]
    if len(loops) != 1:
        return None
    loop = loops[0]
    tries = [st for st in loop.body if isinstance(st, ast.Try)]
    if len(tries) != 1 or not any(isinstance(n, (ast.Return, ast.Break)) for st in tries[0].body for n in ast.walk(st)):
        return None
    if any(isinstance(n, (ast.Return, ast.Break)) for st in loop.body if st is not tries[0] for n in ast.walk(st)):
        return None  # another way out of the loop: the turns are not all attempts
    bound = _range_of(loop.iter)
    return RangeLoop(bound[0], bound[1], fn.module.segment(loop.iter)) if bound is not None else None


_NUM_WORDS = "|".join(sorted((w for w in NUMBER_WORDS if " " not in w and w not in ("a", "an")), key=len, reverse=True))
# "one delay per attempt"
_PER = re.compile(r"\b(?:one|a|an|1)\s+(?P<noun>[a-z]{3,})\s+(?:per|for\s+(?:each|every))\s+(?P<unit>[a-z]{3,})\b",
                  re.IGNORECASE)
# "``max_attempts=4`` gives four delays"
_GIVES = re.compile(
    rf"`+[^`]*?(?<![\w.])(?P<param>[A-Za-z_]\w*)\s*=\s*(?P<value>\d+)\b[^`]*`+(?:[^.;]|\.(?=\S))*?\b"
    rf"(?:gives?|yields?|produces?|returns?|means?|"
    rf"makes?)\s+(?:you\s+)?(?:exactly\s+)?(?P<num>\d+|{_NUM_WORDS})\s+(?P<noun>[a-z]{{3,}})\b",
    re.IGNORECASE,
)


def _singular(word: str) -> str:
    word = word.lower()
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


# "``max_attempts - 1`` values", "yields ``n`` items"
_SPAN_COUNT = re.compile(r"(?<!`)(`{1,2})(?P<bound>[A-Za-z_]\w*)(?:\s*(?P<op>[-+])\s*(?P<k>\d+))?\1(?!`)\s+"
                         r"(?P<noun>[a-z]{3,}s)\b")


# "``max_retries=3`` makes four attempts", "tries at most ``retries + 1`` times" is left out
_ATTEMPTS = re.compile(
    rf"`+[^`]*?(?<![\w.])(?P<param>[A-Za-z_]\w*)\s*=\s*(?P<value>\d+)\b[^`]*`+(?:[^.;]|\.(?=\S))*?\b"
    rf"(?:(?:gives?|makes?|means?|allows?|is|are)\s+)?"
    rf"(?:up\s+to\s+|at\s+most\s+|exactly\s+)?(?P<num>\d+|{_NUM_WORDS})\s+(?:(?:\w+\s+)?(?P<noun>attempts|tries|calls)\b|"
    rf"(?P<times>times)\b)",
    re.IGNORECASE,
)


def _named_for(bound: str, word: str) -> bool:
    """``tries`` is named for "try", ``max_attempts`` for "attempt"."""
    return any(_singular(t) == _singular(word) or same_word(stem(t), stem(word.lower()))
               for t in bound.lower().split("_") if len(t) >= 3)


def _number(raw: str) -> int | None:
    value = int(raw) if raw.isdigit() else NUMBER_WORDS.get(raw.lower())
    return value if isinstance(value, int) else None


def _label(fn: Def) -> str:
    parts = fn.qualname.split(".")
    return ".".join(parts[-2:]) if fn.owner is not None else parts[-1]


def _turns(loop: RangeLoop) -> str:
    if loop.offset == 0:
        return f"`{loop.bound}`"
    return f"`{loop.bound} {'+' if loop.offset > 0 else '-'} {abs(loop.offset)}`"


# "makes three attempts", "at most 4 tries": with no ``name=value`` in the sentence, the default
_DEFAULT_ATTEMPTS = re.compile(
    rf"\b(?:makes?|gives?|allows?|up\s+to|at\s+most|exactly|in\s+all|total\s+of)\s+(?:up\s+to\s+|at\s+most\s+)?"
    rf"(?P<num>\d+|{_NUM_WORDS})\s+(?:\w+\s+)?(?:attempts|tries)\b",
    re.IGNORECASE,
)


def _bound_default(ctx: ReviewContext, fn: Def, bound: str) -> tuple[int, str] | None:
    """The resolved default of the loop's bound: ``fn``'s parameter, or for ``self.<bound>``
    the constructor parameter of that name."""
    sig = ctx.signature(fn)
    if sig is None or sig.named(bound) is None:
        owner = fn.owner
        sig = ctx.call_signature(owner, on_instance=True) if owner is not None and owner.kind == "class" else None
    p = sig.named(bound) if sig is not None and sig.reliable else None
    if sig is None or p is None or p.default is None or p.kind in ("var", "varkw"):
        return None
    value = resolved_default(ctx, sig, bound, p.default, none_stated=False)
    if value is None or not isinstance(value.value, int) or isinstance(value.value, bool):
        return None
    return value.value, value.source


def _retry_loops(ctx: ReviewContext, claim: Claim, offset: int, bound: str | None) -> list[tuple[Def, RangeLoop]]:
    named = subject_of(ctx, claim, offset)
    candidates = own_functions(ctx, named) if named is not None else []
    return [(d, lp) for d, lp in ((d, attempt_loop(d)) for d in candidates)
            if lp is not None and (bound is None or lp.bound == bound)]


def _check_attempts(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    findings: list[Finding] = []
    if "=" not in claim.text:
        for m in _DEFAULT_ATTEMPTS.finditer(claim.text):
            loops = _retry_loops(ctx, claim, m.start("num"), None)
            stated = _number(m.group("num"))
            if len(loops) != 1 or stated is None:
                continue
            subject, loop = loops[0]
            default = _bound_default(ctx, subject, loop.bound)
            if default is None:
                continue
            label = _label(subject)
            actual = default[0] + loop.offset
            check = f"`{label}` makes {stated} attempts by default"
            if actual == stated:
                findings.append(ok(check, ctx.evidence(subject), aspect=("behaviour", "value")))
            else:
                findings.append(bad("contradicted", check, f"`{label}` makes one attempt per turn of `{loop.source}`, "
                                    f"and `{loop.bound}` defaults to {default[1]}: {actual} attempts, not {stated}",
                                    ctx.evidence(subject), aspect=("behaviour", "value")))
    for m in _ATTEMPTS.finditer(claim.text):
        if m.group("times") and re.search(r"\bretr(?:y|ies|ied)\b", m.group(0), re.IGNORECASE):
            continue  # "retries 3 times": retries, not attempts
        loops = _retry_loops(ctx, claim, m.start("num"), m.group("param"))
        stated = _number(m.group("num"))
        if len(loops) != 1 or stated is None:
            continue  # no such loop, or several methods retry: which one the doc means is not told
        subject, loop = loops[0]
        label = _label(subject)
        actual = int(m.group("value")) + loop.offset
        check = f"`{label}` with `{loop.bound}={m.group('value')}` makes {stated} attempts"
        ev = ctx.evidence(subject)
        if actual == stated:
            findings.append(ok(check, ev, aspect=("behaviour", "value")))
        else:
            findings.append(bad("contradicted", check, f"`{label}` makes one attempt per turn of `{loop.source}`: "
                                f"{actual} for `{loop.bound}={m.group('value')}`, not {stated}", ev,
                                aspect=("behaviour", "value")))
    return findings


def check_loop_counts(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind not in ("prose", "field"):
        return []
    findings: list[Finding] = _check_attempts(ctx, claim)
    for m in [*_PER.finditer(claim.text), *_GIVES.finditer(claim.text), *_SPAN_COUNT.finditer(claim.text)]:
        subject = subject_of(ctx, claim, m.start())
        if subject is None or subject.kind != "function":
            continue
        loop = counted_loop(subject)
        if loop is None:
            continue
        if _named_for(loop.bound, m.group("noun")):
            continue  # "``retries`` retries": the parameter restated, not what each turn yields
        label = _label(subject)
        ev = ctx.evidence(subject)
        said = m.group(0).strip("` ")
        if "unit" in m.groupdict() and m.group("unit") is not None:
            if not _named_for(loop.bound, m.group("unit")):
                continue
            check = f"`{label}` yields one value per `{loop.bound}`"
            if loop.offset == 0:
                findings.append(ok(check, ev, aspect=("returns", "value")))
            else:
                findings.append(bad("contradicted", check, f"`{label}` yields {_turns(loop)} values "
                                    f"(`{loop.source}`), not one per {m.group('unit')} (“{said}”)", ev,
                                    aspect=("returns", "value")))
            continue
        if "op" in m.groupdict():
            if m.group("bound") != loop.bound:
                continue
            offset = int(m.group("k") or 0) * (-1 if m.group("op") == "-" else 1)
            spelled = m.group("bound") + (f" {m.group('op')} {m.group('k')}" if m.group("op") else "")
            check = f"`{label}` yields `{spelled}` values"
            if offset == loop.offset:
                findings.append(ok(check, ev, aspect=("returns", "value")))
            else:
                findings.append(bad("contradicted", check, f"`{label}` yields {_turns(loop)} values (`{loop.source}`), "
                                    f"not {said}", ev, aspect=("returns", "value")))
            continue
        if m.group("param") != loop.bound:
            continue
        stated = _number(m.group("num"))
        if stated is None:
            continue
        actual = int(m.group("value")) + loop.offset
        check = f"`{label}` with `{loop.bound}={m.group('value')}` yields {stated} values"
        if actual == stated:
            findings.append(ok(check, ev, aspect=("returns", "value")))
        else:
            findings.append(bad("contradicted", check, f"`{label}` yields {_turns(loop)} values (`{loop.source}`): "
                                f"{actual} for `{loop.bound}={m.group('value')}`, not {stated}", ev,
                                aspect=("returns", "value")))
    return findings
