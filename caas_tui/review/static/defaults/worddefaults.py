"""Defaults stated in words ("redirects are followed by default", "verification is
disabled by default", "no timeout by default") against the resolved default of the one
parameter the sentence is about.

The parameter is the one written in the sentence (```verify``` or ``verify=...``), else
the one whose name's words the sentence uses (``follow_redirects`` for "redirects are
followed"); a tie between parameters is no answer. Only an on/off statement about a
``bool`` default, and a "no limit" statement about a number or ``None``, are judged;
a sentence with a condition or a contrast ("unless", "but", "when") is left alone, except
the argument's own absence ("if omitted, `max_items` means no limit"). "Disabled" is also
judged for a number or ``None`` the text names in code (``max_items`` "is disabled by
default" against ``1000``); a 0 or negative default may be the switch-off value and is not
refuted.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import FieldFact
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.defaults.symdefaults import resolved_default
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import Signature
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.referents.subjects import claim_signatures, field_signatures
from caas_tui.review.static.wording.words import same_word, stem

# "if omitted", "when not given": what holds without the argument is the default too; the
# condition is the argument's absence, so it bounds nothing else (see ``_unmixed``).
OMITTED = re.compile(r"\b(?:if|when)\s+(?:it\s+is\s+|they\s+are\s+)?(?:omitted|left\s+out|not\s+(?:given|set|passed|"
                      r"specified))\b", re.IGNORECASE)
_BY_DEFAULT = re.compile(r"\bby\s+default\b|\bdefaults?\s+(?:to|is)\s+(?:on|off|enabled|disabled)\b|"
                         + OMITTED.pattern, re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=[A-Z`:*(])")
_MIXED = re.compile(r"\b(?:unless|but|except|if|when|whenever|while|only|otherwise|either|whether|or)\b", re.IGNORECASE)
_UNBOUNDED = re.compile(
    r"\bno\s+(?:\w+\s+)?(?:timeout|limit|cap|maximum|deadline|expiry|expiration)s?\b|\b(?:unlimited|unbounded|"
    r"infinite|forever|indefinitely)\b|\bnever\s+(?:times?\s+out|expires?)\b",
    re.IGNORECASE,
)
_OFF = re.compile(r"\b(?:disabled|off|inactive|switched\s+off|turned\s+off)\b", re.IGNORECASE)
_ON = re.compile(r"\b(?:enabled|on|active|switched\s+on|turned\s+on)\b", re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:not|never|no|nothing|without)\b|n't\b", re.IGNORECASE)
_CODE = re.compile(r"(`+)([^`]+)\1")
_WORD = re.compile(r"[A-Za-z]{3,}")
# Words in parameter names that say nothing about what the parameter is.
_GENERIC = frozenset({"max", "min", "num", "use", "enable", "enabled", "disable", "disabled", "allow", "should",
                      "default", "has", "auto", "for", "the", "and", "with", "per", "can", "may"})


@dataclass(frozen=True, slots=True)
class Stated:
    state: str  # on | off | unbounded
    clause: str


def _unmixed(text: str) -> str:
    """``text`` with code and the omission cue taken out, for the test for conditions."""
    return OMITTED.sub(" ", _CODE.sub(" X ", text))


def stated_state(clause: str) -> str | None:
    """``on``, ``off`` or ``unbounded`` for a clause saying what a default is; None if mixed."""
    prose = _unmixed(clause)
    if _MIXED.search(prose):
        return None
    if _UNBOUNDED.search(prose):
        return "unbounded"
    negated = bool(_NEGATION.search(prose))
    if _OFF.search(prose):
        return None if negated else "off"  # "not disabled": a double negative, left alone
    if _ON.search(prose):
        return "off" if negated else "on"
    return "off" if negated else "on"  # "redirects are (not) followed by default"


_CLAUSE_BREAK = re.compile(r"\s*(?:[,;:()\u2014]|\s-\s|\b(?:which|that|so|because|and|where|meaning)\b)\s*", re.IGNORECASE)


def _clause(sentence: str) -> str | None:
    """The clause holding "by default" ("by default a reset code is added" out of "..., which
    means styles do not carry over"); a bare "By default," takes the clause after it."""
    m = _BY_DEFAULT.search(sentence)
    if m is None:
        return None
    parts: list[tuple[int, int]] = []
    start = 0
    for b in _CLAUSE_BREAK.finditer(sentence):
        parts.append((start, b.start()))
        start = b.end()
    parts.append((start, len(sentence)))
    for i, (lo, hi) in enumerate(parts):
        if lo <= m.start() < max(hi, lo + 1):
            if len(sentence[lo:hi].split()) <= 3 and i + 1 < len(parts):
                return sentence[lo:parts[i + 1][1]]
            return sentence[lo:hi]
    return sentence


def default_clauses(text: str) -> list[Stated]:
    out: list[Stated] = []
    for sentence in _SENTENCE.split(text):
        clause = _clause(sentence)
        if clause is None:
            continue
        if _MIXED.search(_unmixed(sentence)):
            continue  # a condition anywhere in the sentence may bound the default
        state = stated_state(clause)
        if state is not None:
            out.append(Stated(state, clause))
    return out


def _param_words(name: str) -> set[str]:
    return {stem(t) for t in re.split(r"_+", name.lower()) if len(t) >= 3 and t not in _GENERIC}


def pick_param(clause: str, names: list[str]) -> str | None:
    """The parameter the clause is about: written in code, else the best match of its words."""
    written = [n for n in names if any(re.fullmatch(rf"(?:[A-Z]\w*\.)?{re.escape(n)}\s*(?:=.*)?", m.group(2).strip())
                                       for m in _CODE.finditer(clause))]
    if len(set(written)) == 1:
        return written[0]
    if written:
        return None
    words = {stem(w) for w in _WORD.findall(_CODE.sub(" ", clause))}
    scored: list[tuple[float, str]] = []
    for n in set(names):
        own = _param_words(n)
        if own:
            hit = sum(any(same_word(t, w) for w in words) for t in own)
            if hit:
                scored.append((hit / len(own), n))
    scored.sort(reverse=True)
    if not scored or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1]


def _judge(state: str, value: object, *, named: bool = False) -> bool | None:
    """True: the default is what the words say; False: it is not; None: can't tell. A
    number "disabled" by default (``max_items`` "is disabled") is judged only for a parameter
    the text names: picked by its words, a number may be a level or a size the words are not about."""
    if state == "off" and named and not isinstance(value, bool):
        if value is None:
            return True
        if isinstance(value, (int, float)):
            return False if value > 0 else None  # 0 or < 0 may be the switch-off sentinel: not refuted
        return None
    if state in ("on", "off"):
        if not isinstance(value, bool):
            return None
        return value is (state == "on")
    if isinstance(value, bool):
        return value is False
    if value is None:
        return True
    if isinstance(value, (int, float)):
        if math.isinf(value):
            return True
        return False if value > 0 else None  # 0 may mean "none" or "immediately"
    return None


_SAID = {"on": "on", "off": "off", "unbounded": "unlimited (no value)"}


def _check(ctx: ReviewContext, sig: Signature, param: str, st: Stated, label: str, *, named: bool) -> list[Finding]:
    p = sig.named(param)
    if p is None or p.default is None or p.kind in ("var", "varkw"):
        return []
    actual = resolved_default(ctx, sig, param, p.default, none_stated=st.state == "unbounded" or (st.state == "off" and named))
    if actual is None:
        return []
    verdict = _judge(st.state, actual.value, named=named)
    if verdict is None:
        return []
    ev = ctx.evidence(sig.fn)
    via = [ctx.evidence(d) for d in actual.via]
    check = f"default of `{param}` in `{label}` is {_SAID[st.state]}"
    if verdict:
        return [ok(check, ev, *via, aspect="default")]
    where = f" (via `{actual.via[-1].qualname}`)" if actual.via else ""
    return [bad("contradicted", check, f"`{label}` defaults `{param}` to {actual.source}{where}, "
                f"so it is not {_SAID[st.state]} by default", ev, *via, aspect="default")]


def written_names(clause: str) -> set[str]:
    """The identifiers the clause writes as code (```verify```, ```ttl=```, a field ```Config.verify```)."""
    return {m.group(1) for c in _CODE.finditer(clause)
            if (m := re.fullmatch(r"(?:[A-Z]\w*\.)?([A-Za-z_]\w*)\s*(?:=.*)?", c.group(2).strip()))}


def _judgeable(ctx: ReviewContext, sig: Signature, param: str, state: str, written: set[str]) -> bool:
    """Only parameters whose default the statement can be about: a bool for on/off, a
    number or None for "no limit" (and for "off", when the text names the parameter)."""
    p = sig.named(param)
    if p is None or p.default is None or p.kind in ("var", "varkw"):
        return False
    actual = resolved_default(ctx, sig, param, p.default, none_stated=state == "unbounded" or (state == "off" and param in written))
    if actual is None:
        return False
    if state == "on" or (state == "off" and param not in written):
        return isinstance(actual.value, bool)
    if state == "off" and isinstance(actual.value, bool):
        return True  # "`verify` is off by default" of a flag
    return actual.value is None or (isinstance(actual.value, (int, float)) and not isinstance(actual.value, bool))


def _label(fn: Def, subject: Def) -> str:
    if subject.kind != "function":
        return subject.short
    parts = fn.qualname.split(".")
    return ".".join(parts[-2:]) if fn.owner is not None else parts[-1]


def check_word_defaults(ctx: ReviewContext, claim: Claim, fact: FieldFact | None, subject: Def | None) -> list[Finding]:
    if fact is not None:
        if fact.role != "param" or not fact.name or subject is None or "," in fact.name:
            return []
        sig = ctx.call_signature(subject, on_instance=True)
        if sig is None or not sig.reliable:
            return []
        out: list[Finding] = []
        for st in default_clauses(fact.desc):
            out += _check(ctx, sig, fact.name.lstrip("*"), st, _label(sig.fn, subject), named=True)
        return out
    clauses = default_clauses(claim.text)
    if not clauses:
        return []
    sigs = claim_signatures(ctx, claim)
    for key, pair in field_signatures(ctx, claim).items():
        sigs.setdefault(key, pair)  # "`Config.verify` is off by default": the constructor's ``verify``
    findings: list[Finding] = []
    for st in clauses:
        names = [p.name for _, s in sigs.values() for p in s.params
                 if p.name not in ("self", "cls") and _judgeable(ctx, s, p.name, st.state, written_names(st.clause))]
        param = pick_param(st.clause, names)
        if param is None:
            continue
        having = [(d, s) for d, s in sigs.values() if s.named(param) is not None]
        if len(having) != 1:
            continue  # several functions take it: which one the sentence means is unknown
        subject_def, sig = having[0]
        findings += _check(ctx, sig, param, st, _label(sig.fn, subject_def), named=param in written_names(st.clause))
    return findings
