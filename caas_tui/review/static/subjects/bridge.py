"""The words that open a sentence whose subject is elsewhere: a pronoun ("It returns ...",
"Yes, it raises ...") or a definite description ("The store's `timeout` ...", "A source
opens ..."). Only a subject at the very start of the sentence (after discourse openers
such as "Then," or "Yes:") counts: anywhere else a pronoun may stand for a noun of the same
sentence."""

from __future__ import annotations

import re
from dataclasses import dataclass

# Discourse openers that leave the subject slot untouched ("Then it writes ...", "Yes: it ...").
_OPENERS = (r"(?:(?:yes|no|then|now|also|so|and|but|here|internally|otherwise|afterwards|after\s+that|"
            r"by\s+default|in\s+short|note(?:\s+that)?|remember(?:\s+that)?)\s*[,:;.!\u2014-]*\s+)*")
_PRONOUN = re.compile(rf"^\W*{_OPENERS}(?P<bridge>(?:this|the)\s+(?P<noun>function|method|call|class|constructor)|"
                      rf"its|it|they)(?P<poss>'s)?(?=\s+[a-z`*'])", re.IGNORECASE)
# A bare "this" / "these" is left out: as a subject it mostly points at the preceding statement
# or example ("Also here this works in both directions"), not at an API; "this method" stays.
# "It is recommended", "This is why", "It's worth": an impersonal "it" or a "this" for the
# preceding statement, not an API.
_IMPERSONAL = re.compile(
    r"^(?:\s*(?:seems?|helps?|pays|makes\s+sense|means|happens|depends|matters|works\s+like)\b|"
    r"(?:\s*'s|\s+(?:is|was|will\s+be|would\s+be|can\s+be|may\s+be|might\s+be))\s+(?:not\s+)?(?:a\s+good\s+idea|"
    r"important|recommended|possible|impossible|worth|best|better|safe|easy|hard|useful|likely|unlikely|because|"
    r"where|how|what|when|that|enough|fine|ok(?:ay)?|up\s+to|true|also|just|the\s+same|similar|why|here|there)\b)",
    re.IGNORECASE,
)
_DESCRIPTION = re.compile(rf"^\W*{_OPENERS}(?P<det>the|a|an|each|every|your|this|that|these|those|two|any)\s+",
                          re.IGNORECASE)
_WORD = re.compile(r"([a-z][a-z0-9]*)('s|')?(?=[\s,;:.!?]|$)")
_STATEMENT = re.compile(r"^\s+(?:is|was|are|were|means|meant|happens|explains|matters|also)\b", re.IGNORECASE)
# A word right after the description that makes it the subject: an auxiliary, or a verb.
_AUX = re.compile(r"^\s+(?:is|are|was|were|can|cannot|will|must|may|should|does|do|never|always|only|also|"
                  r"has|have|keeps|stays|raises|returns|accepts|takes)\b", re.IGNORECASE)
_VERB_S = re.compile(r"^\s+[a-z]{3,}s\b")
_PLURAL_VERB = re.compile(r"^\s+[a-z]{3,}(?<!s)\b")


@dataclass(frozen=True)
class Bridge:
    """Where the sentence's subject slot is and how it refers."""

    start: int
    end: int  # the span to replace by the subject's name (a trailing "'s" stays)
    kind: str  # pronoun | description | subjectless
    words: tuple[str, ...] = ()  # a description's noun words, lower-case, singular
    possessive: bool = False  # "its": the name takes "'s"


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word


def find_bridge(text: str) -> Bridge | None:
    """The pronoun or description in the sentence's subject slot, or None."""
    m = _PRONOUN.match(text)
    if m is not None:
        if m.group("bridge").lower() != "its" and _IMPERSONAL.match(text[m.end("bridge"):]):
            return None
        if m.group("poss") and m.group("bridge").lower() == "it":
            return None  # "it's ...": contracted "it is", too often impersonal to bind
        if m.group("noun"):  # "this method", "the function": a description by kind
            return Bridge(m.start("bridge"), m.end("bridge"), "description", (m.group("noun").lower(),))
        return Bridge(m.start("bridge"), m.end("bridge"), "pronoun", possessive=m.group("bridge").lower() == "its")
    m = _DESCRIPTION.match(text)
    if m is None:
        return None
    if m.group("det").lower() in ("this", "these", "that", "those") and _STATEMENT.match(text[m.end("det"):]):
        return None  # "This is not a bug": the preceding statement, not an API
    if m.group("det").lower() in ("this", "that") and _VERB_S.match(text[m.end("det"):]):
        return None  # "this works", "this returns ...": a pronoun for the statement before, then its verb
    words: list[str] = []
    at = m.end()
    for _ in range(3):  # "the store", "the disk store", "the ttl cache entry"
        w = _WORD.match(text, at)
        if w is None:
            return None
        words.append(w.group(1))
        end = w.end(1)
        rest = text[w.end():]
        plural = m.group("det").lower() in ("these", "those", "two") or w.group(1).lower().endswith("s")
        if w.group(2) or _AUX.match(rest) or _VERB_S.match(rest) or (plural and _PLURAL_VERB.match(rest)):
            return Bridge(m.start("det"), end, "description", tuple(_singular(x.lower()) for x in words))
        at = w.end()
        while at < len(text) and text[at] == " ":
            at += 1
    return None


# A reference entry's terse sentence with no subject at all, in the wording reference docs use
# for what a callable gives back or lets out ("Returns a list.", "Raises ``KeyError`` if ...",
# PEP 257's "Return ..."): any other capitalised word may be a plural noun ("Handlers run ...").
_SUBJECTLESS = re.compile(r"^\W*(?P<verb>(?:Returns?|Raises?|Yields?|Accepts|Defaults\s+to))\s+(?!(?:is|are|was|were)\b)")


def find_subjectless(text: str) -> Bridge | None:
    """A sentence opening on a third-person verb ("Returns ...") with no subject: only an
    owner-like context (a table row, a heading, a directive, a docstring) may supply one."""
    m = _SUBJECTLESS.match(text)
    if m is None or find_bridge(text) is not None:
        return None
    return Bridge(m.start("verb"), m.start("verb"), "subjectless")


def rewrite(text: str, bridge: Bridge, name: str) -> str:
    """The sentence with its subject named: ``It returns`` -> ```load` returns``."""
    if bridge.kind == "subjectless":
        at = bridge.start
        return f"{text[:at]}`{name}` {text[at].lower()}{text[at + 1:]}"
    poss = "'s" if bridge.possessive else ""
    return f"{text[:bridge.start]}`{name}`{poss}{text[bridge.end:]}"
