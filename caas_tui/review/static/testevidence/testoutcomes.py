"""A claim's stated outcome for a project callable against what the project's tests show that
callable doing on an input that meets the claim's condition.

A test is tied to the condition when
- the claim is universal ("every problem as E", "never raises"): every test of the callable;
- the test's input certainly meets it: a path under ``tmp_path`` the test never creates (a
  missing file), a second call on the same object ("again", "already closed"), the very call the claim writes out (same literal arguments), a literal that repeats a key (a duplicate), a negative / zero / empty / None
  literal for the parameter the condition names;
- or the test's name or docstring states it (test names are sentences:
  ``test_unknown_key_raises_key_error``) and the test makes that one call.
A test that only passes the callable's required arguments (or keywords the claim names) can
contradict: one that switches an option the claim does not mention speaks of another case.
A test of the callable that no tie reaches is named in the rationale ("not compared") when the
verdict stays ``unverified``.
"""

from __future__ import annotations

import re

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import FieldFact
from caas_tui.review.static.codefacts.raisecheck import is_subclass
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import same_value
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.testevidence.statedoutcomes import Stated, concepts, stated_outcomes
from caas_tui.review.static.testevidence.testfacts import literal_args
from caas_tui.review.static.testevidence.testinputs import kept_duplicate, repeats_a_key
from caas_tui.review.static.testevidence.testruns import TestRun, test_runs
from caas_tui.review.static.wording.assertions import asserted_kinds

_ADJ = r"(negative|zero|empty|blank|none|`none`)"
_KEPT_WORDS = re.compile(r"\b(first|last)\s+(?:one\s+|value\s+|entry\s+)?(?:wins|is\s+kept|kept)\b|"
                         r"\bkeeps?\s+(?:the\s+)?(first|last)\b")


def _label(fn: Def) -> str:
    parts = fn.qualname.split(".")
    return ".".join(parts[-2:]) if fn.owner is not None else parts[-1]


def _satisfies(adj: str, value: object) -> bool:
    adj = adj.strip("`").lower()
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if adj == "negative":
        return number and value < 0  # type: ignore[operator]
    if adj == "zero":
        return number and value == 0
    if adj in ("empty", "blank"):
        return isinstance(value, (str, bytes, list, tuple, dict, set)) and len(value) == 0
    return adj == "none" and value is None


def _params(ctx: ReviewContext, fn: Def) -> list[str]:
    sig = ctx.signature(fn)
    if sig is None:
        return []
    names = [p.name for p in sig.params if p.kind not in ("var", "varkw", "kwonly")]
    return names[1:] if fn.owner is not None and names and names[0] in ("self", "cls") else names


def _required(ctx: ReviewContext, fn: Def) -> int:
    sig = ctx.signature(fn)
    if sig is None:
        return 0
    req = [p for p in sig.params if p.kind in ("posonly", "pos") and p.required]
    return len(req) - (1 if fn.owner is not None and req and req[0].name in ("self", "cls") else 0)


def adjective_conditions(ctx: ReviewContext, fn: Def, condition: str) -> list[tuple[str, str]]:
    """(parameter key, adjective): "`n` is negative", "an empty `items`", "for an empty name"."""
    out = []
    for i, name in enumerate(_params(ctx, fn)):
        p = re.escape(name)
        m = re.search(rf"`?\b{p}\b`?\s+(?:is|are|was)\s+{_ADJ}\b", condition, re.IGNORECASE) or re.search(
            rf"\b(?:an?\s+)?{_ADJ}\s+``?{p}\b``?", condition, re.IGNORECASE)
        if m:
            out.append((str(i), m.group(1)))
    return out


def _tie(ctx: ReviewContext, st: Stated, run: TestRun) -> str | None:
    """How the test's input is tied to the stated condition: "universal", "call", "input", "name", or None."""
    if st.universal:
        return "universal"
    if st.calls and literal_args(run.call) in st.calls:
        return "call"  # the very call the claim writes out
    wanted = concepts(st.condition)
    if not wanted:
        return None
    adjs = adjective_conditions(ctx, st.fn, st.condition)
    if adjs and all(run.arg_values(k) and all(_satisfies(a, v) for v in run.arg_values(k)) for k, a in adjs):
        return "input"
    if "missing-path" in wanted and run.missing_paths:
        return "input"
    if "duplicate" in wanted and any(vals and all(repeats_a_key(v) for v in vals) for _, vals in run.values):
        return "input"
    if "again" in wanted and wanted <= {"again", "duplicate"} and run.ordinal >= 2:
        return "input"  # a second call on the same object
    if run.calls_in_test == 1 and wanted <= concepts(run.words):
        return "name"
    return None


def _plain(ctx: ReviewContext, claim: Claim, st: Stated, run: TestRun) -> bool:
    """The test passes what the claim speaks of: no optional arguments beyond the required ones
    unless the claim names them."""
    extra_kw = [k.arg for k in run.call.keywords if k.arg and not re.search(rf"\b{re.escape(k.arg)}\b", claim.text)]
    return not extra_kw and len(run.call.args) <= max(_required(ctx, st.fn), 1)


def _result(run: TestRun) -> str:
    if run.has_value:
        return f"expects {run.expected!r}"
    return "expects it to return" + (" a true result" if run.truth else " a false result" if run.truth is False
                                     else " normally")


def _compare(ctx: ReviewContext, st: Stated, run: TestRun) -> tuple[str, str] | None:
    """("ok" | "contradicted", what the test shows), or None when the test does not decide."""
    raised = f"expects it to raise `{run.exc_name}`"
    if st.kind == "raises":
        if run.outcome == "returns":
            return None if st.universal else ("contradicted", _result(run))
        if st.exc is None:
            return "ok", raised
        if run.exc is None:
            return None
        if is_subclass(ctx, run.exc, st.exc):
            return None if st.universal else ("ok", raised)
        if is_subclass(ctx, st.exc, run.exc):
            return None  # the test expects a base class: it does not say which
        return "contradicted", raised
    if st.kind == "no-raise":
        if run.outcome == "raises":
            return "contradicted", raised
        return None if st.universal else ("ok", _result(run))
    if run.outcome == "raises":
        return "contradicted", raised
    if st.kind == "keeps":
        kept = next((k for _, vals in run.values for v in vals if (k := kept_duplicate(v, run.expected))), None)
        words = _KEPT_WORDS.search(run.words)
        kept = kept or (words and (words.group(1) or words.group(2)))
        if not kept:
            return None
        return ("ok" if kept == st.value else "contradicted"), f"shows it keeping the {kept} one"
    if not run.has_value:
        if run.truth is True and st.kind in ("returns-none", "returns-empty"):
            return "contradicted", _result(run)
        return None
    value = run.expected
    if st.kind == "returns-none":
        held = value is None
    elif st.kind == "returns-empty":
        held = isinstance(value, (str, bytes, list, tuple, dict, set)) and len(value) == 0
    else:
        held = same_value(value, st.value)
    return ("ok" if held else "contradicted"), _result(run)


def check_test_outcomes(ctx: ReviewContext, claim: Claim, fact: FieldFact | None, subject: Def | None) -> list[Finding]:
    findings: list[Finding] = []
    for st in stated_outcomes(ctx, claim, fact, subject):
        runs = test_runs(ctx, st.fn)
        if not runs:
            continue
        aspect = "raises" if st.kind in ("raises", "no-raise") else "effect" if st.kind == "keeps" else "returns"
        check = f"`{_label(st.fn)}` {st.written} (project tests)"
        decided = False
        for run in runs:
            tie = _tie(ctx, st, run)
            verdict = _compare(ctx, st, run) if tie is not None else None
            if verdict is None:
                continue
            status, shown = verdict
            tied = {"universal": "", "call": " (the call the claim writes out)",
                    "input": " on an input that meets the stated condition",
                    "name": " in a test whose name states the condition"}[tie or ""]
            ev = (run.evidence, ctx.evidence(st.fn))
            if status == "ok":
                findings.append(ok(f"{check}: {run.test} at {run.where}", *ev, aspect=aspect))
            elif _plain(ctx, claim, st, run):
                findings.append(bad("contradicted", check, f"the project test `{run.test}` ({run.where}) calls "
                                    f"`{run.shown()}`{tied} and {shown}, not what the claim states ({st.written})",
                                    *ev, aspect=aspect))
            decided = True
        if not decided and asserted_kinds(claim):
            words = set(re.findall(r"[a-z]{3,}", st.condition.lower()))
            first = max(runs, key=lambda r: len(words & set(r.words.split())))
            findings.append(Finding("unchecked", check, f"a project test exercises `{_label(st.fn)}`: `{first.test}` "
                                    f"({first.where}); its input is not tied to the stated condition, not compared",
                                    (first.evidence,), None, ()))
    return findings
