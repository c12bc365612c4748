"""A review run as CI sees it: every claim's verdict, whether it is suppressed, which
findings fail the run, and a stable rule per kind of check.

Front ends (text, JSON, GitHub, SARIF, JUnit) only render a :class:`Report`; the
policy (what counts as a finding, what a suppression is, the exit code) lives here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from caas_tui.models import Claim, FailOn, Verdict
from caas_tui.review.claims.suppress import suppressions
from caas_tui.review.decisions.baseline import Baseline, BaselineEntry, entry_for
from caas_tui.review.runner import DocReview

FINDINGS: tuple[str, ...] = ("contradicted", "incomplete")  # most severe first
_SEVERITY = {"contradicted": 2, "incomplete": 1}

# The kind of fact a verdict is about, read from the wording the reviewers use for
# their checks (``static/findings``: "`X` has parameter `p`", "`X` returns list"...).
_CHECK_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("default", re.compile(r"\bdefaults?\b|\bhas no default\b|\bis required\b")),
    ("parameter", re.compile(r"\bparameters?\b")),
    ("call", re.compile(r"\bpositional arguments?\b|\bcall to\b|\bpasses\b")),
    ("return", re.compile(r"\breturns?\b")),
    ("raises", re.compile(r"\braises?\b")),
    ("existence", re.compile(r"\bexists?\b|\bdoes not exist\b|\bdid you mean\b")),
    ("value", re.compile(r"'[^']*'|\bwrites\b")),
)
RULE_KINDS: tuple[str, ...] = (*(k for k, _ in _CHECK_KINDS), "code", "field", "prose")
RULE_HELP = {
    "default": "a documented default value differs from the code",
    "parameter": "a documented parameter is missing from, or differs in, the signature",
    "call": "a documented call does not fit the signature",
    "return": "a documented return type differs from the code",
    "raises": "a documented exception is not raised by the code",
    "existence": "a documented name does not exist in the code",
    "value": "a documented value or behaviour differs from the code",
    "code": "a code example does not fit the code",
    "field": "a docstring field entry does not fit the code",
    "prose": "a statement in the docs does not fit the code",
}


def check_kind(claim: Claim, verdict: Verdict) -> str:
    """A short, stable name for what kind of fact ``verdict`` judged (one of :data:`RULE_KINDS`)."""
    for text in (verdict.rationale, *verdict.checks):
        for kind, pattern in _CHECK_KINDS:
            if pattern.search(text):
                return kind
    return claim.kind if claim.kind in ("code", "field") else "prose"


def rule_id(claim: Claim, verdict: Verdict) -> str:
    """``caas/<verdict>/<check kind>``, e.g. ``caas/contradicted/parameter``."""
    return f"caas/{verdict.verdict}/{check_kind(claim, verdict)}"


@dataclass(frozen=True, slots=True)
class Outcome:
    claim: Claim
    verdict: Verdict
    suppressed: str | None = None  # why the finding does not count: an inline marker or the baseline
    suppressed_by: str | None = None  # "inline" | "baseline"

    @property
    def is_finding(self) -> bool:
        return self.verdict.verdict in _SEVERITY


@dataclass(frozen=True, slots=True)
class DocOutcome:
    doc_path: str
    reviewer: str
    outcomes: tuple[Outcome, ...]

    def count(self, label: str) -> int:
        return sum(1 for o in self.outcomes if o.verdict.verdict == label)


def fails(outcome: Outcome, fail_on: FailOn) -> bool:
    """Does this outcome fail a run with ``--fail-on fail_on``? Suppressed ones never do."""
    level = _SEVERITY.get(outcome.verdict.verdict, 0)
    return outcome.suppressed is None and level > 0 and level >= _SEVERITY[fail_on]


@dataclass(frozen=True, slots=True)
class Report:
    docs: tuple[DocOutcome, ...]
    fail_on: FailOn = "contradicted"

    def all(self) -> list[tuple[DocOutcome, Outcome]]:
        return [(d, o) for d in self.docs for o in d.outcomes]

    def findings(self) -> list[tuple[DocOutcome, Outcome]]:
        """Contradicted and incomplete claims, suppressed or not, in doc order."""
        return [(d, o) for d, o in self.all() if o.is_finding]

    def failing(self) -> list[tuple[DocOutcome, Outcome]]:
        return [(d, o) for d, o in self.all() if fails(o, self.fail_on)]

    def count(self, label: str, *, suppressed: bool | None = None) -> int:
        return sum(
            1 for _d, o in self.all()
            if o.verdict.verdict == label and (suppressed is None or (o.suppressed is not None) == suppressed)
        )

    @property
    def suppressed(self) -> int:
        return sum(1 for _d, o in self.findings() if o.suppressed is not None)

    @property
    def exit_code(self) -> int:
        """0 clean, 1 when an unsuppressed finding is at or above ``fail_on`` (2 is for errors)."""
        return 1 if self.failing() else 0

    def baseline_entries(self) -> list[BaselineEntry]:
        """Every finding of the run not silenced inline, to accept as the new baseline."""
        return [entry_for(o.claim, o.verdict) for _d, o in self.findings() if o.suppressed_by != "inline"]

    def summary(self) -> str:
        files = len(self.docs)
        line = (f"{self.count('contradicted', suppressed=False)} contradicted, "
                f"{self.count('incomplete', suppressed=False)} incomplete in {files} file{'s' if files != 1 else ''}")
        return line + (f" ({self.suppressed} suppressed)" if self.suppressed else "")


def doc_outcome(
    result: DocReview,
    text: str,
    *,
    baseline: Baseline | None = None,
    keep: Callable[[Claim, Verdict], bool] | None = None,
) -> DocOutcome:
    """``result`` with inline markers (from the doc's ``text``) and the baseline applied;
    ``keep`` narrows the claims reported (``--changed-since``)."""
    inline = suppressions(result.doc_path, text, result.claims)
    outcomes: list[Outcome] = []
    for claim, verdict in result.pairs():
        if keep is not None and not keep(claim, verdict):
            continue
        if claim.id in inline:
            outcomes.append(Outcome(claim, verdict, inline[claim.id], "inline"))
        elif baseline is not None and verdict.verdict in _SEVERITY and baseline.accepts(claim, verdict):
            outcomes.append(Outcome(claim, verdict, "accepted in the baseline", "baseline"))
        else:
            outcomes.append(Outcome(claim, verdict))
    return DocOutcome(result.doc_path, result.reviewer, tuple(outcomes))


def make_report(docs: Iterable[DocOutcome], fail_on: FailOn = "contradicted") -> Report:
    return Report(tuple(docs), fail_on)


__all__ = [
    "FINDINGS", "RULE_HELP", "RULE_KINDS", "DocOutcome", "Outcome", "Report", "check_kind", "doc_outcome", "fails",
    "make_report", "rule_id",
]
