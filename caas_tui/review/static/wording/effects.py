"""What a claim states about order, selection, state and conditions, beyond the kinds of
assertion a check can cover.

"`Scene.active_entities`, a snapshot tuple of the scene's entities" states that nothing
is left out; "`find` returns the first match" states an order; "`asset_uri` builds a URI
in the `app` package unless you pass `package=`" states a condition. A names check that
finds the symbol covers none of that, so such a word (kind ``effect``) keeps the claim
from ``consistent`` until a check covers it: a wrong green costs the writer more than a
missing one. What a clause says a named symbol does ("`Cache.put` stores a value under a
key", kind ``action``) is asserted the same way: the verb is one no check reads, so only
the names in it were checked (README, "What each label promises"). Pure text work.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import parse_field
from caas_tui.review.static.wording.assertions import QUANTITY, RANGE, SCALE, TAKES, text_kinds

# Order, selection, state, lifecycle, scope, equivalence, absence, time zones and units: asserted
# wherever they appear (a unit with a number is a ``value``, judged as one). "because" states a
# cause, which no check reads, not even a raise check ("raises `E` because of the spaces").
_ALWAYS = frozenset(str.split("""
first last oldest newest latest earliest sorted sorts sort order ordered ordering ascending descending reverse
reversed insertion nearest closest highest lowest smallest largest priority previous preceding
skip skips skipped skipping exclude excludes excluded excluding except ignore ignores ignored ignoring filter
filters filtered filtering omit omits omitted discard discards discarded drop drops dropped subset duplicate
duplicates unique distinct
enabled disabled active inactive pending snapshot copy copies copied mutate mutates mutated modify modifies
modified unchanged untouched preserve preserves preserved intact live lazily lazy eagerly deferred defers queued
insensitive sensitive case-insensitive case-sensitive
before after until between during later
shared across global separate separately independent independently reused reuse thread-safe
close closes closed reset resets cleared persist persists persisted kept keeps retained expire expires expired
equivalent identical alias implies
without nothing
atomic atomically utc gmt timezone locale blocking non-blocking concurrently parallel recursively recursive
temporary temporarily permanently
because
seconds milliseconds microseconds nanoseconds minutes hours days bytes kilobytes megabytes percent degrees radians
epoch
"""))
# Conditions: a return, raise, default or behaviour check reads the condition of its own
# clause ("returns None when it is missing"); in any other claim nothing does.
_EMPTY_VALUE = re.compile(r"\ban?\s+empty\s+(?:list|dict|dictionary|mapping|set|tuple|string|str)\b", re.IGNORECASE)
_STATE_DEFAULT = re.compile(r"\b(?:enabled|disabled|active|inactive)\s+by\s+default\b|\bdefaults?\s+to\s+"
                            r"(?:enabled|disabled|active|inactive)\b", re.IGNORECASE)
_CONDITIONS = frozenset(str.split("if unless when whenever while provided empty zero negative missing absent"))
_OWNERS = frozenset({"returns", "raises", "kind"})
_WORD = re.compile(r"[A-Za-z][A-Za-z-]*[A-Za-z]")
_ROLE = re.compile(r":[\w:-]+:`[^`]*`|\{[\w:-]+\}`[^`]*`")
_SPAN = re.compile(r"(`+)(.+?)\1")
_FOLLOWING = re.compile(r"\b(?:the\s+)?(?:first|last)\s+(?:example|step|section|time|one)s?\b", re.IGNORECASE)


def effect_words(claim: Claim, asserted: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Words of ``claim``'s prose stating an order, selection, state or condition, in
    order (none for code); ``asserted``: the claim's other kinds (they own conditions)."""
    if claim.kind == "code":
        return []
    text = claim.text
    fact = parse_field(text) if claim.kind == "field" else None
    if fact is not None:
        text = fact.desc
    prose = _SPAN.sub(" ", _ROLE.sub(" ", text))
    prose = _FOLLOWING.sub(" ", re.sub(r"https?://\S+", " ", prose))
    # "30 seconds", "0 to 100", "in percent": a stated quantity, range or scale, kind ``value``
    prose = SCALE.sub(" ", RANGE.sub(" ", QUANTITY.sub(" ", prose)))
    prose = _EMPTY_VALUE.sub(" ", prose)  # "an empty list" is a value; "when the list is empty" a condition
    prose = _STATE_DEFAULT.sub(" ", prose)  # "disabled by default": the default's value (kind ``default``)
    owned = bool(asserted & _OWNERS)
    out: list[str] = []
    for word in _WORD.findall(prose):
        low = word.lower()
        if (low in _ALWAYS or (low in _CONDITIONS and not owned)) and low not in out:
            out.append(low)
    return out


@dataclass(frozen=True, slots=True)
class Action:
    """What a claim says ``subject`` does: ``Action("Cache.put", "stores a value under a key")``.
    A sentence with no subject of its own is about its docstring's owner or its heading's
    name; ``subject`` is empty when neither names one."""

    subject: str
    phrase: str
    joined: bool = False  # a verb joined to a judged one ("returns `None` and logs a warning")
    span: tuple[int, int] = field(default=(0, 0), compare=False)  # the clause's offsets in the claim


# Verbs of the kinds a check covers (returns, raises, defaults, parameters, type and kind,
# location, calls, bases) and of being and having: what a clause with one of them says is
# judged, or left to ``behaviour``, as that kind.
_COVERED = frozenset(str.split("""
return returns returned returning yield yields yielded give gives evaluate evaluates raise raises raised throw throws
default defaults take takes accept accepts require requires expect expects need needs
is are was were be been being becomes become equals has have had do does did get gets got
live lives defined
call calls called invoke invokes invoked subclass subclasses inherit inherits extend extends derive derives
"""))
_TAKING = frozenset({"takes", "accepts"})
# Nouns naming a kind of code object: "the `get` method stores", and "`Cache` objects are ..."
# (a plural noun after a name, not a verb).
_CODE_NOUN = (r"method|function|class|call|helper|property|attribute|decorator|module|package|object|instance|"
              r"constructor|command|hook|callback|field|option|argument|parameter|setting|key|value|type|test|"
              r"doc|error|exception|event|entr(?:y|ie)|item|record|row|line|file|name|part|member")
_CODE_NOUNS = re.compile(rf"(?:{_CODE_NOUN})s?$")
# Function words opening a clause or a sentence that are not verbs ("In `x` ...", "For each ...").
_FUNCTION_WORDS = frozenset(str.split("""
a an the this that these those its their each every all any some no not in on at by for from with without into onto
of to as if when unless while after before since until because so but and or nor then there here also only see note
use refer compare cf e.g i.e example examples given what which who whom whose where why how
"""))
_NOUN_AFTER = re.compile(r"\s*(?:[,)]|\b(?:are|were|is|was|have|has|can|could|must|should|will|would|may|might|do|"
                         r"don't|of|and|or|that|which|who)\b|'s?)", re.IGNORECASE)
# What a verb takes when it is surely a verb (after "and", or opening a sentence with no subject).
_OBJECT_AFTER = re.compile(
    r"\s+(?:(?:the|an?|its|their|this|that|these|those|each|every|all|any|no|one|it|them|itself|\w+ly)\b|[`:])",
    re.IGNORECASE,
)
_NAME = r"(?::[\w:-]+:`~?(?P<role>[^`]+)`|(?P<ticks>`+)(?P<code>[^`]+?)(?P=ticks))"
# A name opening a clause: the sentence's start (past bullets, "The"), a clause mark or a conjunction.
_SUBJECT = re.compile(
    rf"(?:^[\s*>#\-+\d.)]*|[;(\u2014\u2013]\s*|:\s+|,\s+|\b(?:and|or|but|so|then|while|whereas|where)\s+)"
    rf"(?:the\s+|(?:calling|invoking|running)\s+)?{_NAME}(?:\s+(?:{_CODE_NOUN}))?"
    r"(?:\s*(?:\u2014|\u2013|-|:)\s*|\s+)(?P<adv>(?:(?:\w+ly|also|then|still|just|now|first)\s+)*)"
    r"(?P<verb>(?:will\s+)?[a-z][a-z-]*[a-z])\b",
    re.IGNORECASE,
)
_HEADLESS = re.compile(r"^[\s*>\-+\d.)]*(?P<verb>[A-Z][a-z]+[a-z])\b")
_AND_VERB = re.compile(r"(?:,\s*|\s+)(?:and|then|and\s+then)\s+(?:\w+ly\s+)?(?P<verb>[a-z]+(?<!s)s)\b(?=\s)")
_PHRASE_END = re.compile(r"[.;!?(\u2014\u2013]|,\s|\s-\s|\s+(?:so|but|because|while|which|unless|if|when)\s")
_HEADING_NAME = re.compile(r"`~?([A-Za-z_][\w.]*)")


def _doing_verb(word: str) -> str | None:
    """``stores`` / ``will store`` when it is a verb no check reads, else None."""
    base = word.split()[-1].lower()
    if base in _COVERED or base in _FUNCTION_WORDS:
        return None
    if word.lower().startswith("will"):
        return base if len(base) > 2 else None
    if not base.endswith("s") or base.endswith("ss") or len(base) < 4 or _CODE_NOUNS.match(base):
        return None  # not a third-person verb ("process", "keys", "methods")
    return base


def _clause_end(text: str, start: int) -> int:
    """Where the clause from ``start`` ends; a ``.`` inside ``:meth:`a.b``` ends nothing."""
    blank = _ROLE.sub(lambda s: "_" * len(s.group(0)), text)
    m = _PHRASE_END.search(_SPAN.sub(lambda s: "_" * len(s.group(0)), blank), start)
    return m.start() if m else len(text)


def _phrase(text: str, start: int) -> str:
    words = text[start:_clause_end(text, start)].split()
    return " ".join(words[:8]) + (" ..." if len(words) > 8 else "")


def _symbol_of(claim: Claim) -> str:
    """The symbol a sentence without a subject is about: a docstring's owner, a heading's name."""
    last = (claim.section or "").split(" > ")[-1].strip()
    if re.fullmatch(r"[A-Za-z_][\w.]*", last):
        return last
    m = _HEADING_NAME.search(last)
    return m.group(1) if m else ""


def action_of(claim: Claim) -> Action | None:
    """What ``claim`` says a named symbol does with a verb no check reads ("`Cache.put` stores
    a value under a key", "Closes the pool." in ``close``'s docstring), or None. Prose only;
    a field describes a parameter or result, and a code block's result is ``runs``."""
    if claim.kind != "prose":
        return None
    text = claim.text
    for m in _SUBJECT.finditer(text):
        verb = _doing_verb(m.group("verb"))
        if verb is None and m.group("verb").lower() in _TAKING and not TAKES.match(text, m.start("verb")):
            verb = m.group("verb").lower()  # "takes a moment", "accepts responsibility": not about parameters
        if verb is not None and not _NOUN_AFTER.match(text, m.end()):
            name = (m.group("role") or m.group("code") or "").strip().lstrip("~")
            at = m.start("verb")
            return Action(name.split("(", 1)[0].strip(), _phrase(text, at), span=(at, _clause_end(text, at)))
        if m.group("verb").lower() in _COVERED:
            # "`X` returns None and logs a warning": a verb joined to a judged one, same subject
            tail = text[m.end():_clause_end(text, m.end())]
            joined = next((j for j in _AND_VERB.finditer(tail) if _doing_verb(j.group("verb"))
                           and _OBJECT_AFTER.match(tail, j.end())), None)
            if joined is not None:
                name = (m.group("role") or m.group("code") or "").strip().lstrip("~")
                return Action(name.split("(", 1)[0].strip(), _phrase(tail, joined.start("verb")), joined=True)
    head = _HEADLESS.match(text)
    if head is not None and claim.section and _OBJECT_AFTER.match(text, head.end()):
        word = head.group("verb")
        low = word.lower()
        # A function's docstring is in the imperative ("Store the value", PEP 257); elsewhere,
        # a class's docstring included, a bare verb opening a sentence is an instruction to
        # the reader ("Pass ``strip=True``", "Add it to a scene with ...").
        symbol = _symbol_of(claim)
        function = symbol.rsplit(".", 1)[-1][:1].islower()
        imperative = claim.doc_path.endswith((".py", ".pyi")) and function and not low.endswith("s")
        if low not in _COVERED and low not in _FUNCTION_WORDS and not low.endswith("ly") \
                and (imperative or _doing_verb(low)):
            at = head.start("verb")
            phrase = _phrase(text, at)
            return Action(symbol, phrase[:1].lower() + phrase[1:], span=(at, _clause_end(text, at)))
    return None


_NAMING = frozenset({"names", "parameters", "arity"})


def action_judged(claim: Claim, action: Action, covered: set[str]) -> bool:
    """Whether a check judged the action: it covered a kind beyond naming ("follows up to 20
    redirects": the count; "verifies certificates by default": the default; "holds `GET` and
    `HEAD`": the members) and nothing outside the action's clause asserts that kind, so the
    check read that clause. A verb joined to another predicate ("returns `None` and logs a
    warning") is what no check read."""
    judged = covered - _NAMING
    if not judged or action.joined:
        return False
    start, end = action.span
    if end <= start:
        return False
    return not (text_kinds(claim.text[:start] + " " + claim.text[end:]) & judged)
