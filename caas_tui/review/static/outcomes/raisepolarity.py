"""The polarity of a stated raise condition against the guards of the raises it is about.

"Raises ``ValueError`` if the code is already registered and `replace` is false" is only
checked when the function's own ``raise ValueError`` sits under guards that say the same of
``code`` and ``replace`` (``if code in REGISTRY and not replace``). Word overlap alone finds
the guard but not its sense: "`replace` is true", "the code is not registered" read the same
words. Here each stated literal is compared with the guard literals on the same subject
(``wording.condatoms`` against ``codefacts.guardatoms``):

- contradicts: some alternative the doc promises is ruled out on every path to every raise
  of that class (and no code the function calls raises it, so no other path can);
- agrees: each alternative holds on some path, every literal it states implied there;
- unknown: anything else (a path that does not test the subject, a form not read).
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass
from typing import Literal as Lit

from caas_tui.models import Claim
from caas_tui.review.static.codefacts.guardatoms import Literal, Path, raise_paths
from caas_tui.review.static.codefacts.raisecheck import Reach, is_subclass
from caas_tui.review.static.codefacts.raiseguards import guarded_raises
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.wording.condatoms import Stated, stated_alternatives
from caas_tui.review.static.wording.effects import effect_words

Status = Lit["agrees", "contradicts", "unknown"]


@dataclass(frozen=True, slots=True)
class Polarity:
    status: Status
    stated: Stated | None = None  # the literal ruled out (contradicts)
    guard: Literal | None = None  # a guard literal that rules it out
    line: int = 0  # the raise
    read: tuple[Stated, ...] = ()  # every literal read from the condition (agrees)


def _interval_rel(s: Stated, g: Literal) -> str | None:
    """'disjoint', 'inside' (the stated interval within the guard's) or None."""
    lo = max(s.low, g.low)
    hi = min(s.high, g.high)
    lo_open = (s.low_open if s.low > g.low else g.low_open if g.low > s.low else s.low_open or g.low_open)
    hi_open = (s.high_open if s.high < g.high else g.high_open if g.high < s.high else s.high_open or g.high_open)
    if lo > hi or (lo == hi and (lo_open or hi_open)):
        return "disjoint"
    low_in = s.low > g.low or (s.low == g.low and (g.low_open <= s.low_open or math.isinf(s.low)))
    high_in = s.high < g.high or (s.high == g.high and (g.high_open <= s.high_open or math.isinf(s.high)))
    return "inside" if low_in and high_in else None


def _relation(s: Stated, g: Literal) -> str | None:
    if (s.meaning == "cmp") != (g.form == "cmp"):
        # "`n` is negative" against ``if not n``: a truth test says nothing of the sign, and back
        return None
    if s.meaning == "cmp":
        rel = _interval_rel(s, g)
        return "rules-out" if rel == "disjoint" else "implies" if rel == "inside" else None
    if g.form in s.rules_out:
        return "rules-out"
    return "implies" if g.form in s.agrees_with else None


def on_path(conj: list[Stated], path: Path) -> tuple[str, Stated | None, Literal | None]:
    implied = 0
    for s in conj:
        rels = [(_relation(s, g), g) for g in path if g.subject == s.subject]
        out = next((g for r, g in rels if r == "rules-out"), None)
        if out is not None:
            return "rules-out", s, out
        implied += any(r == "implies" for r, _ in rels)
    return ("implies" if implied == len(conj) else "open"), None, None


def raise_polarity(ctx: ReviewContext, fn: Def, exc: Def, condition: str, reached: Reach) -> Polarity | None:
    """How the stated condition's literals meet the guards of ``fn``'s own raises of ``exc``;
    None when the condition states no literal this reads, or the raises cannot all be seen."""
    node = fn.node
    sig = ctx.signature(fn)
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or sig is None:
        return None
    params = frozenset(p.name for p in sig.params if p.name not in ("self", "cls"))
    names = {exc.short} | {d.short for d in ctx.subclasses(exc)}
    paths = raise_paths(node, names, params)
    if not paths:
        return None
    # An early exit before a raise (``if not replace: return``) also rules a literal out; it
    # says nothing of what suffices for the raise, so agreement reads the enclosing guards only.
    full = raise_paths(node, names, params, siblings=True)
    tested = {g.subject for _, ps in full for p in ps for g in p if g.subject}
    states = frozenset(s for s in tested if s.startswith("state:"))
    alternatives = stated_alternatives(condition, params | {s for s in tested if "." in s}, states)
    if not alternatives:
        return None

    def sole() -> bool:
        """Every raise of the class in reach is one of these: a callee's raise is another path."""
        guarded = guarded_raises(ctx, fn) if not reached.opaque else None
        return guarded is not None and all(r.fn.node is node for r in guarded if is_subclass(ctx, r.exc, exc))

    stated = {s.subject for conj in alternatives for s in conj}
    if not stated & tested:
        # The condition says something definite of a subject no guard tests in a form read
        # here (a loop's ``else``, a helper's result): its sense was not checked.
        return Polarity("unknown")
    every = [(line, p) for line, ps in paths for p in ps]
    every_full = [(line, p) for line, ps in full for p in ps]
    all_implied = True
    for conj in alternatives:
        results = [(on_path(conj, p), line) for line, p in every_full]
        if all(r[0] == "rules-out" for r, _ in results) and sole():
            (_, s, g), line = results[0]
            return Polarity("contradicts", s, g, line)
        all_implied &= any(on_path(conj, p)[0] == "implies" for _, p in every)
    return Polarity("agrees", read=tuple(s for conj in alternatives for s in conj)) if all_implied \
        else Polarity("unknown")


def condition_words_read(claim: Claim, read: tuple[Stated, ...], owner: str = "raises") -> bool:
    """Every order/state/condition word of the claim (``wording.effects``) lies in a literal
    the guards were found to agree with: the state the claim states was checked."""
    words = effect_words(claim, frozenset({owner}))
    said = {w.lower() for s in read for w in re.findall(r"[A-Za-z][A-Za-z-]*[A-Za-z]", s.text)}
    return bool(words) and set(words) <= said


_FORM_WORDS = {"truthy": "is true (or non-empty)", "falsy": "is false (or empty)", "none": "is `None`",
               "notnone": "is not `None`", "in": "is in the container", "notin": "is not in the container"}


def guard_text(g: Literal) -> str:
    """What a guard literal requires, in words (``ttl`` ``> 0``, ``replace`` is false)."""
    if g.subject.startswith("state:"):
        word = g.subject.removeprefix("state:").replace("_", " ")
        return f"it is {'' if g.form == 'truthy' else 'not '}{word}"
    subject = f"`{g.subject}`"
    if g.form != "cmp":
        return f"{subject} {_FORM_WORDS[g.form]}"
    if g.low == g.high:
        return f"{subject} == {g.low:g}"
    parts = []
    if not math.isinf(g.low):
        parts.append(f"{'>' if g.low_open else '>='} {g.low:g}")
    if not math.isinf(g.high):
        parts.append(f"{'<' if g.high_open else '<='} {g.high:g}")
    return f"{subject} " + " and ".join(parts)
