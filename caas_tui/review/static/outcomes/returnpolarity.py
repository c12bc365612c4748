"""A result a doc ties to a condition ("returns ``False`` if `key` is not registered",
"``None`` when `name` is empty, ``True`` otherwise") against the function's return cases
(``codefacts.returnpaths``) and the guards on the way to each.

- contradicts: a return of another literal is reached on a path whose every test was read
  and which implies the condition ("returns ``True`` when `key` is registered") -- or omits,
  when that path also tests something the condition does not name; or every
  case that could hand back the stated value lies where the condition cannot hold; or no
  case hands it back at all;
- agrees: a case with the stated value is reachable under the condition and every other
  case lies where it cannot hold;
- unknown: anything else. A condition that states something definite of a parameter no
  guard tests is unknown, never agreed with: a shared word is not a checked sense.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Literal as Lit

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import FieldFact
from caas_tui.review.static.codefacts.guardatoms import Path, complete
from caas_tui.review.static.codefacts.returnpaths import ReturnCase, return_cases
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import same_value
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.outcomes.raisepolarity import condition_words_read, guard_text, on_path
from caas_tui.review.static.referents.subjects import subject_of
from caas_tui.review.static.wording.condatoms import Stated, negation, stated_alternatives
from caas_tui.review.static.wording.condreturns import StatedCase, stated_cases
from caas_tui.review.static.wording.voice import verb_start

Status = Lit["agrees", "contradicts", "omits", "unknown"]


@dataclass(frozen=True, slots=True)
class ReturnPolarity:
    status: Status
    why: str = ""  # for a contradiction: what the code does instead, with the guard
    line: int = 0  # the return it cites
    read: tuple[Stated, ...] = ()  # the literals read from the condition (agrees)


def _same(a: object, b: object) -> bool:
    if isinstance(a, (list, dict, tuple, bytes)) or isinstance(b, (list, dict, tuple, bytes)):
        return type(a) is type(b) and a == b
    return same_value(a, b)


def _shown(value: object) -> str:
    return f"`{value!r}`" if not isinstance(value, str) else f'`"{value}"`'


def _path_text(path: Path) -> str:
    said = [guard_text(g) for g in path if g.subject]
    return " and ".join(dict.fromkeys(said)) or "nothing is tested"


def return_polarity(ctx: ReviewContext, fn: Def, case: StatedCase) -> ReturnPolarity | None:
    """How the stated case meets ``fn``'s return cases; None when the condition states no
    literal this reads, or the function's results are not all seen."""
    node = fn.node
    sig = ctx.signature(fn)
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or sig is None:
        return None
    params = frozenset(p.name for p in sig.params if p.name not in ("self", "cls"))
    cases = return_cases(node, params)
    if not cases:
        return None
    tested = {g.subject for c in cases for p in c.paths for g in p if g.subject}
    states = frozenset(s for s in tested if s.startswith("state:"))
    alternatives = stated_alternatives(case.condition, params | {s for s in tested if "." in s}, states)
    if case.otherwise:
        alternatives = negation(alternatives)
    if not alternatives:
        return None
    if not {s.subject for conj in alternatives for s in conj} & tested:
        return ReturnPolarity("unknown")
    value = _shown(case.value)
    giving = [c for c in cases if not c.known or _same(c.value, case.value)]
    others = [c for c in cases if c.known and not _same(c.value, case.value)]
    for conj in alternatives:
        said = " and ".join(s.text for s in conj) if len(alternatives) > 1 \
            else f"not ({case.condition})" if case.otherwise else case.condition
        for c in others:
            for p in c.paths:
                if complete(p) and on_path(conj, p)[0] == "implies":
                    named = {s.subject for s in conj}
                    extra = [g for g in p if g.subject not in named]
                    status: Status = "omits" if extra else "contradicts"
                    return ReturnPolarity(status, f"returns {_shown(c.value)} when {_path_text(p)} "
                                          f"(line {c.line}: `{c.source}`), which is when {said}"
                                          + (f": the result also depends on {_path_text(tuple(extra))}" if extra else ""),
                                          c.line)
        if giving and all(c.known for c in giving) and all(on_path(conj, p)[0] == "rules-out"
                                                            for c in giving for p in c.paths):
            first = giving[0]
            return ReturnPolarity("contradicts", f"returns {value} only when {_path_text(first.paths[0])} "
                                  f"(line {first.line}: `{first.source}`), never when {said}", first.line)
    if not giving:
        shown = ", ".join(dict.fromkeys(_shown(c.value) for c in others))
        return ReturnPolarity("contradicts", f"never returns {value}: its results are {shown}", others[0].line)
    if all(_agrees(conj, case, cases) for conj in alternatives):
        return ReturnPolarity("agrees", read=tuple(s for conj in alternatives for s in conj))
    return ReturnPolarity("unknown")


def _agrees(conj: list[Stated], case: StatedCase, cases: list[ReturnCase]) -> bool:
    hits = [c for c in cases if c.known and _same(c.value, case.value)]
    rest = [c for c in cases if c not in hits]
    reachable = any(on_path(conj, p)[0] == "implies" for c in hits for p in c.paths)
    return reachable and all(on_path(conj, p)[0] == "rules-out" for c in rest for p in c.paths)


@dataclass(frozen=True, slots=True)
class CaseFindings:
    findings: tuple[Finding, ...]
    unread: bool  # some stated case's condition was not checked: a type check alone covers no result


def check_cases(ctx: ReviewContext, claim: Claim, fact: FieldFact | None, subject: Def | None) -> CaseFindings:
    """Every literal result the claim ties to a condition, judged against the return cases of
    the function it is about."""
    if fact is not None and fact.role != "returns":
        return CaseFindings((), False)
    text = "returns " + fact.desc if fact is not None else claim.text
    findings: list[Finding] = []
    unread = False
    for case in stated_cases(text):
        fn = subject if fact is not None else subject_of(ctx, claim, verb_start(text, case.start))
        if fn is None or fn.kind != "function":
            continue
        polarity = return_polarity(ctx, fn, case)
        label = fn.label
        when = f"otherwise (not: {case.condition})" if case.otherwise else f"when {case.condition}"
        check = f"`{label}` returns {_shown(case.value)} {when}"
        if polarity is not None and polarity.status in ("contradicts", "omits"):
            status = "contradicted" if polarity.status == "contradicts" else "incomplete"
            findings.append(bad(status, check, f"`{label}` {polarity.why}", ctx.evidence(fn), aspect="returns"))
        elif polarity is not None and polarity.status == "agrees":
            # "if the queue is closed": the state it names was read from the guards, too
            read = condition_words_read(claim, polarity.read, "returns")
            findings.append(ok(check, ctx.evidence(fn), aspect=("returns", "effect") if read else "returns"))
        else:
            unread = True
    return CaseFindings(tuple(findings), unread)
