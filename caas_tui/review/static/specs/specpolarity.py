"""Two statements of one rule that differ in polarity, read from their words alone: a claim
that sets apart a member the upstream sentence lists with another ("commas, but not line
breaks" / "fields containing line breaks, double quotes, and commas"), and a claim that is
the page's sentence with a negation added or dropped.

Both are decided only on definite statements, as in ``specwords``: a clause with a
condition, an example or a weakening modal verb states no rule to contradict.
"""

from __future__ import annotations

import re

from caas_tui.review.static.specs.specwords import Conflict, clauses
from caas_tui.review.static.wording.words import content_stems, same_word

_EXCLUDING = re.compile(r"\b(?:not|never|no|except|other\s+than|besides|excluding|unlike|without)\b", re.IGNORECASE)

# "commas, but not line breaks": a member the claim sets apart from another.
_BUT_NOT = re.compile(r"\b([a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s*,?\s+(?:but|and)\s+not\s+([a-z][\w-]*(?:\s+[a-z][\w-]*){0,2})"
                      r"(?=\s*(?:[,.;:)]|$))", re.IGNORECASE)
_SOME = re.compile(r"\b(?:such\s+as|e\.g\.|for\s+example|for\s+instance|including|like|among|some)\b", re.IGNORECASE)
_PHRASE = r"[\w`'\"-]+(?:\s+[\w`'\"-]+){0,2}(?:\s*\([^()]{1,20}\))?"
_WORD_LIST = re.compile(rf"{_PHRASE}(?:\s*,\s*{_PHRASE})+\s*,?\s+(?:and|or)\s+[\w`'\"-]+(?:\s+[\w`'\"-]+)?", re.IGNORECASE)


def _phrase_in(phrase: str, region: str) -> bool:
    """Every content word of ``phrase`` is a word of ``region``."""
    mine = content_stems(phrase)
    theirs = content_stems(region)
    return bool(mine) and all(any(same_word(a, b) for b in theirs) for a in mine)


def excluded(claim: str, sentence: str) -> Conflict | None:
    """The claim admits one member and rules out another ("may contain commas, but not line
    breaks") that the page's sentence lists in one set with it ("fields containing line
    breaks, double quotes, and commas"): the page treats the two alike."""
    if _EXCLUDING.search(sentence):
        return None  # the page sets members apart itself
    for m in _BUT_NOT.finditer(claim):
        kept = m.group(1).split()[-1]
        left_out = m.group(2)
        if not content_stems(kept) or not content_stems(left_out):
            continue
        for region in _WORD_LIST.findall(sentence):
            if _SOME.search(sentence[: sentence.find(region) + len(region)]):
                continue  # "such as a, b and c": examples, not the set
            if _phrase_in(kept, region) and _phrase_in(left_out, region):
                return Conflict(left_out, kept, "excluded")
    return None


_NEGATION = re.compile(r"\b(?:not|never|no|cannot|nor|without|none)\b|n't\b", re.IGNORECASE)
# Modal verbs that weaken a rule; "must", "shall" and "will" state it as plainly as "is".
_MODAL = re.compile(r"\b(?:may|might|can|could|should|would)\b", re.IGNORECASE)
_CONDITION = re.compile(r"\b(?:if|unless|when|whenever|except|only|until|while|whether|either|or|typically|usually|"
                        r"often|generally|sometimes|some|most|e\.g|example|such\s+as)\b", re.IGNORECASE)
_POLARITY_STOP = frozenset({"not", "never", "no", "cannot", "nor", "without", "none", "can", "must", "shall",
                            "need", "does", "do", "is", "are", "will", "be"})


def negated(claim: str, sentence: str) -> Conflict | None:
    """The claim says what the page's sentence says, with the opposite polarity ("quoted fields
    may not contain line breaks" / "quoted fields may contain line breaks"): nearly all content
    words shared, the same modal verbs, no condition on either side, and an odd number of
    negations between them."""
    for ours in clauses(claim):
        if _CONDITION.search(ours):
            continue
        mine = content_stems(ours) - _POLARITY_STOP
        for theirs in clauses(sentence):
            if _CONDITION.search(theirs):
                continue
            other = content_stems(theirs) - _POLARITY_STOP
            shared = {a for a in mine if any(same_word(a, b) for b in other)}
            if len(shared) < 3 or len(shared) < 0.8 * max(len(mine), len(other)):
                continue
            if {m.lower() for m in _MODAL.findall(ours)} != {m.lower() for m in _MODAL.findall(theirs)}:
                continue
            if (len(_NEGATION.findall(ours)) + len(_NEGATION.findall(theirs))) % 2:
                said = "negates" if _NEGATION.search(ours) else "drops the negation of"
                return Conflict(said, theirs.strip(), "negated")
    return None


# Requirement levels (RFC 2119 and their everyday spellings), strongest first within each
# polarity; "may not" reads as either "must not" or "might not", so it states no level.
_LEVELS = (
    ("forbidden", re.compile(r"\b(?:must|shall)\s+(?:not|never)\b|\b(?:mustn't|shan't)\b|"
                             r"\bis\s+(?:not\s+allowed|forbidden|prohibited)\s+(?:to|from)\b", re.IGNORECASE)),
    ("required", re.compile(r"\b(?:must|shall)\b|\bis\s+required\s+to\b|\bREQUIRED\b|\b(?:has|have)\s+to\b",
                            re.IGNORECASE)),
    ("discouraged", re.compile(r"\bshould\s+(?:not|never)\b|\bshouldn't\b|\bNOT\s+RECOMMENDED\b")),
    ("recommended", re.compile(r"\bshould\b|\bRECOMMENDED\b", re.IGNORECASE)),
    ("optional", re.compile(r"\b(?:may|can|might)\b|\bOPTIONAL\b|\bis\s+(?:allowed|permitted)\s+to\b", re.IGNORECASE)),
)
_AMBIGUOUS_LEVEL = re.compile(r"\b(?:may|might|can)\s+not\b|\bcannot\b|\bcan't\b", re.IGNORECASE)
_CLASHES = frozenset({("forbidden", "optional"), ("forbidden", "recommended"), ("forbidden", "required"),
                      ("required", "optional"), ("required", "discouraged"), ("required", "forbidden")})
_LEVEL_WORDS = _POLARITY_STOP | {"may", "might", "should", "shall", "required", "optional", "recommended", "allowed",
                                 "permitted", "has", "have", "forbidden", "prohibited"}


def level(clause: str) -> str | None:
    """The one requirement level a clause states ("MUST NOT" -> forbidden), or None."""
    if _AMBIGUOUS_LEVEL.search(clause):
        return None
    found: list[str] = []
    rest = clause
    for name, pattern in _LEVELS:
        if pattern.search(rest):
            found.append(name)
            rest = pattern.sub(" ", rest)
    return found[0] if len(found) == 1 else None


def requirement(claim: str, sentence: str) -> Conflict | None:
    """The claim restates the page's rule at a requirement level that contradicts it: "a
    client may resend ..." where the page says "a client MUST NOT resend ...", "may send"
    where it says "MUST send". Both clauses must state a level, share nearly all content
    words and carry no condition."""
    for ours in clauses(claim):
        mine_level = level(ours)
        if mine_level is None or _CONDITION.search(ours):
            continue
        mine = content_stems(ours) - _LEVEL_WORDS
        for theirs in clauses(sentence):
            their_level = level(theirs)
            if their_level is None or (their_level, mine_level) not in _CLASHES or _CONDITION.search(theirs):
                continue
            other = content_stems(theirs) - _LEVEL_WORDS
            shared = {a for a in mine if any(same_word(a, b) for b in other)}
            if len(shared) >= 3 and len(shared) >= 0.8 * max(len(mine), len(other)):
                return Conflict(mine_level, their_level, "requirement")
    return None
