"""Results a sentence ties to a condition: "returns ``True`` if the key was removed, ``False``
otherwise", "Return ``None`` when `name` is empty", "If the queue is closed, `get` returns
``None``". Each case is a literal and the condition it is promised under; "otherwise"/"else"
promises the literal under the condition's negation. Pure text work: which literals the
condition states of which parameter is ``wording.condatoms``'s reading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from caas_tui.review.static.wording.literals import LITERAL, LITERAL_ANY, StatedLiteral, literal_of


@dataclass(frozen=True, slots=True)
class StatedCase:
    value: object
    text: str  # the literal as written
    start: int  # offset of the literal in the claim text
    condition: str
    otherwise: bool = False  # promised when the condition does NOT hold


_VERB = r"\b(?:returns?|yields?|gives?(?:\s+back)?|evaluates?\s+to)\s+"
# Where a condition ends: a sentence or clause stop, or the comma before the next case.
_STOP = (rf"(?=\s*(?:[.;:](?:\s|$)|$|,\s*(?:and\s+|or\s+|but\s+)?(?:(?:else|otherwise)\b|(?:returns?\s+)?(?:{LITERAL_ANY})))"
         rf"|\s+(?:and|or)\s+(?:{LITERAL_ANY})\s+(?:if|when)\b|\s+(?:otherwise|else)\b)")
_COND = r"(?P<cond>(?:`[^`]*`|[.:](?=[\w`])|[^.;:`])+?)"
# "returns ``True`` if <cond>": the literal right after the verb, a few words allowed
# ("``None`` (instead of raising) if ..."); in a summary the verb may be left out ("The mean
# of ``values``; ``None`` if ``values`` is empty", "the name, or ``None`` when unset").
_AFTER_VERB = re.compile(rf"(?:{_VERB}|(?:^|[;,(]\s*|\bor\s+))(?:{LITERAL})\)?\s*,?(?:\s+\([^)]*\))?\s+(?:if|when|whenever|where|once)\s+{_COND}{_STOP}",
                         re.IGNORECASE)
# "..., and ``False`` if <cond>": a further case after the first one.
_MORE = re.compile(rf"\s*,?\s*(?:and\s+|or\s+|but\s+)?(?:returns?\s+)?(?:{LITERAL})\s+(?:if|when|whenever)\s+{_COND}{_STOP}",
                   re.IGNORECASE)
# "..., ``False`` otherwise", "..., otherwise ``False``", "..., else ``None``".
_OTHERWISE = (
    re.compile(rf"\s*[,;]?\s*(?:and\s+|or\s+|but\s+)?(?:otherwise|else)\s*,?\s*(?:it\s+)?(?:returns?\s+)?(?:{LITERAL})", re.IGNORECASE),
    re.compile(rf"\s*,?\s*(?:and\s+|or\s+|but\s+)?(?:returns?\s+)?(?:{LITERAL})\s+(?:otherwise|else)\b", re.IGNORECASE),
)
# "If <cond>, `f` returns ``None``": the condition first.
_BEFORE_VERB = re.compile(rf"\b(?:if|when|whenever|once)\s+(?P<cond>(?:`[^`]*`|[.:](?=[\w`])|[^,.;:`])+),\s*(?:then\s+)?"
                          rf"(?:(?:it|this|they|the\s+\w+|`[^`]+`|:\w+:`[^`]+`)\s+)?(?:returns?|yields?|gives?)\s+(?:{LITERAL})",
                          re.IGNORECASE)


def _case(m: re.Match[str], otherwise: bool = False, condition: str = "") -> StatedCase | None:
    lit: StatedLiteral | None = literal_of(m)
    if lit is None:
        return None
    return StatedCase(lit.value, lit.text, lit.start, condition or m.group("cond").strip(), otherwise)


def stated_cases(text: str) -> list[StatedCase]:
    """Every literal result the sentence ties to a condition, in order."""
    out: list[StatedCase] = []
    for m in _AFTER_VERB.finditer(text):
        first = _case(m)
        if first is None:
            continue
        found = [first]
        pos = m.end()
        while True:
            more = _MORE.match(text, pos)
            if more is None:
                break
            case = _case(more)
            if case is not None:
                found.append(case)
            pos = more.end()
        rest = next((r for r in (p.match(text, pos) for p in _OTHERWISE) if r is not None), None)
        if rest is not None:
            case = _case(rest, otherwise=True, condition=first.condition)
            if case is not None and len(found) == 1:
                # "True if A, and False if B, False otherwise": the negation of one case only
                found.append(case)
        out += found
    for m in _BEFORE_VERB.finditer(text):
        case = _case(m)
        if case is not None and not any(c.start == case.start for c in out):
            out.append(case)
    return sorted(out, key=lambda c: c.start)
