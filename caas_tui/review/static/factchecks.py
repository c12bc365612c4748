"""Checks of stated facts against a function: parameter names in field entries,
defaults, return types and raised exceptions."""

from __future__ import annotations

import re

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import FieldFact, parse_field
from caas_tui.review.claims.mentions import code_spans, find_mentions
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.defaults.attrdefaults import property_parameter
from caas_tui.review.static.defaults.numbers import quantity_matches, restate_value
from caas_tui.review.static.defaults.symdefaults import check_symbol_default, names_symbol, resolved_default
from caas_tui.review.static.defaults.worddefaults import check_word_defaults
from caas_tui.review.static.findings import Edit, Finding, bad, ok
from caas_tui.review.static.kinds.paramchecks import check_param_entry, check_prose_kinds
from caas_tui.review.static.kinds.ranges import check_param_range
from caas_tui.review.static.kinds.requiredness import check_requiredness
from caas_tui.review.static.model.pysig import Signature, same_value
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.model.valuecalls import parse_value
from caas_tui.review.static.naming.fieldentries import check_entry_duplicates
from caas_tui.review.static.naming.names import callable_mentions, resolve_mention, section_subject
from caas_tui.review.static.naming.nouns import noun_subjects
from caas_tui.review.static.outcomes.raiseclaims import check_raises
from caas_tui.review.static.outcomes.returnclaims import check_returns, fn_label
from caas_tui.review.static.referents.subjects import owner_of
from caas_tui.review.static.testevidence.testchecks import check_tests
from caas_tui.review.static.wording.facts import (
    StatedValue,
    stated_defaults,
)
from caas_tui.review.static.wording.units import Quantity, quantities
from caas_tui.review.static.wording.voice import active_claim

_IDENT = re.compile(r"[A-Za-z_]\w*")
_TYPE_NAMES = frozenset({"int", "str", "float", "bool", "bytes", "list", "dict", "tuple", "set", "object", "callable"})


def _sig_for(ctx: ReviewContext, subject: Def) -> Signature | None:
    sig = ctx.call_signature(subject, on_instance=True)
    return sig if sig is not None and sig.reliable else None


# -- parameters named by field entries -------------------------------------------------------
def check_field_params(ctx: ReviewContext, claim: Claim, fact: FieldFact, subject: Def) -> list[Finding]:
    if fact.role not in ("param", "type") or not fact.name:
        return []
    sig = _sig_for(ctx, subject)
    if sig is None:
        return []
    swapped = fact.name in _TYPE_NAMES or (fact.type is not None and sig.named(fact.type.strip()) is not None)
    if fact.type and fact.name not in {p.name for p in sig.params} and swapped:
        return []  # ``int (size): ...``: type and name written the other way round
    label = fn_label(sig.fn) if subject.kind == "function" else subject.short
    ev = ctx.evidence(sig.fn)
    names = {p.name for p in sig.params}
    findings: list[Finding] = []
    for raw in fact.name.split(","):
        name = raw.strip().lstrip("*")
        if not _IDENT.fullmatch(name):
            continue
        check = f"`{label}` has parameter `{name}`"
        if name in names:
            repeated = check_entry_duplicates(ctx, claim, name, sig, label, ev)
            findings += repeated or [ok(check, ev, aspect="parameters")]
            findings += check_param_range(ctx, claim, fact, sig, label)
        elif not sig.has_varkw:
            documented: set[str] = set()  # a name another entry already documents is no suggestion
            sug = ctx.suggest(sig.fn, name, {n for n in names if n not in documented and n not in ("self", "cls")})
            rationale = f"`{label}` has no parameter `{name}`"
            edit = None
            if sug is not None:
                rationale += f"; did you mean `{sug.name}`?"
                if sug.unambiguous:
                    edit = Edit(claim.start_line, claim.end_line, name, sug.name)
            findings.append(bad("contradicted", check, rationale, ev, edit=edit, aspect="parameters"))
    return findings


# -- defaults -------------------------------------------------------------------------------
def _check_default(ctx: ReviewContext, claim: Claim, sig: Signature, param: str, sv: StatedValue, label: str) -> list[Finding]:
    p = sig.named(param)
    if p is None or p.kind in ("var", "varkw"):
        return []
    ev = ctx.evidence(sig.fn)
    check = f"default of `{param}` in `{label}`"
    if p.default is None:
        if sv.param is not None:
            return []  # ```x=None``` in prose: an example call, not a stated default
        return [bad("contradicted", check, f"`{param}` of `{label}` is required; it has no default", ev, aspect="default")]
    if sv.symbol or names_symbol(sv, p.default):
        return check_symbol_default(ctx, claim, sig, param, sv, label)
    actual = resolved_default(ctx, sig, param, p.default, none_stated=sv.literal and sv.value is None)
    if actual is None:
        return []
    via = [ctx.evidence(d) for d in actual.via]
    if sv.literal and isinstance(actual.value, (list, tuple)) and not isinstance(sv.value, (list, tuple)) \
            and any(same_value(sv.value, item) for item in actual.value):
        return []  # "defaults to ``'a'``, ``'b'``": the doc lists the items one by one
    called = None if sv.literal else parse_value(sv.text)  # ``timedelta(hours=1)``: a stdlib value call
    if sv.literal:
        matched = same_value(sv.value, actual.value)
    elif called is not None:
        matched = same_value(called[0], actual.value)
    elif any(d.qualname == sv.text or d.qualname.endswith("." + sv.text) for d in actual.via):
        matched = True  # "defaults to ``DEFAULT_LOCALE``": the constant the code reads the default from
    elif isinstance(actual.value, str):
        matched = sv.text == actual.value
    else:
        return []
    if matched:
        return [ok(f"{check} is {sv.text}", ev, *via, aspect="default")]
    new = actual.source
    if not sv.literal and isinstance(actual.value, str):
        new = actual.value
    edit = Edit(claim.start_line, claim.end_line, sv.text, new, unique=True)
    where = f" (via `{actual.via[-1].qualname}`)" if actual.via else ""
    return [bad("contradicted", f"{check} is {sv.text}", f"`{label}` defaults `{param}` to {actual.source}{where}, not {sv.text}", ev, *via, edit=edit, aspect="default")]


def _check_quantity(ctx: ReviewContext, claim: Claim, sig: Signature, param: str, q: Quantity, label: str) -> list[Finding]:
    """``every 250 ms`` against the resolved default (``0.5``), in any unit reading the name allows."""
    p = sig.named(param)
    if p is None or p.kind in ("var", "varkw") or p.default is None:
        return []
    actual = resolved_default(ctx, sig, param, p.default, none_stated=False)
    if actual is None:
        return []
    verdict = quantity_matches(q, param, actual.value)
    if verdict is None:
        return []
    ev = ctx.evidence(sig.fn)
    via = [ctx.evidence(d) for d in actual.via]
    check = f"default of `{param}` in `{label}` is {q.text}"
    if verdict:
        return [ok(check, ev, *via, aspect=("default", "value"))]
    where = f" (via `{actual.via[-1].qualname}`)" if actual.via else ""
    restated = restate_value(q, param, actual.value)
    said = f"{actual.source}{where}" + (f", i.e. {restated}" if restated else "")
    edit = Edit(claim.start_line, claim.end_line, q.text, restated, unique=True) if restated else None
    return [bad("contradicted", check, f"`{label}` defaults `{param}` to {said}, not {q.text}", ev, *via,
                edit=edit, aspect=("default", "value"))]


def quantity_finding(ctx: ReviewContext, claim: Claim, subject: Def, param: str, q: Quantity) -> list[Finding]:
    """``q`` against the resolved default of ``subject``'s ``param``."""
    sig = _sig_for(ctx, subject)
    if sig is None:
        return []
    return _check_quantity(ctx, claim, sig, param, q, fn_label(sig.fn) if subject.kind == "function" else subject.short)


def _param_before(text: str, offset: int, candidates: set[str], plain: set[str] | None = None) -> str | None:
    names = [m.name for m in find_mentions(text) if m.origin == "code" and 0 <= m.start < offset and "." not in m.name]
    names += [s.strip() for s in code_spans(text[:offset]) if _IDENT.fullmatch(s.strip())]
    for name in reversed(names):
        if name in candidates:
            return name
    # In plain words: "the read timeout defaults to 5 s" names ``read_timeout``.
    head = re.sub(r"(`+)(.+?)\1", " ", text[:max(offset, 0)]).lower()
    # Only parameters that have a default can be what "defaults to" is about in words.
    spelled = [(head.rfind(f" {n.replace('_', ' ')} "), n) for n in (plain or set()) if len(n) >= 4 and n[:1] != "_"]
    spelled = [(pos, n) for pos, n in spelled if pos >= 0]
    if spelled:
        best = max(pos for pos, _ in spelled)
        at_best = [n for pos, n in spelled if pos == best]
        longest = max(at_best, key=len)
        return longest
    return None


def _constructor_attributes(ctx: ReviewContext, claim: Claim) -> list[tuple[int, Def, str]]:
    """(offset, class, name) for each ``Cls.attr`` the claim names whose constructor takes
    a parameter of that name: "`Scene.fixed_dt` defaults to ..." is about that parameter."""
    out: list[tuple[int, Def, str]] = []
    for m in find_mentions(claim.text):
        if "." not in m.name or m.origin == "ident":
            continue
        res = resolve_mention(ctx, claim, m)
        target = res.target if res.found and not res.ambiguous else None
        owner = target.owner if target is not None else None
        if target is None or owner is None or owner.kind != "class":
            continue
        name = target.short if target.kind == "attribute" else property_parameter(target)
        sig = _sig_for(ctx, owner) if name is not None else None
        if sig is not None and name is not None and sig.named(name) is not None:
            out.append((m.start, owner, name))
    return out


def check_defaults(ctx: ReviewContext, claim: Claim, fact: FieldFact | None, subject: Def | None) -> list[Finding]:
    findings: list[Finding] = []
    if fact is not None:
        if fact.role != "param" or not fact.name or subject is None or "," in fact.name:
            return []
        sig = _sig_for(ctx, subject)
        if sig is None:
            return []
        label = fn_label(sig.fn) if subject.kind == "function" else subject.short
        name = fact.name.lstrip("*")
        qs = quantities(fact.desc)
        for sv in stated_defaults(fact.desc):
            if sv.param is not None and sv.param != name:
                continue  # ```kw_only=True``` in another entry's text: an example, not this default
            if not any(q.start <= sv.start < q.start + len(q.text) for q in qs):
                findings += _check_default(ctx, claim, sig, sv.param or name, sv, label)
        typed = quantities(fact.type or "")  # NumPy "float, default 90 degrees"
        for sv in stated_defaults(fact.type or ""):
            if not any(q.start <= sv.start < q.start + len(q.text) for q in typed):
                findings += _check_default(ctx, claim, sig, sv.param or name, sv, label)
        for q in qs + typed:
            findings += _check_quantity(ctx, claim, sig, name, q, label)
        return findings
    candidates = [d for _, d in callable_mentions(ctx, claim)]
    owner = owner_of(ctx, claim)
    if owner is not None:
        candidates.append(owner)
    attrs = _constructor_attributes(ctx, claim)
    candidates += [cls for _, cls, _ in attrs]
    candidates += [cls for _, cls in noun_subjects(ctx, claim)]
    pairs = [(d, s) for d, s in ((d, _sig_for(ctx, d)) for d in candidates) if s is not None]
    if not pairs:
        return []
    names = {p.name for _, s in pairs for p in s.params}
    with_default = {p.name for _, s in pairs for p in s.params if p.default is not None}
    # A quantity in prose states a default only where the sentence talks about defaults.
    qs = quantities(claim.text) if re.search(r"\bdefault", claim.text, re.IGNORECASE) else []
    stated: list[StatedValue | Quantity] = [
        sv for sv in stated_defaults(claim.text) if not any(q.start <= sv.start < q.start + len(q.text) for q in qs)
    ]
    for item in [*stated, *qs]:
        param = (item.param if isinstance(item, StatedValue) else None) \
            or _param_before(claim.text, item.start, names, with_default)
        if param is None:
            hinted = {name for pos, _, name in attrs if pos < item.start}
            param = next(iter(hinted)) if len(hinted) == 1 else None
        if param is None:
            continue
        having = {id(s.fn.node): (d, s) for d, s in pairs if s.named(param) is not None}
        if len(having) != 1:
            continue  # no function, or several, take this parameter: can't tell which is meant
        subject, sig = next(iter(having.values()))
        label = fn_label(sig.fn) if subject.kind == "function" else subject.short
        if isinstance(item, Quantity):
            findings += _check_quantity(ctx, claim, sig, param, item, label)
        else:
            findings += _check_default(ctx, claim, sig, param, item, label)
    return findings


# -- return types ---------------------------------------------------------------------------
def check_facts(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    fact = parse_field(claim.text) if claim.kind == "field" else None
    subject = section_subject(ctx, claim) if fact is not None else None
    findings: list[Finding] = []
    if fact is not None and subject is not None:
        findings += check_field_params(ctx, claim, fact, subject)
        findings += check_param_entry(ctx, claim, fact, subject)
    findings += check_defaults(ctx, claim, fact, subject)
    findings += check_word_defaults(ctx, claim, fact, subject)
    findings += check_requiredness(ctx, claim, fact, subject)
    active = active_claim(claim)  # "X is returned by `f`" read as "`f` returns X"
    findings += check_returns(ctx, active, fact, subject)
    findings += check_raises(ctx, active, fact, subject)
    if fact is None:
        findings += check_prose_kinds(ctx, claim)
    findings += check_tests(ctx, claim, fact, subject)
    return findings
