"""A result a sentence says is something the caller already has: "returns itself", "returns
``self`` so calls chain", "returns the same instance", "returns the system it was given",
"returns `handler` unchanged". Pure text work: which parameter "the system" names is decided
against the signature (``outcomes.givenback``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SELF = "self"


@dataclass(frozen=True, slots=True)
class GivenBack:
    start: int  # offset of what is handed back
    what: str  # SELF, the words naming an argument ("system"), "=name" (a bare noun: only a parameter's exact name), "" (its one argument)
    text: str  # as written


_VERB = r"\b(?:returns?|hands?\s+back|gives?\s+back)\s+(?:back\s+)?"
_GIVEN = r"(?:it\s+(?:was|is)\s+given|(?:that\s+|which\s+)?(?:you\s+|was\s+|were\s+)?(?:passed|gave|given|supplied|provided)(?:\s+in|\s+to\s+it)?|it\s+received)"
_BACK = re.compile(
    _VERB + r"(?:"
    r"(?P<self>(?:`+)?self(?:`+)?|itself|the\s+same\s+(?:instance|object)|this\s+(?:instance|object)|the\s+(?:instance|object)\s+itself)"
    rf"|the\s+(?:same\s+)?(?P<given>[a-z][a-z_]{{1,30}})\s+{_GIVEN}"
    r"|(?P<ticks>`+)(?P<param>[A-Za-z_]\w*)(?P=ticks)\s+(?:itself|unchanged|as\s+is)"
    r"|(?:the\s+)?(?:argument|parameter|input)\s+(?P<ticks2>`+)(?P<param2>[A-Za-z_]\w*)(?P=ticks2)"
    # "returns the entity, so calls chain": a bare noun, resolved only when it is a parameter's name
    r"|the\s+(?P<bare>[a-z_]{2,30})(?=\s*(?:[.,;:)]|$|\s+(?:so|for|and|unchanged|as\s+is|back|again)\b))"
    rf"|its\s+(?:argument|input)\s+(?:unchanged|as\s+is)|the\s+(?:argument|input|value)\s+{_GIVEN}"
    r")(?![\w`])",
    re.IGNORECASE,
)


def stated_given_back(text: str) -> list[GivenBack]:
    out: list[GivenBack] = []
    for m in _BACK.finditer(text):
        if m.group("self"):
            out.append(GivenBack(m.start("self"), SELF, m.group("self")))
        elif m.group("given"):
            out.append(GivenBack(m.start("given"), m.group("given").lower(), m.group(0)))
        elif m.group("bare"):
            out.append(GivenBack(m.start("bare"), "=" + m.group("bare"), m.group(0)))
        elif m.group("param") or m.group("param2"):
            name = m.group("param") or m.group("param2")
            start = m.start("param") if m.group("param") else m.start("param2")
            out.append(GivenBack(start, name, m.group(0)))
        else:
            out.append(GivenBack(m.end(), "", m.group(0)))  # "its argument unchanged": the one argument
    return out
