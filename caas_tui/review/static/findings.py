"""What a static check reports, and how a claim's findings become one ``Verdict``."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from caas_tui.models import Claim, EvidenceSpan, Fix, Verdict, VerdictLabel
from caas_tui.review.static.wording.assertions import asserted_kinds, coverage, unchecked_note
from caas_tui.review.static.wording.effects import action_judged, action_of, effect_words

REVIEWER = "static"
NO_FACTS = "no checkable API facts"


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace ``old`` with ``new`` (as whole tokens) in doc lines ``start..end``."""

    start_line: int
    end_line: int
    old: str
    new: str
    unique: bool = False  # refuse when ``old`` occurs more than once (numbers, literals)


@dataclass(frozen=True, slots=True)
class Finding:
    status: str  # ok | contradicted | incomplete | unchecked (asserted, but no check can decide it)
    check: str  # the fact, e.g. "`Scene.spawn` has parameter `tolerance`"
    rationale: str = ""
    evidence: tuple[EvidenceSpan, ...] = ()
    edit: Edit | None = None
    aspects: tuple[str, ...] = ("names",)  # assertion kinds this check covers (``assertions.KINDS``)


def ok(check: str, *evidence: EvidenceSpan | None, aspect: str | tuple[str, ...] = "names") -> Finding:
    aspects = (aspect,) if isinstance(aspect, str) else aspect
    return Finding("ok", check, "", tuple(e for e in evidence if e is not None), None, aspects)


def bad(
    status: str, check: str, rationale: str, *evidence: EvidenceSpan | None, edit: Edit | None = None,
    aspect: str | tuple[str, ...] = "names",
) -> Finding:
    aspects = (aspect,) if isinstance(aspect, str) else aspect
    return Finding(status, check, rationale, tuple(e for e in evidence if e is not None), edit, aspects)


def _token_pattern(token: str) -> re.Pattern[str]:
    left = r"(?<![\w])" if token[:1].isalnum() or token[:1] == "_" else ""
    right = r"(?![\w])" if token[-1:].isalnum() or token[-1:] == "_" else ""
    return re.compile(left + re.escape(token) + right)


def apply_edits(lines: list[str], first_line: int, edits: Sequence[Edit]) -> list[str] | None:
    """``lines`` (doc lines from ``first_line``) with every edit applied, or None if an
    edit can't be applied exactly (token absent, or ambiguous where it must be unique)."""
    out = list(lines)
    for edit in edits:
        lo, hi = edit.start_line - first_line, edit.end_line - first_line
        if lo < 0 or hi >= len(out) or not edit.old:
            return None
        pattern = _token_pattern(edit.old)
        count = sum(len(pattern.findall(out[i])) for i in range(lo, hi + 1))
        if count == 0 or (edit.unique and count > 1):
            return None
        for i in range(lo, hi + 1):
            out[i] = pattern.sub(_literal(edit.new), out[i])
    return out


def make_fix(claim: Claim, doc_lines: list[str], edits: Sequence[Edit]) -> Fix | None:
    """One fix covering the changed lines of the claim (CR line ends kept out of the text)."""
    if not edits or not doc_lines:
        return None
    start, end = claim.start_line, min(claim.end_line, len(doc_lines))
    original = [line.removesuffix("\r") for line in doc_lines[start - 1 : end]]
    changed = apply_edits(original, start, edits)
    if changed is None or changed == original:
        return None
    lo = 0
    while lo < len(original) and original[lo] == changed[lo]:
        lo += 1
    hi = len(original) - 1
    while hi > lo and original[hi] == changed[hi]:
        hi -= 1
    return Fix(start + lo, start + hi, "\n".join(changed[lo : hi + 1]))


def _dedupe(spans: list[EvidenceSpan]) -> tuple[EvidenceSpan, ...]:
    seen: set[tuple[str, int, int]] = set()
    out: list[EvidenceSpan] = []
    for span in spans:
        key = (span.path, span.start_line, span.end_line)
        if key not in seen:
            seen.add(key)
            out.append(span)
    return tuple(out)


def _literal(text: str) -> Callable[[re.Match[str]], str]:
    """A ``re.sub`` replacement that inserts ``text`` as is (no backslash escapes)."""
    return lambda _m: text


def verdict_for(
    claim: Claim, findings: Sequence[Finding], doc_lines: list[str], asserted: set[str] | None = None
) -> Verdict:
    """contradicted > incomplete > consistent > unverified. ``consistent`` needs every
    checked fact to hold *and* every assertion kind the claim makes to be checked."""
    contradicted = [f for f in findings if f.status == "contradicted"]
    incomplete = [f for f in findings if f.status == "incomplete"]
    # Only facts that held: a failed check's text states the fact it expected ("passes every
    # required parameter"), which the Checked list would otherwise show as passed.
    failed = {f.check for f in findings if f.status != "ok"}
    checks = tuple(dict.fromkeys(f.check for f in findings if f.status == "ok" and f.check not in failed))
    asserted = asserted_kinds(claim) if asserted is None else asserted
    # A kind with an undecidable part (a keyword a ``**kwargs`` takes) is asserted and not covered.
    undecided = {a for f in findings if f.status == "unchecked" for a in f.aspects}
    asserted = asserted | undecided
    covered = {a for f in findings if f.status != "unchecked" for a in f.aspects} - undecided
    # An order, selection, state or condition no check reads (``effects``): asserted, never covered.
    effect = effect_words(claim, asserted | covered)
    asserted = asserted | ({"effect"} if effect else set())
    # What a clause says a named symbol does with a verb no check reads ("stores", "closes").
    action = action_of(claim)
    if action is not None:
        asserted = asserted | {"action"}
        if action_judged(claim, action, covered):
            covered = covered | {"action"}  # a count, default or members check read that very clause
    cover = coverage(asserted, covered)
    if contradicted or incomplete:
        worst = contradicted or incomplete
        label: VerdictLabel = "contradicted" if contradicted else "incomplete"
        rationale = "; ".join(dict.fromkeys(f.rationale for f in worst))
        edits = [f.edit for f in worst if f.edit is not None]
        fix = make_fix(claim, doc_lines, edits) if edits else None
        if fix is None and len(edits) > 1:
            fix = make_fix(claim, doc_lines, edits[:1])
        evidence = _dedupe([e for f in worst for e in f.evidence])
        return Verdict(claim.id, label, REVIEWER, rationale, evidence, fix, checks=checks, coverage=cover)
    if findings:
        evidence = _dedupe([e for f in findings for e in f.evidence])
        unchecked = asserted - covered
        if unchecked:
            why = "; ".join(dict.fromkeys(f.rationale for f in findings if f.status == "unchecked" and f.rationale))
            rationale = unchecked_note(
                covered, unchecked, effect, (action.subject, action.phrase) if action is not None else None
            ) + (f" ({why})" if why else "") \
                + (" (checked: " + "; ".join(checks) + ")" if checks else "")
            return Verdict(claim.id, "unverified", REVIEWER, rationale, evidence, None, checks=checks, coverage=cover)
        rationale = "checked: " + "; ".join(checks)
        return Verdict(claim.id, "consistent", REVIEWER, rationale, evidence, None, checks=checks, coverage=cover)
    return Verdict(claim.id, "unverified", REVIEWER, NO_FACTS, coverage=cover)
