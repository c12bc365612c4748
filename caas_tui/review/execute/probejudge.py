"""The verdict of a probed prose or field claim: each stated call outcome against what the run gave.

A probe that could not answer (a name the doc never binds, a class where an instance is meant, the
sandbox refusing, a value that varies per run) leaves the claim ``unverified`` and says why; an
outcome that differs is ``contradicted`` with the project frames (or the called definitions) as
evidence; a match is ``consistent`` only when the sentence states nothing but those outcomes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from caas_tui.models import Claim, EvidenceSpan, Fix, Verdict
from caas_tui.review.execute.blocks import RunBlock
from caas_tui.review.execute.probes import Probe, is_bare_call
from caas_tui.review.execute.session import BlockOutcome, ProbeGot, RaisedError
from caas_tui.review.execute.stated import Stated, StatedGot, judge, volatile

PROBE_FILE = "<probe>"  # the file name childprobe.py compiles a probe under
CALL_REJECTED = re.compile(r"^([A-Za-z_][\w.]*)\(\) (?:takes|missing|got)")
_PARTLY = "the stated result was checked by running; the rest of the sentence was not"


class ProbeContext(Protocol):
    """What the execute judge knows beyond the run: the environment, the project's code, the doc."""

    @property
    def doc_lines(self) -> Sequence[str]: ...

    def environment(self, err: RaisedError) -> str | None: ...

    def raised_evidence(self, err: RaisedError) -> list[EvidenceSpan]: ...

    def called_evidence(self, claim: Claim, sources: list[str]) -> list[EvidenceSpan]: ...


@dataclass(frozen=True, slots=True)
class ProbeJudged:
    probe: Probe
    status: Literal["match", "mismatch", "inconclusive"]
    got: str  # what the run gave, as the sentence would state it (``gives 1250.00 EUR``, ``raises TypeError``)
    value: str = ""  # a mismatching value as written (for the fix)


_MISSING = re.compile(r"missing \d+ required (?:positional|keyword-only) argument")


def _inconclusive(probe: Probe, err: RaisedError, ctx: ProbeContext) -> str | None:
    env = ctx.environment(err)
    if env:
        return env
    if err.is_a("NameError"):
        return f"it uses a name the doc never binds ({err.text})"
    own = bool(err.frames) and err.frames[-1].file == PROBE_FILE
    if own and err.is_a("TypeError") and is_bare_call(probe.source) and _MISSING.search(err.message):
        return f"`{probe.source}` names the callable here; called with no arguments it is refused ({err.text})"
    if own and err.is_a("TypeError", "AttributeError") and not (
            err.is_a("TypeError") and CALL_REJECTED.match(err.message)):
        # raised by the written expression itself, not by project code: ``Money / 0`` with ``Money`` a class
        return f"the expression as written fails before any project code runs ({err.text})"
    return None


def judge_probe(probe: Probe, got: ProbeGot, ctx: ProbeContext) -> tuple[ProbeJudged, str]:
    """One probe's status, and the reason when it is inconclusive."""
    if got.status in ("timeout", "crashed"):
        return ProbeJudged(probe, "inconclusive", ""), got.note or got.status
    if got.error is not None:
        err = got.error
        why = _inconclusive(probe, err, ctx)
        if why:
            return ProbeJudged(probe, "inconclusive", ""), why
        said = f"raises {err.type}" + (f" ({err.message})" if err.message else "")
        if probe.kind == "raises":
            ok = err.is_a(probe.want)
            return ProbeJudged(probe, "match" if ok else "mismatch", said), ""
        return ProbeJudged(probe, "mismatch", said), ""
    shown = got.value_repr or got.value_str
    if got.varies:
        return ProbeJudged(probe, "inconclusive", ""), f"two runs from the same state gave different values ({shown} ...)"
    if probe.kind == "raises":
        return ProbeJudged(probe, "mismatch", f"does not raise (it returns {shown})"), ""
    if probe.kind == "no-raise":
        return ProbeJudged(probe, "match", "does not raise"), ""
    if probe.kind in ("equal", "distinct"):
        one_key = got.value_str == "True" and got.hash_equal is not False
        # equal values that hash apart are not one key: "the same" holds only when both agree
        ok = one_key if probe.kind == "equal" else not one_key
        said = f"and `{probe.other}` " + ("are equal" + (" and hash alike (one key)" if got.hash_equal else "")
                                          if got.value_str == "True" else "are not equal")
        return ProbeJudged(probe, "match" if ok else "mismatch", said), ""
    return _value(probe, got, shown)


def _value(probe: Probe, got: ProbeGot, shown: str) -> tuple[ProbeJudged, str]:
    judged, why = _stated_value(probe, got, shown)
    if not probe.negated or judged.status == "inconclusive":
        return judged, why
    if judged.status == "match":  # ``is not `True``` and it is True
        return ProbeJudged(probe, "mismatch", judged.got, judged.value), ""
    return ProbeJudged(probe, "match", f"{judged.got}, not {probe.want}"), ""


def _stated_value(probe: Probe, got: ProbeGot, shown: str) -> tuple[ProbeJudged, str]:
    if got.want_type:  # ``returns `Money```: the type of the value, not a value
        ok = bool(got.want_equal)
        return ProbeJudged(probe, "match" if ok else "mismatch", f"gives {shown}" + ("" if ok else
                           f", a {got.value_type}"), "" if ok else got.value_type), ""
    if got.want_error and _is_expression(probe.want):
        # ``is `O(n)```: stated as code that does not run here, so there is nothing to compare with
        return ProbeJudged(probe, "inconclusive", ""), f"the stated value `{probe.want}` does not evaluate ({got.want_error})"
    if got.want_repr is not None and (got.want_equal or got.want_repr == got.value_repr):
        return ProbeJudged(probe, "match", f"gives {shown}"), ""
    if probe.printed:  # ``prints X``: what it wrote, whatever it returns
        stated = Stated(0, 0, "output", probe.want, 0, 1, "", probe.source)
        seen = StatedGot(0, got.printed)
    else:  # ``returns X``: the value, never what it printed on the way
        stated = Stated(0, 0, "value", probe.want, 0, 1, "", probe.source)
        seen = StatedGot(0, "", not got.is_none, got.value_str, got.value_repr, got.is_none)
    if volatile([got.value_str, got.value_repr, probe.want], probe.source):
        return ProbeJudged(probe, "inconclusive", ""), "its value varies from run to run (addresses, times, random)"
    (j,) = judge([stated], [seen])
    if j.status == "skip" and got.is_none and not probe.printed:
        also = f" (it prints {got.printed.strip()!r})" if got.printed.strip() else ""
        return ProbeJudged(probe, "mismatch", f"returns None{also}", "None"), ""
    if j.status == "skip":
        return ProbeJudged(probe, "inconclusive", ""), j.note
    if j.status == "match":
        return ProbeJudged(probe, "match", f"gives {j.got}"), ""
    return ProbeJudged(probe, "mismatch", f"gives {j.got}", j.got), ""


def _is_expression(text: str) -> bool:
    """Stated code that parses as Python (``Money('1')``, ``O(n)``) rather than repr-like text (``12.50 EUR``)."""
    try:
        compile(text.strip(), "<stated>", "eval")
    except (SyntaxError, ValueError):
        return False
    return True


def probe_verdict(reviewer: str, block: RunBlock, outcome: BlockOutcome, ctx: ProbeContext) -> Verdict:
    claim = block.claim
    if outcome.status != "ok" or len(outcome.probes) != len(block.probes):
        note = outcome.note or (outcome.error.text if outcome.error else "no probe results")
        return Verdict(claim.id, "unverified", reviewer, f"unverified: the stated call was not run ({note})")
    judged: list[ProbeJudged] = []
    gots: list[ProbeGot] = []
    reasons: list[str] = []
    resolved = sorted({n for g in outcome.probes for n in g.resolved})
    for probe, got in zip(block.probes, outcome.probes, strict=True):
        j, why = judge_probe(probe, got, ctx)
        judged.append(j)
        gots.append(got)
        if why:
            reasons.append(f"`{probe.source}`: {why}")
    took = f" (with {', '.join(resolved)} from the project)" if resolved else ""
    pairs = [(j, g) for j, g in zip(judged, gots, strict=True) if j.status == "mismatch"]
    wrong = [j for j, _ in pairs]
    if wrong and block.condition:
        # the outcome is stated under a condition; whether the session meets it no run can say
        first = wrong[0]
        return Verdict(claim.id, "unverified", reviewer,
                       f"unverified: ran the stated call: `{first.probe.source}` {first.got}{took}; the doc states "
                       f"its outcome under a condition (“{block.condition}”) the run may not meet",
                       coverage=("runs:unchecked",))
    if wrong:
        first = wrong[0]
        built = f" ({first.probe.origin})" if first.probe.origin else ""
        rationale = (f"ran the call: `{first.probe.source}`{built} {first.got}{took}; "
                     f"the doc says {'they' if first.probe.other else 'it'} {first.probe.stated()}")
        if len(wrong) > 1:
            rationale += f" (and {len(wrong) - 1} more stated outcome{'s' if len(wrong) > 2 else ''} differ)"
        evidence = _evidence(claim, pairs, ctx)
        return Verdict(claim.id, "contradicted", reviewer, rationale, tuple(evidence), fix=_fix(claim, wrong, ctx),
                       coverage=_coverage(wrong))
    matched = [j for j in judged if j.status == "match"]
    if reasons:
        said = f"; {len(matched)} of {len(judged)} stated outcomes matched" if matched else ""
        return Verdict(claim.id, "unverified", reviewer, f"unverified: ran the stated call{took}, but "
                       + "; ".join(reasons) + said, coverage=("runs:unchecked",))
    ran = "; ".join(f"`{j.probe.source}`" + (f" ({j.probe.origin})" if j.probe.origin else "") + f" {j.got}"
                    for j in matched)
    if block.rest:
        return Verdict(claim.id, "unverified", reviewer, f"ran the call: {ran}{took}, as stated; {_PARTLY}",
                       coverage=(*_coverage(matched), "behaviour:unchecked"))
    return Verdict(claim.id, "consistent", reviewer, f"ran the call: {ran}{took}, as stated",
                   coverage=_coverage(matched))


_KIND_OF = {"raises": "raises", "no-raise": "raises", "value": "returns", "equal": "value", "distinct": "value"}


def _coverage(judged: Sequence[ProbeJudged]) -> tuple[str, ...]:
    """What the run checked, in the assertion kinds the verdicts share (``models.Verdict.coverage``)."""
    kinds = dict.fromkeys(["runs", *(_KIND_OF[j.probe.kind] for j in judged)])
    return tuple(f"{k}:checked" for k in kinds)


def _evidence(claim: Claim, wrong: Sequence[tuple[ProbeJudged, ProbeGot]], ctx: ProbeContext) -> list[EvidenceSpan]:
    """The project frames of a raise that was not stated, else the definitions the wrong calls reach."""
    out: list[EvidenceSpan] = []
    for _, got in wrong:
        if got.error is not None:
            out += [e for e in ctx.raised_evidence(got.error) if e not in out]
    return out or ctx.called_evidence(claim, [j.probe.source for j, _ in wrong])


def _fix(claim: Claim, wrong: Sequence[ProbeJudged], ctx: ProbeContext) -> Fix | None:
    """The stated value replaced by what the run gave, when each wrong value is written once on the
    claim's lines (an outcome of another kind, a raise or an equality, needs a rewrite a reader makes)."""
    lines = list(ctx.doc_lines[claim.start_line - 1 : claim.end_line])
    if not lines or any(j.probe.kind != "value" or j.probe.negated or not j.value for j in wrong):
        return None
    text = "\n".join(lines)
    for j in wrong:
        if text.count(j.probe.want) != 1:
            return None
        text = text.replace(j.probe.want, j.value)
    return Fix(claim.start_line, claim.end_line, text)
