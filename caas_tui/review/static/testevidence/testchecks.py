"""Claims judged against the project's tests (cross-system evidence): a stated result of a
literal call (prose or doctest) against a test asserting that same call, and an unconditioned
"returns None" against a test expecting a raise the code can make and no way to return None.
Stated outcomes under a condition ("raises X when ...", "returns None for ...") are
``testoutcomes``' work.

Only the same function called with the same (literal) arguments counts; anything less leaves
the claim alone."""

from __future__ import annotations

import ast
import re
import warnings

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import FieldFact
from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.codefacts.raisecheck import is_subclass, reach, stated_exception
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.flow import explicit_none_return, falls_through
from caas_tui.review.static.model.pysig import same_value
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import subject_before
from caas_tui.review.static.testevidence.testfacts import TestCall, literal_args, test_calls
from caas_tui.review.static.testevidence.testoutcomes import adjective_conditions, check_test_outcomes
from caas_tui.review.static.wording.facts import parse_value, stated_returns

_RESULT = re.compile(r"`(?P<call>[^`]+\([^`]*\))`\s*(?:returns|gives(?: back)?|evaluates to|is|==|->|→)\s+`(?P<value>[^`]+)`")
_ADJ = r"(negative|zero|empty|none|`none`)"


def _label(fn: Def) -> str:
    parts = fn.qualname.split(".")
    return ".".join(parts[-2:]) if fn.owner is not None else parts[-1]


def _show(call: TestCall) -> str:
    return ast.unparse(call.call)


def _parse_call(text: str) -> ast.Call | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None
    return node if isinstance(node, ast.Call) else None


def _callee(ctx: ReviewContext, claim: Claim, call: ast.Call) -> Def | None:
    name = dotted(call.func)
    if not name:
        return None
    res = ctx.resolve(name, claim)
    t = res.target if res.found and not res.ambiguous else None
    return t if t is not None and t.kind == "function" and t.is_project else None


def stated_results(ctx: ReviewContext, claim: Claim) -> list[tuple[Def, ast.Call, object, str]]:
    """(function, call, stated value, value as written) from prose or a doctest."""
    out: list[tuple[Def, ast.Call, object, str]] = []
    if claim.kind == "code":
        lines = claim.text.splitlines()
        for i, line in enumerate(lines[:-1]):
            src, nxt = line.strip(), lines[i + 1].strip()
            if src.startswith(">>> ") and nxt and not nxt.startswith((">>>", "...")):
                call = _parse_call(src[4:])
                value, literal = parse_value(nxt)
                if call is not None and literal:
                    fn = _callee(ctx, claim, call)
                    if fn is not None:
                        out.append((fn, call, value, nxt))
        return out
    for m in _RESULT.finditer(claim.text):
        call = _parse_call(m.group("call"))
        value, literal = parse_value(m.group("value"))
        if call is not None and literal:
            fn = _callee(ctx, claim, call)
            if fn is not None:
                out.append((fn, call, value, m.group("value")))
    return out


def _check_results(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    findings: list[Finding] = []
    for fn, call, value, written in stated_results(ctx, claim):
        args = literal_args(call)
        if args is None:
            continue
        same = [t for t in test_calls(ctx, fn) if literal_args(t.call) == args]
        label = f"`{ast.unparse(call)}`"
        check = f"{label} gives {written} (project tests)"
        ev = ctx.evidence(fn)
        for t in same:
            if t.raises is not None:
                findings.append(bad("contradicted", check, f"the project test at {t.where} expects {label} to raise "
                                    f"`{t.raises}`, not to return {written}", ev, aspect=("returns", "value")))
            elif t.has_value and same_value(t.expected, value):
                findings.append(ok(check + f" at {t.where}", ev, aspect=("returns", "value")))
            elif t.has_value:
                findings.append(bad("contradicted", check, f"the project test at {t.where} asserts {label} == "
                                    f"{t.expected!r}, not {written}", ev, aspect=("returns", "value")))
    return findings


def _check_none_claims(ctx: ReviewContext, claim: Claim, fact: FieldFact | None, subject: Def | None) -> list[Finding]:
    if fact is not None:
        if fact.role != "returns" or subject is None:
            return []
        items = [(subject, st, fact.desc) for st in stated_returns("returns " + fact.desc)]
    else:
        items = []
        for st in stated_returns(claim.text):
            fn = subject_before(ctx, claim, st.start)
            if fn is not None and not re.search(r"(?:never|not|n't)\s+(?:\w+\s+)?returns?\s+$",
                                                claim.text[max(0, st.start - 30):st.start]):
                items.append((fn, st, claim.text[st.start:st.start + 120]))
    findings: list[Finding] = []
    for fn, st, condition in items:
        if st.kind != "None" or st.name is not None or fn.kind != "function":
            continue
        if adjective_conditions(ctx, fn, condition):
            continue  # "None when `p` is empty": ``testoutcomes`` ties the tests to that condition
        check = f"`{_label(fn)}` returns None (project tests)"
        for t in test_calls(ctx, fn):
            if t.raises is not None and _raises_only(ctx, fn, t.raises):
                findings.append(bad("contradicted", check, f"the project test at {t.where} expects `{_show(t)}` to "
                                    f"raise `{t.raises}`", ctx.evidence(fn), aspect="returns"))
    return findings


def _raises_only(ctx: ReviewContext, fn: Def, raised: str) -> bool:
    """Without a stated condition: the test's exception is raised by project code in
    reach and the function has no way to return None (no ``return None``, no fall-through)."""
    node = fn.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or explicit_none_return(fn) or falls_through(node.body):
        return False
    exc = stated_exception(ctx, raised)
    return exc is not None and any(is_subclass(ctx, r, exc) for r in reach(ctx, fn).raised.values())


def check_tests(ctx: ReviewContext, claim: Claim, fact: FieldFact | None, subject: Def | None) -> list[Finding]:
    out = _check_results(ctx, claim)
    if claim.kind != "code":
        out += _check_none_claims(ctx, claim, fact, subject)
        out += check_test_outcomes(ctx, claim, fact, subject)
    return out



