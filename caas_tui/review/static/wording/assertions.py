"""Which kinds of assertion a claim makes, so a verdict can say what it did not check.

Pure text work. A kind found here and covered by no check keeps the claim from being
``consistent``: a green label promises that everything the claim asserts (of the kinds
below) was checked, not only that the names in it exist.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import FieldFact, parse_field
from caas_tui.review.static.wording.facts import type_from_text
from caas_tui.review.static.wording.kindphrases import ACCEPTS_TYPE, PROSE_KIND, PROSE_TYPE, type_word_kind

# Kinds a check can cover, in the order a rationale lists them.
KINDS = ("names", "parameters", "arity", "type", "kind", "default", "value", "returns", "raises", "calls", "behaviour",
         "action", "effect", "runs")
_SAID = {
    "names": "names", "parameters": "parameter names", "arity": "arity", "type": "the stated type",
    "kind": "the described kind of parameter", "default": "the default", "value": "the stated quantity",
    "returns": "the return behaviour", "raises": "the raise behaviour", "calls": "the call behaviour it describes",
    "behaviour": "the behaviour it describes", "action": "what it does",
    "effect": "the order, scope, state or condition it states",
    "runs": "what the code does when run",
}

_RETURNS = re.compile(r"\b(?:returns?|returning|returned|yields?|gives back|evaluates to)\b", re.IGNORECASE)
_RAISES = re.compile(r"\b(?:raises?|raising|raised|throws?|thrown)\b", re.IGNORECASE)
# "is rejected with `ParseError`", "fails with :exc:`KeyError`": a raise said without the verb
_FAILS_WITH = re.compile(r"\b(?:rejected|refused|fails?|failing|aborts?|errors?(?:\s+out)?)\s+with\s+(?:an?\s+)?"
                         r"(?::(?:py:)?(?:exc|class):`|`+)~?[\w.]*(?:Error|Exception)\b", re.IGNORECASE)
_DEFAULT = re.compile(r"\bdefault(?:s|ed)?\b", re.IGNORECASE)
# "is a coroutine", "must be awaited", "is synchronous", "is a class method": how a callable is called
CALL_STYLE = re.compile(
    r"\b(?:is|are)\s+(?:an?\s+)?(?:(?P<style>coroutine(?:\s+function)?|async(?:hronous)?(?:\s+(?:function|method))?|"
    r"awaitable|synchronous|not\s+(?:a\s+)?coroutine|not\s+async|plain\s+function|static\s*method|"
    r"class\s*method|property))\b(?![-\u2010])(?!\s+of\b)|\b(?:must|should|needs?\s+to|has\s+to)\s+be\s+(?P<awaited>awaited)\b",
    re.IGNORECASE,
)
# "takes the tile to count", "accepts an optional timeout", "takes no arguments": what a callable is passed
TAKES = re.compile(
    r"\b(?:takes|accepts)\s+(?P<np>no\s+(?:arguments?|parameters?|args)\b|(?:an?|the|one|two|three|four|\d+|"
    r"optional|keyword|positional|single|any)\s+(?!(?:moment|while|second|minute|few|long|lock|snapshot|copy|look|"
    r"step|turn|share|toll|break|chance|backup|time|place|care|effect|precedence|priority|ownership|action|"
    r"effort|hold)\b)[\w`:]+)",
    re.IGNORECASE,
)
_CALLS = re.compile(r"\b(?:is|are|gets?|be|been)\s+(?:then\s+)?(?:called|invoked)\b|\b(?:calls|invokes)\b", re.IGNORECASE)
# "never raises", "always returns a list": a raise/return claim, judged as one.
_ABOUT_RESULT = re.compile(r"\s+(?:\w+\s+)?(?:returns?|raises?|yields?|throws?)\b", re.IGNORECASE)
# Behaviour a sentence asserts beyond names: always/never/only, bounds, negations, timing
# ("at once"), work done for the caller ("automatically"). Checked only where a check can.
_BEHAVIOUR = re.compile(
    r"\b(?:retries|retry|retried|retrying|never|always|only|at\s+most|at\s+least|does\s+not|doesn't|do\s+not|"
    r"don't|will\s+not|won't|cannot|can't|at\s+once|immediately|right\s+away|straight\s+away|instantly|"
    r"synchronously|automatically|for\s+you|on\s+its\s+own|by\s+itself)\b",
    re.IGNORECASE,
)
NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "ninety": 90, "hundred": 100, "a hundred": 100, "a thousand": 1000, "half a": 0.5,
    "a quarter of a": 0.25, "a": 1, "an": 1,
}
UNITS = (r"ms|msecs?|milliseconds?|µs|us|microseconds?|ns|nanoseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|"
         r"days?|weeks?|%|percent|per\s+cent|degrees?|deg|°|radians?|rad|bytes?|[kKMG]i?B|times|retries|attempts|tries")
_NUMBER = r"[-+]?\d+(?:[.,_]\d+)*(?:\.\d+)?"
QUANTITY = re.compile(
    rf"(?<![\w.])(?:{_NUMBER}|(?:{'|'.join(sorted((w for w in NUMBER_WORDS if w not in ('a', 'an')), key=len, reverse=True))}))"
    rf"\s*(?:{UNITS})(?![\w])|(?<![\w.])(?:half|a quarter of)\s+an?\s+(?:second|minute|hour)\b",
    re.IGNORECASE,
)
# A stated range of values: "0 to 100", "from 1 to ``MAX_PARTS``", "between 0 and 1", "(0-100)".
RANGE = re.compile(
    r"(?<![\w.-])(?:between\s+-?\d+(?:\.\d+)?\s*%?\s+and|(?:from\s+)?-?\d+(?:\.\d+)?\s*%?\s*(?:to|-|–|\.\.))\s*"
    r"(?:-?\d[\d_,.]*(?<![.,])|X)(?![\w-])",
    re.IGNORECASE,
)
# The scale a number is stated in: "in percent", "a percentage", "a fraction", "as a ratio".
SCALE = re.compile(r"\b(?:percent(?:age)?s?|per\s+cent)\b|\b(?:an?\s+)?(?:fraction|ratio)\s+(?=between\b|from\s+0|of\s+1\b)",
                   re.IGNORECASE)
# ``handler: the handler class`` -- the head noun of a parameter's description.
# An optional article, at most two modifiers, then the noun: "Allow rebinding an id" or
# "Helios reference space type" are not descriptions of what the parameter is.
_KIND_HEAD = re.compile(
    r"^\s*(?:(?:the|an?|optional|required)\s+)?(?:[\w-]+(?:'s)?\s+){0,2}?"
    r"(class|callable|function|path|id|identifier|name)\b",
    re.IGNORECASE,
)
# Nouns that make the kind word a modifier ("class name", "path segment"), not the head.
_COMPOUND = re.compile(
    r"^(?:names?|attributes?|variables?|methods?|instances?|objects?|strings?|components?|segments?|prefix|suffix|"
    r"separators?|lists?|lookups?|tables?|maps?|mappings?|registry|level|hints?|annotations?|checks?|fields?|"
    r"numbers?|keys?|values?|patterns?|templates?|parts?|elements?|entries|entry|parameters?|arguments?|ids?|"
    r"paths?|types?|classes|class|callables?|functions?)\b",
    re.IGNORECASE,
)
# ```handler` is the handler class``: a parameter's kind described in prose.
# A code span in either spelling: ```x``` (Markdown) or ````x```` (reST, docstrings).
_STATED_LITERAL = re.compile(
    r"\b(?:is|are|equals?|becomes|==)\s+(?:\w+\s+)?(`+)(?:\"[^`\"]*\"|'[^`']*'|-?\d[\d_.]*|True|False|None)\1"
    r"(?!\s+by\s+default)"
)
_CALL_RESULT = re.compile(r"(`+)[^`]+\([^`]*\)\1\s*(?:is|==|->|→|gives|evaluates to)\s+`+[^`]+`+")
_IS_TYPE = re.compile(
    r"`[\w.]+`\s+(?:is|are)\s+(?:always\s+)?(?:an?|the)\s+(?:\w+\s+)?"
    r"(?:tuple|list|dict|dictionary|set|frozenset|string|str|int|integer|float|bool|boolean|bytes|iterator|generator)\b",
    re.IGNORECASE,
)
# ```x` is an `C```, ``is an instance of :class:`C```, ``is a subclass of `C```: the class of
# an attribute or a base class, stated (judged by ``isclaims``).
IS_A = re.compile(
    r"(?P<subject>(?::\w+:|\{\w+\})?`~?[\w.]+`)\s+(?:is|are)\s+(?:always\s+)?(?:an?\s+)?(?P<rel>(?:instance|subclass)s?\s+of\s+(?:an?\s+)?)?"
    r"(?P<cls>(?::\w+:|\{\w+\})?`~?[A-Z]\w*(?:\.\w+)*(?:\(\))?`)(?=\s*(?:[.,;:)]|$|\s+(?:and|or|but|which|that)\b))"
)
_RESULT_COMMENT = re.compile(r"#\s*(?:->|→|=>|==|returns?\b|gives\b|prints?\b|evaluates\s+to\b|is\s+now\b)", re.IGNORECASE)
_RAISE_COMMENT = re.compile(r"#\s*(?:->\s*)?(?:raises?|throws?)\b", re.IGNORECASE)
# "type" is left out: in prose it is as often a category ("the space type") as a Python type.
STRONG_KINDS = frozenset({"class", "callable", "path"})


def _strip_code(text: str) -> str:
    """Prose without code spans and roles: ``returns`` inside ```x.returns``` asserts nothing."""
    text = re.sub(r":[\w:-]+:`[^`]*`", " X ", text)
    return re.sub(r"(`+)(.+?)\1", " X ", text)


def described_kind(desc: str) -> str | None:
    """``the handler class`` -> class; ``path to the file`` -> path; None for anything else."""
    first = re.split(r"[.;:(]|,\s", desc.strip(), maxsplit=1)[0]
    m = _KIND_HEAD.match(first)
    if m is None:
        return None
    kind = m.group(1).lower()
    rest = first[m.end():].strip().lower()
    if _COMPOUND.match(rest):
        return None  # "the class attribute ...", "name lookup table": the head noun is later
    return {"identifier": "id", "function": "callable"}.get(kind, kind)


def text_kinds(text: str) -> set[str]:
    prose = _strip_code(text)
    out: set[str] = set()
    if _RETURNS.search(prose):
        out.add("returns")
    if _RAISES.search(prose) or _FAILS_WITH.search(text):
        out.add("raises")
    if _DEFAULT.search(prose):
        out.add("default")
    if QUANTITY.search(prose) or RANGE.search(prose) or SCALE.search(prose):
        out.add("value")
    if TAKES.search(prose):
        out.add("parameters")
    if CALL_STYLE.search(prose):
        out.add("type")
    if PROSE_TYPE.search(text) or ACCEPTS_TYPE.search(text):
        out.add("type")  # "`item` must be a `Tag`", "accepts a `Tag`"
    if _CALLS.search(prose):
        out.add("calls")
    if any(not _ABOUT_RESULT.match(prose, m.end()) for m in _BEHAVIOUR.finditer(prose)):
        out.add("behaviour")
    if _STATED_LITERAL.search(text):
        out.add("value")  # "for `Map(...)` it is simply `"Map"`": a value the code computes
    if _CALL_RESULT.search(text):
        out.add("returns")  # ```has_component("x")` is `False```
    if _IS_TYPE.search(text) or IS_A.search(text):
        out.add("type")  # ```Scene.entities` is a tuple``
    if any(described_kind(m.group("desc")) in STRONG_KINDS for m in PROSE_KIND.finditer(text)):
        out.add("kind")
    return out


def field_kinds(fact: FieldFact) -> set[str]:
    out = text_kinds(fact.desc)
    if fact.role in ("returns", "rtype", "yields", "ytype") and (fact.type or fact.desc.strip()):
        out.add("returns")
    if fact.role == "raises" and fact.name:
        out.add("raises")
    if fact.role in ("param", "type") and fact.type and (type_from_text(fact.type.split(",")[0]) is not None
                                                        or type_word_kind(fact.type) is not None):
        out.add("type")
    if fact.role == "param" and described_kind(fact.desc) in STRONG_KINDS:
        out.add("kind")
    return out


def asserted_kinds(claim: Claim) -> set[str]:
    """Assertion kinds a claim makes beyond naming things (a code block: only doctest output)."""
    if claim.kind == "code":
        # A doctest's expected output, or a comment stating a line's result (``# -> 3``,
        # ``# raises KeyError``), asserts values no static check evaluates.
        out = {"returns"} if doctest_output(claim.text) or _RESULT_COMMENT.search(claim.text) else set()
        out |= {"raises"} if _RAISE_COMMENT.search(claim.text) else set()
        # A block that states no result still shows that its calls work as written; names
        # and arity are all a static check sees of that, so what it does when run stays
        # unchecked (a stated result is the block's assertion, judged as one).
        return out or ({"runs"} if executes(claim.text) else set())
    fact = parse_field(claim.text) if claim.kind == "field" else None
    return field_kinds(fact) if fact is not None else text_kinds(claim.text)


_CALL_SITE = re.compile(r"[A-Za-z_][\w.]*\s*\(")
_DECLARATION = re.compile(r"^(?:>>>\s*|\.\.\.\s*)?(?:@|def\s|class\s|async\s+def\s|import\s|from\s+\S+\s+import\s)")
_STRINGS = re.compile(r"\"[^\"\n]*\"|'[^'\n]*'")


def executes(code: str) -> bool:
    """A block with a call outside declarations, imports and comments: what it does when run is asserted."""
    for raw in code.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", "//")) or _DECLARATION.match(line):
            continue
        if raw[:1].isspace() and not line.startswith((">>>", "...")):
            continue  # a body line: inside a ``def`` or ``class`` it runs only when called
        if _CALL_SITE.search(_STRINGS.sub('""', line.split(" #", 1)[0])):
            return True
    return False


def doctest_output(code: str) -> bool:
    """A ``>>>`` example followed by an expected-output line."""
    lines = code.splitlines()
    for i, line in enumerate(lines[:-1]):
        nxt = lines[i + 1].strip()
        if line.lstrip().startswith((">>>", "...")) and nxt and not nxt.startswith((">>>", "...")):
            return True
    return False


def coverage(asserted: set[str], checked: set[str]) -> tuple[str, ...]:
    return tuple(f"{k}:{'checked' if k in checked else 'unchecked'}" for k in KINDS if k in asserted | checked)


def unchecked_note(
    checked: set[str], unchecked: set[str], effect: Sequence[str] = (), action: tuple[str, str] | None = None
) -> str:
    """``names and arity checked; the return behaviour was not``; ``effect``: the words
    that make the ``effect`` kind (``the order ... it states ("first", "unless")``);
    ``action``: (subject, verb phrase) of the ``action`` kind (``what `X` does ("stores ...")``)."""
    said = dict(_SAID)
    if action is not None:
        subject, phrase = action
        said["action"] = f"what {f'`{subject}`' if subject else 'it'} does (“{phrase}”)"
    if effect:
        said["effect"] += " (" + ", ".join(f"“{w}”" for w in effect[:4]) + (", ..." if len(effect) > 4 else "") + ")"
    done = [said[k] for k in KINDS if k in checked]
    todo = [said[k] for k in KINDS if k in unchecked]
    head = _join(done) + " checked" if done else "nothing checked"
    hint = " (`review --execute` runs it)" if "runs" in unchecked else ""
    plural = len(todo) > 1 or todo == [said["parameters"]]
    return f"{head}; {_join(todo)} {'were' if plural else 'was'} not{hint}"


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
