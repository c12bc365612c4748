"""Two reviewers judged one claim: which verdict decides.

Evidence ranks: a real run that raised or gave something else beats a static guess; any
definite verdict beats ``unverified``; between equals the first reviewer listed wins.

A run that matched (execute ``consistent``) against a static ``contradicted``/``incomplete`` on
the same claim: the run is real evidence, but only for what it checked. It decides when every
kind the static reviewer checked (its ``kind:checked`` coverage) is one the run decides: names,
parameters and arity (the call ran as written), plus what a probe's coverage says it ran (the
stated result, ``returns`` / ``raises``); otherwise the static flag stands, since the run never
looked at what it is about (a default, an order, a side effect).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from caas_tui.models import Claim, Verdict
from caas_tui.review.runner import DocReview

_RUN = "execute"
_RUN_DECIDES = frozenset({"names", "parameters", "arity", "runs"})  # a call that ran as written settles these
_FLAGS = ("contradicted", "incomplete")


def _strength(v: Verdict) -> int:
    if v.verdict == "unverified":
        return 0
    if v.reviewer == _RUN and v.verdict == "contradicted":
        return 3  # observed, not inferred
    if v.verdict in _FLAGS or (v.reviewer == _RUN and v.verdict == "consistent"):
        return 2
    return 1


def _checked(v: Verdict) -> set[str]:
    return {c.removesuffix(":checked") for c in v.coverage if c.endswith(":checked")}


def _outranks(v: Verdict, best: Verdict) -> bool:
    """Whether ``v`` decides over ``best``, the verdict so far."""
    sv, sb = _strength(v), _strength(best)
    if sv != sb:
        return sv > sb
    run, flag = (v, best) if v.reviewer == _RUN and v.verdict == "consistent" else (best, v)
    if run.reviewer == _RUN and run.verdict == "consistent" and flag.verdict in _FLAGS:
        settled = bool(_checked(flag)) and _checked(flag) <= _RUN_DECIDES | _checked(run)
        return (v is run) == settled
    return False


def deciding_verdict(verdicts: Sequence[Verdict]) -> Verdict:
    """The verdict that decides among several for one claim (``verdicts`` non-empty)."""
    if not verdicts:
        raise ValueError("deciding_verdict needs at least one verdict")
    best = verdicts[0]
    for v in verdicts[1:]:
        if _outranks(v, best):
            best = v
    return best


def merge_reviews(*reviews: DocReview) -> tuple[DocReview, dict[str, tuple[Verdict, ...]]]:
    """One review of a doc by several reviewers -> the deciding verdicts, and every verdict per claim id."""
    first = reviews[0]
    every: dict[str, tuple[Verdict, ...]] = {}
    for r in reviews:
        for c, v in r.pairs():
            every[c.id] = (*every.get(c.id, ()), v)
    deciding = tuple(deciding_verdict(every[c.id]) for c in first.claims)
    name = "+".join(r.reviewer for r in reviews)
    return dataclasses.replace(first, reviewer=name, verdicts=deciding), every


def verdict_json(v: Verdict) -> dict[str, object]:
    return {"reviewer": v.reviewer, "verdict": v.verdict, "rationale": v.rationale,
            "evidence": [e.to_json() for e in v.evidence], "fix": v.fix.to_json() if v.fix else None}


def prevailing_pairs(review: DocReview, *others: DocReview) -> list[tuple[Claim, Verdict]]:
    """The claims of ``review`` whose verdict no other review outranks (ties go to ``review``).

    The app shows a claim's most recently stored verdict, so a front end storing a second
    reviewer's verdicts stores only these: a static ``contradicted`` is not hidden behind a
    later ``ran without error``, while a real traceback replaces a static guess.
    """
    theirs: dict[str, list[Verdict]] = {}
    for other in others:
        for c, v in other.pairs():
            theirs.setdefault(c.id, []).append(v)
    return [(c, v) for c, v in review.pairs() if deciding_verdict([v, *theirs.get(c.id, ())]) is v]


def execute_pairs_to_store(executed: DocReview, static: DocReview) -> list[tuple[Claim, Verdict]]:
    """The execute verdicts a front end stores beside ``static``'s: code blocks whose run outranks
    the static verdict, and prose or field claims whose stated call was run and decided (a probe's
    ``unverified`` never replaces the static reviewer's account of what it checked) (the CLI's
    ``--execute`` and the app's run-code key agree)."""
    return [(c, v) for c, v in prevailing_pairs(executed, static)
            if c.kind == "code" or v.verdict != "unverified"]
