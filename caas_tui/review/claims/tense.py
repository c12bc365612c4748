"""Claims about an API's past or future rather than its present.

"``pkg.ext.x`` was extracted to another package" says the name is gone; it is true exactly
when the name does not exist now, so a missing name in it is no contradiction. The cues are
grammatical, not a list of one project's phrases: removal, relocation and renaming verbs in
a perfect or passive past ("was moved into", "has been dropped", "got split out"), adverbs
of time ("formerly", "previously", "no longer", "used to"), announcements of a future, and
the reST version-note directives a sentence sits in (``deprecated``, ``versionchanged``,
``versionremoved``; not ``versionadded``: what was added must exist). "No longer" is about
the API only when the API is its clause's subject ("`x` is no longer needed"); as a
consequence ("removes it at once, so the systems no longer see it") or said of something
else ("the crate no longer shows up") it describes what the code does now.
"""

from __future__ import annotations

import re

# Verbs that move a name away from where it was, or end it.
_GONE_VERBS = (
    r"extract|integrat|merg|mov|relocat|transferr?|migrat|split|spun|spin|fold|absorb|renam|remov|drop|delet"
    r"|deprecat|replac|supersed|retir|discontinu|unbundl|vendor|obsolet|withdr[ae]w|eliminat|excis|purg|abandon"
)
# A past participle of one of them: "extracted", "dropped", "split", "withdrawn".
_PARTICIPLE = rf"(?:(?:{_GONE_VERBS})\w*ed|split|spun|withdrawn)"
# "was extracted to", "were merged into", "has been removed", "got split out", "is now moved to"
_PERFECT = re.compile(
    rf"\b(?:was|were|has|have|had|got|is\s+now|are\s+now)\s+(?:\w+ly\s+|been\s+|now\s+|since\s+)*{_PARTICIPLE}\b",
    re.IGNORECASE,
)
# "moved to", "renamed to", "deprecated since", "removed in 2.0", "in favour of" -- unless a present
# passive ("the entry is moved to the front") describes what the code does now.
_BARE = re.compile(rf"\b{_PARTICIPLE}\s+(?:to|into|in|since|from|out|off|away|as\s+of)\b|\bin\s+favou?r\s+of\b",
                   re.IGNORECASE)
_PRESENT_PASSIVE = re.compile(r"\b(?:is|are|be|being|gets|get)\s+(?:\w+ly\s+)?$", re.IGNORECASE)
# A word that puts a sentence in the past or future by itself.
HISTORY_CUE = re.compile(
    r"(?<!\w)(?:removed|deprecated|deprecation|renamed|no\s+longer|used\s+to|formerly|previously|was\s+replaced"
    r"|were\s+replaced|legacy|obsolete|will\s+be|planned|not\s+yet|in\s+the\s+future|todo|before:|old\s+api"
    r"|migrat\w*|versionchanged|versionremoved)(?!\w)",
    re.IGNORECASE,
)
# The old name lives on: "is kept as a deprecated alias", "still imports", "remains available".
SURVIVES = re.compile(
    r"\b(?:is|are)\s+(?:still\s+)?kept\b|\bstill\s+(?:imports?|works?|exists?|resolves?|available|importable)\b"
    r"|\b(?:remains?|stays?)\s+(?:available|importable|as\s+an?\s+alias)\b|\bdeprecated\s+alias\b",
    re.IGNORECASE,
)
# ``rst.py`` prefixes the context of a version note's blocks with the directive's name.
_VERSION_NOTE = re.compile(r"^\s*(deprecated|versionchanged|versionremoved)\b", re.IGNORECASE)


_NO_LONGER = re.compile(r"no\s+longer", re.IGNORECASE)
# What joins a consequence to its cause in one sentence: a comma or clause mark, "so", "and".
_CONSEQUENCE = re.compile(r"[,;:\u2014\u2013]|\b(?:so|and|then|thus|hence|therefore|which|that|who|where)\b",
                          re.IGNORECASE)
_SENTENCE_START = re.compile(r"[.!?](?:\s+|$)")
# The API as subject: a code name or role, or a pronoun standing for the documented symbol.
_API_SUBJECT = re.compile(r"`|:\w+:|^\W*(?:it|this|they|these|this\s+\w+)\b", re.IGNORECASE)


def _about_api(text: str, at: int) -> bool:
    """Whether the "no longer" at ``at`` says what the API stopped doing, not a consequence
    or something else's state; the clause before it, from the sentence's start, decides."""
    start = max((m.end() for m in _SENTENCE_START.finditer(text, 0, at)), default=0)
    clause = text[start:at]
    if not clause.strip(" *_>#-"):
        return True  # "No longer needed."
    return not _CONSEQUENCE.search(clause) and bool(_API_SUBJECT.search(clause))


# Cue words that are also plain verbs of the code's behaviour: "the entries it removed", "a
# `KeyError` will be raised". They mark history only in a changelog's shape or with a version.
_VERB_CUE = re.compile(r"removed|will\s+be", re.IGNORECASE)
# "will be removed", "will be renamed in 3.0", "will be added": the API's future, not its behaviour.
_FUTURE_API = re.compile(
    rf"\s+(?:\w+ly\s+)?(?:{_PARTICIPLE}|added|introduced|available|supported|released|changed|made\b)",
    re.IGNORECASE,
)
# "`foo` removed." / "`foo`: removed" -- a changelog entry naming what went.
_NAME_THEN_CUE = re.compile(r"`\s*:?\s*$")


def _verb_cue_is_history(text: str, m: re.Match[str]) -> bool:
    """Whether a verb-like cue ("removed", "will be") at ``m`` dates the API rather than
    describing what the code does."""
    if m.group(0).lower().startswith("will"):
        return bool(_FUTURE_API.match(text, m.end()))
    start = max((s.end() for s in _SENTENCE_START.finditer(text, 0, m.start())), default=0)
    before = text[start:m.start()]
    return not before.strip(" *_>#-") or bool(_NAME_THEN_CUE.search(before))


# "returns True once everything was removed": a passive past inside a condition clause says when
# the code does something, not what happened to the API -- unless the API is that clause's subject.
_CONDITION = re.compile(r"\b(?:once|when|whenever|after|until|unless|if|as\s+soon\s+as)\b([^`.;:]*)$", re.IGNORECASE)


def _in_condition(text: str, at: int) -> bool:
    start = max((s.end() for s in _SENTENCE_START.finditer(text, 0, at)), default=0)
    return bool(_CONDITION.search(text[start:at]))


def speaks_of_past(text: str) -> bool:
    """True when ``text`` talks about what the API was (or will be), not what it is."""
    if any(not _in_condition(text, m.start()) for m in _PERFECT.finditer(text)):
        return True
    for m in HISTORY_CUE.finditer(text):
        if _VERB_CUE.fullmatch(m.group(0)):
            if _verb_cue_is_history(text, m):
                return True
            continue
        if not _NO_LONGER.fullmatch(m.group(0)) or _about_api(text, m.start()):
            return True
    return any(not _PRESENT_PASSIVE.search(text[: m.start()]) for m in _BARE.finditer(text))


def in_version_note(context: str) -> str | None:
    """The version-note directive (``deprecated`` ...) a claim's context says it sits in."""
    m = _VERSION_NOTE.match(context)
    return m.group(1).lower() if m else None


def past_reason(text: str, context: str = "") -> str | None:
    """Why a claim is about the API's past or future, or None when it is about the present."""
    note = in_version_note(context)
    if note is not None:
        return f"a `{note}` note: it is about the API's past, so the names it mentions need not exist now"
    if speaks_of_past(text):
        return "a note about the API's past or future (removed, moved, renamed ...): the names it mentions " \
               "need not exist now"
    return None
