"""Counts a doc puts on a noun ("follows up to 10 redirects", "keeps at most 4 connections",
"retries up to 3 times") against the resolved default of the one parameter named for that
noun (``max_redirects``, ``max_connections``, ``max_retries``).

A bound ("up to", "at most", "at least") is the parameter's value only when the parameter
is itself a bound of that direction (``max_*``/``*_limit`` for an upper one, ``min_*`` for a
lower one); a plain count matches any parameter named for the noun. A sentence that tells
the reader to change the value ("set", "pass", "raise it to") is an example, not the
default.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from caas_tui.models import Claim
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.defaults.symdefaults import resolved_default
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.referents.subjects import claim_signatures
from caas_tui.review.static.wording.assertions import NUMBER_WORDS
from caas_tui.review.static.wording.words import STOPWORDS, same_word, stem

_NUM_WORDS = "|".join(sorted((w for w in NUMBER_WORDS if " " not in w and w not in ("a", "an")), key=len, reverse=True))
_COUNT = re.compile(
    rf"(?:(?P<bound>at\s+most|up\s+to|no\s+more\s+than|a\s+maximum\s+of|at\s+least|no\s+fewer\s+than|a\s+minimum\s+of)\s+)?"
    rf"(?<![\w.,/-])(?P<num>\d+|{_NUM_WORDS})\s+(?P<noun>[a-z]{{3,}})\b(?:\s+(?P<next>[a-z]{{3,}})\b)?",
    re.IGNORECASE,
)
_EXAMPLE = re.compile(r"\b(?:set|pass|change|override|configure|raise|lower|increase|reduce|e\.g\.|for\s+example|"
                      r"such\s+as|like|if|when)\b|=", re.IGNORECASE)
_UPPER = frozenset({"max", "maximum", "limit", "cap"})
_LOWER = frozenset({"min", "minimum"})
_REPEAT_NOUNS = frozenset({"times", "attempts", "tries", "retries"})
_RETRY = re.compile(r"retr(?:y|ies)|attempts|tries", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Count:
    text: str
    number: int
    noun: str  # the word after the number
    bound: str | None  # upper | lower | None
    next: str | None = None  # the word after that ("3 idle connections")


def stated_counts(text: str) -> list[Count]:
    prose = re.sub(r"(`+)(.+?)\1", " ", text)
    out: list[Count] = []
    for m in _COUNT.finditer(prose):
        raw = m.group("num").lower()
        number = int(raw) if raw.isdigit() else NUMBER_WORDS.get(raw)
        if not isinstance(number, int):
            continue
        bound = m.group("bound")
        kind = None if bound is None else "lower" if re.match(r"at\s+least|no\s+fewer|a\s+minimum", bound, re.I) else "upper"
        nxt = m.group("next").lower() if m.group("next") else None
        out.append(Count(m.group(0), number, m.group("noun").lower(), kind, nxt))
    return out


def _tokens(name: str) -> set[str]:
    return {t for t in name.lower().split("_") if t}


def _names_noun(param: str, count: Count, text: str) -> bool:
    tokens = _tokens(param)
    if count.noun in _REPEAT_NOUNS:
        return bool(_RETRY.search(param)) and bool(re.search(r"\bretr(?:y|ies)\b", text, re.I))
    nouns = [n for n in (count.noun, count.next) if n and n not in STOPWORDS]
    return any(same_word(stem(t), stem(n)) for t in tokens if len(t) >= 3 and t not in _UPPER | _LOWER for n in nouns)


def _bound_fits(param: str, count: Count) -> bool:
    tokens = _tokens(param)
    if count.bound == "upper":
        return bool(tokens & _UPPER) or count.noun in _REPEAT_NOUNS and bool(_RETRY.search(param))
    if count.bound == "lower":
        return bool(tokens & _LOWER)
    return True


def _label(fn: Def, subject: Def) -> str:
    if subject.kind != "function":
        return subject.short
    parts = fn.qualname.split(".")
    return ".".join(parts[-2:]) if fn.owner is not None else parts[-1]


def check_counts(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind not in ("prose", "field"):
        return []
    counts = stated_counts(claim.text)
    if not counts or _EXAMPLE.search(re.sub(r"(`+)(.+?)\1", " ", claim.text)):
        return []
    sigs = claim_signatures(ctx, claim)
    findings: list[Finding] = []
    for count in counts:
        if count.bound is None and count.noun in _REPEAT_NOUNS:
            continue  # "retries three times": the retry check's
        matches = []
        for d, sig in sigs.values():
            for p in sig.params:
                if p.default is None or p.kind in ("var", "varkw") or not _names_noun(p.name, count, claim.text):
                    continue
                value = resolved_default(ctx, sig, p.name, p.default, none_stated=False)
                if value is not None and isinstance(value.value, int) and not isinstance(value.value, bool):
                    matches.append((d, sig, p.name, value))
        if len(matches) != 1:
            continue  # no whole-number parameter, or several, named for this noun
        subject, sig, param, actual = matches[0]
        if not _bound_fits(param, count):
            continue  # "at most 5 seconds" of a plain ``ttl``: a bound, not its value
        label = _label(sig.fn, subject)
        ev = ctx.evidence(sig.fn)
        via = [ctx.evidence(d) for d in actual.via]
        check = f"default of `{param}` in `{label}` is {count.number}"
        aspects = ("default", "value", "behaviour") if count.noun in _REPEAT_NOUNS else ("default", "value")
        if actual.value == count.number:
            findings.append(ok(check, ev, *via, aspect=aspects))
            continue
        where = f" (via `{actual.via[-1].qualname}`)" if actual.via else ""
        findings.append(bad("contradicted", check, f"`{label}` defaults `{param}` to {actual.source}{where}, "
                            f"not {count.number} (“{count.text.strip()}”)", ev, *via, aspect=aspects))
    return findings
