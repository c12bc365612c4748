"""Return claims against what the function hands back: a stated type or `None` against the
annotation and the return paths ("returns a list", ":rtype: str", "returns `None` for a missing
key" where it raises), the element a container names ("a list of `Item` objects" against
``-> list[Tag]``), "returns X, or None", "never returns None", and "returns the grid" of a
function that returns nothing."""

from __future__ import annotations

import re
from dataclasses import replace

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import FieldFact
from caas_tui.review.static.codefacts.rettypes import compare, describe, element_kinds, optional_type, return_kinds
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Edit, Finding, bad, ok
from caas_tui.review.static.model.flow import explicit_none_return, returns_nothing
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.outcomes.givenback import check_given_back
from caas_tui.review.static.outcomes.retnone import not_none
from caas_tui.review.static.outcomes.returnpolarity import check_cases
from caas_tui.review.static.referents.subjects import subject_of
from caas_tui.review.static.wording.facts import (
    StatedType,
    stated_optional,
    stated_returns,
    stated_value_returns,
    type_from_text,
)
from caas_tui.review.static.wording.voice import verb_start


def fn_label(fn: Def) -> str:
    """``Class.method`` for a method, ``function`` for a function."""
    parts = fn.qualname.split(".")
    return ".".join(parts[-2:]) if fn.owner is not None else parts[-1]


def _check_return(ctx: ReviewContext, claim: Claim, subject: Def, stated: StatedType, token: str) -> list[Finding]:
    if subject.kind != "function":
        return []
    kinds = return_kinds(ctx, subject)
    if kinds is None:
        return _check_none(ctx, claim, subject, stated)
    verdict = compare(ctx, stated, kinds, claim)
    if verdict is None:
        return _check_none(ctx, claim, subject, stated)
    said = stated.name or stated.kind or token
    check = f"`{fn_label(subject)}` returns {said}"
    ev = ctx.evidence(subject)
    if verdict:
        # "a function that unsubscribes the handler": that it is callable says nothing of
        # what calling it does, so the check covers no result
        return [ok(check, ev, aspect="names" if stated.kind == "callable" else "returns")] \
            + _check_element(ctx, claim, subject, stated)
    actual = describe(kinds)
    edit = None
    if stated.kind and len(kinds) == 1 and token == stated.kind and not next(iter(kinds)).startswith("class:"):
        edit = Edit(claim.start_line, claim.end_line, token, actual, unique=True)
    return [bad("contradicted", check, f"`{fn_label(subject)}` returns {actual}, not {said}", ev, edit=edit, aspect="returns")]


def _check_element(ctx: ReviewContext, claim: Claim, subject: Def, stated: StatedType) -> list[Finding]:
    """"a list of `Item` objects" against ``-> list[Tag]``; an element the annotation does not
    name stays unchecked, so the container alone never makes the claim green."""
    if stated.element is None:
        return []
    check = f"`{fn_label(subject)}` returns {stated.kind} of `{stated.element}`"
    ev = ctx.evidence(subject)
    kinds = element_kinds(ctx, subject)
    verdict = compare(ctx, StatedType(None, stated.element, 0), kinds, claim) if kinds is not None else None
    if verdict is None or kinds is None:
        return [Finding("unchecked", check, f"the element type `{stated.element}` was not checked", (), None,
                        ("returns",))]
    if verdict:
        return [ok(check, ev, aspect="returns")]
    return [bad("contradicted", check, f"`{fn_label(subject)}` returns {stated.kind} of {describe(kinds)}, "
                f"not of `{stated.element}`", ev, aspect="returns")]


def _check_none(ctx: ReviewContext, claim: Claim, subject: Def, stated: StatedType) -> list[Finding]:
    """"returns None for a missing key" where the code can't return None and raises instead."""
    if stated.kind != "None" or stated.name is not None:
        return []
    found = not_none(ctx, subject, claim.text)
    if found is None:
        return []
    return [bad("contradicted", f"`{fn_label(subject)}` returns None", f"`{fn_label(subject)}` {found.why}",
                *[ctx.evidence(d) for d in found.evidence], aspect="returns")]


def _check_optional(ctx: ReviewContext, claim: Claim, subject: Def) -> list[Finding]:
    """"returns X, or None": None must be a possible result (annotation or return paths)."""
    if subject.kind != "function":
        return []
    kinds = return_kinds(ctx, subject)
    check = f"`{fn_label(subject)}` may return None"
    if kinds is not None and "None" in kinds:
        return [ok(check, ctx.evidence(subject), aspect="returns")]
    return _check_none(ctx, claim, subject, StatedType("None", None, 0))


def check_returns(ctx: ReviewContext, claim: Claim, fact: FieldFact | None, subject: Def | None) -> list[Finding]:
    """Stated results against the code; a result tied to a condition ("``None`` if `name` is
    empty") is covered only when that condition was checked (``returnpolarity``), never by
    its type alone."""
    found = _stated_results(ctx, claim, fact, subject) + check_given_back(ctx, claim, fact, subject)
    cases = check_cases(ctx, claim, fact, subject)
    if cases.unread:
        found = [_type_only(f) for f in found]
    return found + list(cases.findings)


def _type_only(f: Finding) -> Finding:
    """An ``ok`` that saw the result's type, not the case it is stated for: it covers names only."""
    if f.status != "ok" or "returns" not in f.aspects:
        return f
    return replace(f, aspects=tuple(a for a in f.aspects if a != "returns") or ("names",))


def _stated_results(ctx: ReviewContext, claim: Claim, fact: FieldFact | None, subject: Def | None) -> list[Finding]:
    if fact is not None:
        if subject is None or fact.role not in ("returns", "rtype"):
            return []
        if fact.type:
            stated = type_from_text(fact.type)
            typed = _check_return(ctx, claim, subject, stated, fact.type.strip()) if stated else []
            return typed + (_check_optional(ctx, claim, subject) if optional_type(fact.type) else [])
        out: list[Finding] = []
        for st in stated_returns("returns " + fact.desc):
            out += _check_return(ctx, claim, subject, st, _token_at(fact.desc, st.start - len("returns ")))
        if stated_optional("returns " + fact.desc) is not None:
            out += _check_optional(ctx, claim, subject)
        if not out and fact.role == "returns" and stated_value_returns("returns " + fact.desc[:1].lower() + fact.desc[1:]):
            out += _check_some_value(ctx, subject)
        return out
    out = []
    at = stated_optional(claim.text)
    if at is not None and not _IF_RETURNS.search(claim.text[max(0, at - 60):at]):
        optional_subject = subject_of(ctx, claim, at)
        if optional_subject is not None:
            out += _check_optional(ctx, claim, optional_subject)
    for st in stated_returns(claim.text):
        subj = subject_of(ctx, claim, verb_start(claim.text, st.start))
        if subj is None:
            continue
        if _IF_RETURNS.search(claim.text[max(0, st.start - 60):st.start]):
            continue  # "if it returns ``True``, ...": a condition on something else, not a claim
        if _parameter_returns(ctx, subj, claim.text[:st.start]):
            continue  # "*pred* returns ``True``": what a callable argument returns
        if _NEG_RETURN.search(claim.text[max(0, st.start - 40):st.start]):
            out += _check_never_none(ctx, subj, st)
        else:
            out += _check_return(ctx, claim, subj, st, _token_at(claim.text, st.start))
    for at in stated_value_returns(claim.text):
        subj = subject_of(ctx, claim, verb_start(claim.text, at))
        if subj is None or _IF_RETURNS.search(claim.text[max(0, at - 60):at]) \
                or _NEG_RETURN.search(claim.text[max(0, at - 40):at]) or _parameter_returns(ctx, subj, claim.text[:at]):
            continue
        out += _check_some_value(ctx, subj)
    return out


def _overridden(ctx: ReviewContext, fn: Def) -> bool:
    """A subclass defines its own ``fn``: the doc may mean that one's result."""
    if fn.owner is None or fn.owner.kind != "class":
        return False
    for sub in ctx.subclasses(fn.owner):
        res = ctx.resolver.member(sub, fn.short)
        if res.status != "missing" and (res.target is None or res.target.node is not fn.node):
            return True
    return False


def _check_some_value(ctx: ReviewContext, subject: Def) -> list[Finding]:
    """"returns the grid" of a function that hands back nothing: a chained call gets None."""
    if subject.kind != "function" or _overridden(ctx, subject):
        return []
    why = returns_nothing(subject)
    if why is None:
        return []
    return [bad("contradicted", f"`{fn_label(subject)}` returns a value",
                f"`{fn_label(subject)}` returns nothing (None): {why}", ctx.evidence(subject), aspect="returns")]


_IF_RETURNS = re.compile(r"\b(?:if|when|unless|whether|once|which|whom|where)\s+(?:[^\s,`]+\s+){0,3}?(?:returns?|yields?)\s+(?:\w+\s+)?$",
                         re.IGNORECASE)
_NEG_RETURN = re.compile(r"(?:\bnever|\bnot|n['\u2019]t)\s+(?:\w+\s+)?(?:returns?|yields?)\s+(?:\w+\s+)?$", re.IGNORECASE)


_WORD_BEFORE_RETURNS = re.compile(r"[*`_]*([A-Za-z_]\w*)[*`_]*\s+(?:\w+\s+)?(?:returns?|yields?)\s+(?:\w+\s+)?$", re.IGNORECASE)


def _parameter_returns(ctx: ReviewContext, subject: Def, before: str) -> bool:
    m = _WORD_BEFORE_RETURNS.search(before)
    if m is None:
        return False
    sig = ctx.signature(subject) if subject.kind == "function" else ctx.call_signature(subject, on_instance=True)
    return sig is not None and sig.named(m.group(1)) is not None


def _check_never_none(ctx: ReviewContext, subject: Def, stated: StatedType) -> list[Finding]:
    """"never returns None": contradicted by an explicit ``return None`` or bare ``return``."""
    if subject.kind != "function" or stated.kind != "None" or not explicit_none_return(subject):
        return []
    return [bad("contradicted", f"`{fn_label(subject)}` never returns None",
                f"`{fn_label(subject)}` has a `return None` (or a bare `return`)", ctx.evidence(subject), aspect="returns")]


def _token_at(text: str, offset: int) -> str:
    m = re.match(r"`+([^`]+)`+|[\w.]+", text[max(offset, 0):])
    if not m:
        return ""
    return m.group(1) if m.group(1) else m.group(0)
