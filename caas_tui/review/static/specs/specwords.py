"""Two statements of one rule that cannot both hold, read from their words alone: a claim
and the upstream sentence it restates (``upstream.best_sentence``) that give the same
subject opposite properties ("case-sensitive" / "case-insensitive", "idempotent" / "not
idempotent"), or that list the members of one set differently (``GET, HEAD, POST`` where
the page lists ``GET, HEAD, PUT``).

Both are decided only on definite statements: a clause with a hedge, a condition or a
permission ("may", "unless", "typically") is no rule, and a page's list introduced as
examples ("such as", "including") is not the whole set.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from caas_tui.review.static.wording.words import content_stems, same_word

# Opposite properties. The second of a pair is also what a negated first one reads as
# ("not idempotent"); pairs that share a word ("required"/"optional", "mandatory"/"optional")
# are listed apart.
_OPPOSITES: tuple[tuple[str, str], ...] = (
    ("case-sensitive", "case-insensitive"),
    ("idempotent", "non-idempotent"),
    ("safe", "unsafe"),
    ("cacheable", "non-cacheable"),
    ("required", "optional"),
    ("mandatory", "optional"),
    ("inclusive", "exclusive"),
    ("synchronous", "asynchronous"),
    ("blocking", "non-blocking"),
    ("ascending", "descending"),
    ("mutable", "immutable"),
    ("signed", "unsigned"),
    ("encrypted", "unencrypted"),
    ("ordered", "unordered"),
    ("deterministic", "non-deterministic"),
    ("allowed", "forbidden"),
    ("permitted", "forbidden"),
    ("allowed", "prohibited"),
    ("permitted", "prohibited"),
    ("supported", "unsupported"),
    ("supported", "rejected"),
    ("accepted", "rejected"),
    ("allowed", "rejected"),
    ("valid", "invalid"),
)
_SPELLINGS = (
    (re.compile(r"\bcase[\s-]+(in)?sensitive\b", re.IGNORECASE), lambda m: f"case-{m.group(1) or ''}sensitive"),
    (re.compile(r"\bnon[\s-]?(idempotent|cacheable|blocking|deterministic)\b", re.IGNORECASE),
     lambda m: f"non-{m.group(1).lower()}"),
    (re.compile(r"\bun-?cacheable\b", re.IGNORECASE), lambda m: "non-cacheable"),
    (re.compile(r"\bdisallowed\b", re.IGNORECASE), lambda m: "forbidden"),
)
_NEGATED = re.compile(
    r"\b(?:not|never|isn't|aren't|no\s+longer)\s+(?:be\s+|always\s+|considered\s+|treated\s+as\s+)?([\w-]+)",
    re.IGNORECASE,
)
# A clause that states no definite rule: a hedge, a condition, a permission or a recommendation.
_INDEFINITE = re.compile(
    r"\b(?:may|might|can|could|should|unless|except|if|whether|either|typically|usually|often|generally|"
    r"sometimes|recommended|optionally|depending|some|certain|most)\b",
    re.IGNORECASE,
)
# Clauses a rule can sit in; a colon or brackets introduce the rule's own list, so they stay.
_CLAUSE = re.compile(r";|,?\s+\b(?:but|while|whereas|although|though)\b|\s[—–]\s")
_WORD = re.compile(r"(?<![\w-])[a-z][\w-]*(?![\w-])")


@dataclass(frozen=True, slots=True)
class Conflict:
    ours: str  # what the claim says ("case-sensitive", "POST")
    theirs: str  # what the page says instead
    kind: str  # opposite | list (a member the page's set lacks) | subset (members left out) | none | defined | unit
    # | forbidden (the page says it must not happen) | quantifier (both / at least one) | excluded, negated
    # (``specpolarity``: a member set apart from one the page lists with it; the opposite polarity)


def _normalised(clause: str) -> str:
    text = clause
    for pattern, repl in _SPELLINGS:
        text = pattern.sub(repl, text)

    def negate(m: re.Match[str]) -> str:
        word = m.group(1).lower()
        flipped = next((b for a, b in _OPPOSITES if a == word), None)
        return flipped if flipped is not None else m.group(0)

    return _NEGATED.sub(negate, text).lower()


def clauses(text: str) -> list[str]:
    """The clauses a rule can sit in."""
    return [c.strip() for c in _CLAUSE.split(text) if c and c.strip()]


def _properties(clause: str) -> set[str]:
    words = set(_WORD.findall(_normalised(clause)))
    return {w for pair in _OPPOSITES for w in pair if w in words}


def _subject(clause: str, drop: set[str]) -> set[str]:
    dropped = {s for w in drop for s in content_stems(w)}
    return content_stems(clause) - dropped


def opposite(claim: str, sentence: str) -> Conflict | None:
    """The claim gives something a property the page's sentence gives it the opposite of."""
    for ours in clauses(claim):
        if _INDEFINITE.search(ours):
            continue
        mine = _properties(ours)
        for theirs in clauses(sentence):
            if _INDEFINITE.search(theirs):
                continue
            other = _properties(theirs)
            for a, b in _OPPOSITES:
                for x, y in ((a, b), (b, a)):
                    if x in mine and y in other and y not in mine and x not in other \
                            and _subject(ours, {a, b}) & _subject(theirs, {a, b}):
                        return Conflict(x, y, "opposite")
    return None


_ITEM = r"(?:`[^`\s]+`|\b[A-Z][A-Z0-9_-]+\b|(?<![\w.])\d+(?!\w|\.\d))"
_LIST = re.compile(rf"{_ITEM}(?:\s*(?:,|/|,?\s+(?:and|or))\s*{_ITEM})+")
_EXAMPLES = re.compile(r"(?:such\s+as|e\.g\.,?|for\s+example|including|like|among|include[sd]?)\s*:?\s*$",
                       re.IGNORECASE)
_OPEN_END = re.compile(r"^\s*(?:,?\s*(?:etc\.?|\.\.\.|…|and\s+(?:so\s+on|others|more)))", re.IGNORECASE)
_EXCLUDING = re.compile(r"\b(?:not|never|no|except|other\s+than|besides|excluding|unlike|without)\b", re.IGNORECASE)
_ONLY = re.compile(r"\bonly\b", re.IGNORECASE)


def _items(text: str) -> set[str]:
    return {t.strip("`") for t in re.findall(_ITEM, text)}


def _longest_list(clause: str) -> tuple[set[str], str, str] | None:
    lists = list(_LIST.finditer(clause))
    if not lists:
        return None
    m = max(lists, key=lambda x: len(_items(x.group(0))))
    return _items(m.group(0)), clause[: m.start()], clause[m.end():]


def listed(claim: str, sentence: str) -> Conflict | None:
    """The claim's list of a set's members has one the page's complete list of that set
    lacks (or, said to be the only ones, leaves out some)."""
    for ours in clauses(claim):
        mine = _longest_list(ours)
        if mine is None or _EXCLUDING.search(mine[1]) or _INDEFINITE.search(ours):
            continue
        for theirs in clauses(sentence):
            other = _longest_list(theirs)
            if other is None or _EXCLUDING.search(theirs) or _INDEFINITE.search(theirs):
                continue
            if _EXAMPLES.search(other[1]) or _OPEN_END.match(other[2]):
                continue
            a, b = mine[0], other[0]
            # the same set: two members and two words of what it is ("idempotent methods") in common
            if len(a & b) < 2 or len(_subject(ours, a) & _subject(theirs, b)) < 2:
                continue
            extra = sorted(a - b, key=_order)
            if extra:
                return Conflict(", ".join(extra), ", ".join(sorted(b, key=_order)), "list")
            if b - a and (_ONLY.search(mine[1]) or all(x.isdigit() for x in a | b) and not _EXAMPLES.search(mine[1])):
                # "only GET and HEAD", or the values a rule gives ("fires at minutes 15, 30 and 45"): the whole set
                return Conflict(", ".join(sorted(a, key=_order)), ", ".join(sorted(b, key=_order)), "subset")
    return None


def _order(item: str) -> tuple[int, int, str]:
    return (0, int(item), "") if item.isdigit() else (1, 0, item)


_CODE_SPAN = re.compile(r"(`+)([^`]+)\1")


def _literals(clause: str) -> set[str]:
    return {m.group(2).strip() for m in _CODE_SPAN.finditer(clause) if len(m.group(2).strip()) >= 2}


def _words_only(clause: str) -> str:
    return _CODE_SPAN.sub(" X ", clause)


def literal_opposite(claim: str, sentence: str) -> Conflict | None:
    """A clause of each about the same code literal (```\\r\\n``` ... is rejected / is supported)
    that gives it opposite properties."""
    for ours in clauses(claim):
        lits = _literals(ours)
        if not lits or _INDEFINITE.search(_words_only(ours)):
            continue
        mine = _properties(_words_only(ours))
        for theirs in clauses(sentence):
            if not lits & _literals(theirs) or _INDEFINITE.search(_words_only(theirs)):
                continue
            other = _properties(_words_only(theirs))
            for a, b in _OPPOSITES:
                for x, y in ((a, b), (b, a)):
                    if x in mine and y in other and y not in mine and x not in other:
                        return Conflict(x, y, "opposite")
    return None


_THERE_IS_NO = re.compile(r"\bthere\s+(?:is|are|exists?)\s+no\s+([^.;,:]+)", re.IGNORECASE)


def no_such(claim: str, sentence: str) -> Conflict | None:
    """The page says there is no X (two words at least: "no backslash escape"); the claim,
    with no negation of its own, tells the reader to use every word of X."""
    for m in _THERE_IS_NO.finditer(_words_only(sentence)):
        thing = content_stems(m.group(1))
        if len(thing) < 2:
            continue
        for ours in clauses(claim):
            text = _words_only(ours)
            if _EXCLUDING.search(text) or _INDEFINITE.search(text) or "n't" in text:
                continue
            words = content_stems(text)
            if all(any(same_word(t, w) for w in words) for t in thing):
                return Conflict(" ".join(m.group(1).split()), "none", "none")
    return None


_NUMBER_WORDS = r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|\d+(?:\.\d+)?)"
_DEFINED = re.compile(rf"(`+)([^`]+)\1\s+(?:is|means|equals|denotes|stands\s+for)\s+({_NUMBER_WORDS}\s+[A-Za-z]+)",
                      re.IGNORECASE)


def distinctive(literal: str) -> bool:
    """A code literal that names one thing wherever it is written (``P1M``, ``\\r\\n``,
    ``*/15``), not a word or a number any page may use (``GET``, ``None``, ``0``)."""
    return len(literal) >= 2 and not literal.isalpha() and not literal.isdigit()


def _definitions(text: str) -> dict[str, str]:
    return {m.group(2).strip(): " ".join(m.group(3).lower().split()) for m in _DEFINED.finditer(text)}


def defined(claim: str, sentence: str) -> Conflict | None:
    """The claim and the page say what one code literal amounts to, as a quantity of
    different things: "``P1M`` is one minute" where the page says "`P1M` is one month"."""
    theirs = _definitions(sentence)
    for literal, amount in _definitions(claim).items():
        other = theirs.get(literal)
        if other is not None and not same_word(_unit(amount), _unit(other)):
            return Conflict(f"`{literal}` is {amount}", f"`{literal}` is {other}", "defined")
    return None


def _unit(amount: str) -> str:
    noun = amount.rsplit(" ", 1)[-1]
    return next(iter(content_stems(noun)), noun)


# Units named without a number ("given in milliseconds", "a number of seconds"): one family each.
_UNIT_WORDS = {
    **dict.fromkeys(("nanoseconds", "microseconds", "milliseconds", "seconds", "minutes", "hours", "days"), "time"),
    **dict.fromkeys(("bytes", "octets", "kilobytes", "megabytes", "bits"), "size"),
    **dict.fromkeys(("degrees", "radians"), "angle"),
}
_UNIT = re.compile(r"\b(" + "|".join(_UNIT_WORDS) + r")\b", re.IGNORECASE)
_SAME_UNIT = {"octets": "bytes"}


def unit_word(claim: str, sentence: str) -> Conflict | None:
    """The claim and the page give one value different units of the same kind, neither with a
    number (numbers are ``units.quantities``' job): "in milliseconds" / "a number of seconds"."""
    def units(text: str) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for m in _UNIT.finditer(text):
            word = m.group(1).lower()
            out.setdefault(_UNIT_WORDS[word], set()).add(_SAME_UNIT.get(word, word))
        return out

    if re.search(r"\d", _words_only(claim) + _words_only(sentence)) or _INDEFINITE.search(_words_only(claim)):
        return None
    mine, theirs = units(_words_only(claim)), units(_words_only(sentence))
    for family in sorted(set(mine) & set(theirs)):
        if len(mine[family]) == 1 and len(theirs[family]) == 1 and mine[family] != theirs[family]:
            return Conflict(next(iter(mine[family])), next(iter(theirs[family])), "unit")
    return None


_FORBIDS = re.compile(r"\b(?:MUST\s+NOT|must\s+not|cannot|can\s*not|never|is\s+not|are\s+not|does\s+not|do\s+not)"
                      r"\s+(?:be\s+|ever\s+)?(\w+)([^.;]{0,40})")
_MARKS = re.compile(r"(?<![\w.])(?:\d{2,}|[A-Z]{2,}[\w-]*)(?![\w.])")
_AUX = re.compile(r"\b(?:not|never|no|cannot|n't|without|unless|except)\b", re.IGNORECASE)


def forbidden(claim: str, sentence: str) -> Conflict | None:
    """The page rules something out ("a 304 response MUST NOT contain a body") that the claim,
    with no negation or hedge of its own, says happens ("the 304 response contains the body")."""
    for theirs in clauses(_words_only(sentence)):
        if _INDEFINITE.search(theirs):
            continue
        for m in _FORBIDS.finditer(theirs):
            verb = content_stems(m.group(1))
            objects = set(sorted(content_stems(m.group(2)), key=m.group(2).lower().find)[:4])
            subject = content_stems(theirs[: m.start()])
            marks = set(_MARKS.findall(theirs[: m.start()]))  # "304", "HEAD": the subject's own names
            if not verb or not objects or not subject:
                continue
            for ours in clauses(_words_only(claim)):
                if _AUX.search(ours) or _INDEFINITE.search(ours):
                    continue
                words = content_stems(ours)

                def has(stems: set[str], words: set[str] = words) -> bool:
                    return any(same_word(a, b) for a in stems for b in words)

                if all(has({v}) for v in verb) and has(objects) and has(subject) \
                        and marks <= set(_MARKS.findall(ours)):
                    return Conflict(" ".join(ours.split()), " ".join(theirs[m.start():].split()), "forbidden")
    return None


_ALL = re.compile(r"\b(?:both|all\s+of\s+them|each\s+of\s+them|every\s+one)\b", re.IGNORECASE)
_ANY = re.compile(r"\b(?:at\s+least\s+one(?:\s+of)?|either\s+of|any\s+one\s+of|one\s+or\s+(?:the\s+other|both))\b",
                  re.IGNORECASE)


def quantifier(claim: str, sentence: str) -> Conflict | None:
    """One requires all of several things ("must match both"), the other any one of them
    ("when at least one of the two day fields matches"), about the same things (two words
    in common besides the quantifiers)."""
    ours, theirs = _words_only(claim), _words_only(sentence)
    if _INDEFINITE.search(ours) or _INDEFINITE.search(theirs):
        return None
    for mine, other, a, b in ((_ALL, _ANY, "all of them", "any one of them"), (_ANY, _ALL, "any one of them",
                                                                                "all of them")):
        if mine.search(ours) and other.search(theirs) and not other.search(ours) and not mine.search(theirs) \
                and len(content_stems(ours) & content_stems(theirs)) >= 3:
            return Conflict(a, b, "quantifier")
    return None

