"""What a stated condition says of a parameter or of the instance's state, as a meaning a
guard literal can agree with or rule out ("if `replace` is false", "when the key is not
registered", "for a negative `ttl`", "if the client is closed").

Pure text work. A condition is read as alternatives ("A or B": each one promised) of
conjunctions ("A and B"); a part whose subject or predicate is not one of the forms below
adds nothing. Subjects are the callable's parameters (backticked, or the bare word when it
is the parameter's name) and the instance states its guards test (``state:closed``), which
prose names by the adjective ("is closed", "has expired", "is no longer open").
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from caas_tui.review.static.wording.words import same_word, stem


@dataclass(frozen=True, slots=True)
class Stated:
    subject: str  # a parameter name or ``state:<words>``
    meaning: str  # none | given | empty | false | true | in | notin | missing | cmp
    text: str  # the words stated, for a rationale
    low: float = -math.inf
    high: float = math.inf
    low_open: bool = True
    high_open: bool = True

    @property
    def agrees_with(self) -> frozenset[str]:
        return AGREE.get(self.meaning, frozenset())

    @property
    def rules_out(self) -> frozenset[str]:
        return OPPOSE.get(self.meaning, frozenset())


# Guard literal forms (``codefacts.guardatoms.FORMS``) a meaning implies, and forms it rules
# out: "`p` is empty" implies ``not p`` and ``p is not None``, and rules out ``p`` and ``p is None``.
AGREE: dict[str, frozenset[str]] = {
    "none": frozenset({"none", "falsy"}), "given": frozenset({"notnone"}), "empty": frozenset({"falsy", "notnone"}),
    "false": frozenset({"falsy", "notnone"}), "true": frozenset({"truthy", "notnone"}), "in": frozenset({"in"}),
    "notin": frozenset({"notin"}), "missing": frozenset({"notin", "none"}),
}
OPPOSE: dict[str, frozenset[str]] = {
    "none": frozenset({"notnone", "truthy"}), "given": frozenset({"none"}), "empty": frozenset({"truthy", "none"}),
    "false": frozenset({"truthy", "none"}), "true": frozenset({"falsy", "none"}), "in": frozenset({"notin"}),
    "notin": frozenset({"in"}), "missing": frozenset({"in", "notnone"}),
}
_NEGATED = {"none": "given", "given": "none", "empty": "true", "false": "true", "true": "false", "in": "notin",
            "notin": "in", "missing": "in"}

_WORDS: tuple[tuple[str, str], ...] = (
    (r"none|omitted|unset|left\s+out", "none"),
    (r"given|passed|provided|supplied|specified|set", "given"),
    (r"empty|blank", "empty"),
    (r"false|falsy|falsey", "false"),
    (r"true|truthy|non-?empty", "true"),
    (r"registered|known|present|defined|taken|in\s+use|found|exists?|contained|in\s+`*[\w.]+`*", "in"),
    (r"unknown|unregistered|absent|undefined", "notin"),
    (r"missing", "missing"),
)
_NUM = r"-?\d+(?:\.\d+)?"
_CMP: tuple[tuple[str, tuple[float | None, float | None, bool, bool]], ...] = (
    # pattern -> (low, high, low_open, high_open); None takes the stated number
    (r"negative", (-math.inf, 0.0, True, True)),
    (r"positive", (0.0, math.inf, True, True)),
    (r"non-?negative", (0.0, math.inf, False, True)),
    (r"non-?positive", (-math.inf, 0.0, True, False)),
    (r"zero|0", (0.0, 0.0, False, False)),
    (rf"(?:greater|more|larger|bigger|higher)\s+than\s+`*(?P<n1>{_NUM})|(?:above|over|exceeds?|exceeding)\s+`*(?P<n2>{_NUM})",
     (None, math.inf, True, True)),
    (rf"(?:at\s+least|no\s+less\s+than)\s+`*(?P<n3>{_NUM})|`*(?P<n4>{_NUM})`*\s+or\s+(?:more|greater|above)", (None, math.inf, False, True)),
    (rf"(?:less|fewer|smaller|lower)\s+than\s+`*(?P<n5>{_NUM})|(?:below|under)\s+`*(?P<n6>{_NUM})", (-math.inf, None, True, True)),
    (rf"(?:at\s+most|no\s+more\s+than)\s+`*(?P<n7>{_NUM})|`*(?P<n8>{_NUM})`*\s+or\s+(?:less|fewer|below)", (-math.inf, None, True, False)),
)
_PRED_WORDS = "|".join(p for p, _ in _WORDS)
_PRED_CMP = "|".join(p for p, _ in _CMP)
# "is not", "are", "has been", "was never", "does not exist", "is no longer", "is already"
_COPULA = re.compile(
    r"\s*(?:(?:is|are|was|were|be|being|has|have|had|gets?|got)\s+)?(?:been\s+)?"
    r"(?P<neg>(?:not|never|no\s+longer)\s+|(?:does|do|did)\s*(?:not|n't)\s+|(?:is|are|was|has|have)n't\s+)?"
    r"(?:(?:already|still|yet|equal\s+to)\s+)?(?:an?\s+)?"
    rf"(?P<pred>(?:{_PRED_CMP})|`*(?:{_PRED_WORDS})`*)(?![\w-])",
    re.IGNORECASE,
)
_PREFIX = re.compile(
    r"\b(?:an?|the|any|no)\s+(?P<adj>empty|blank|negative|positive|zero|unknown|unregistered|missing|absent|"
    r"non-?empty|non-?negative|non-?positive|`*None`*)\s+(?P<subj>`+\w+`+|[A-Za-z_]\w*)",
    re.IGNORECASE,
)
_NEGATED_BEFORE = re.compile(r"\b(?:no|not|never|nor|neither)\s+(?:(?:such|an?|the|one|single|any)\s+){0,2}$", re.IGNORECASE)
_NO_SUBJECT = re.compile(r"\b(?:no|without)\s+(?:an?\s+)?(?P<subj>`+\w+`+)", re.IGNORECASE)
_STATE = re.compile(
    r"\b(?:is|are|was|were|has|have|had)\s+(?:been\s+)?(?P<neg>not\s+|never\s+|no\s+longer\s+)?(?:already\s+|still\s+|yet\s+)?"
    r"(?P<adj>[a-z][a-z-]+)\b|\b(?:is|are|was|has|have)n't\s+(?:been\s+)?(?:yet\s+)?(?P<adj2>[a-z][a-z-]+)\b",
    re.IGNORECASE,
)
# Pairs of state words that say the opposite of each other (beyond un-/dis-/in-/non- prefixes).
_ANTONYMS: tuple[tuple[str, str], ...] = (
    ("open", "closed"), ("opened", "closed"), ("started", "stopped"), ("running", "stopped"), ("alive", "dead"),
    ("connected", "disconnected"), ("attached", "detached"), ("valid", "invalid"), ("active", "inactive"),
    ("ready", "pending"), ("finished", "running"), ("done", "pending"), ("enabled", "disabled"), ("online", "offline"),
)


def _meaning_of(pred: str) -> tuple[str, float, float, bool, bool] | None:
    word = re.sub(r"\s+", " ", pred.strip("`").lower())
    for pattern, (low, high, low_open, high_open) in _CMP:
        m = re.fullmatch(pattern, word, re.IGNORECASE)
        if m:
            nums = [v for v in m.groupdict().values() if v is not None]
            n = float(nums[0]) if nums else None
            lo, hi = (n if low is None else low), (n if high is None else high)
            return ("cmp", lo, hi, low_open, high_open) if lo is not None and hi is not None else None
    for pattern, meaning in _WORDS:
        if re.fullmatch(pattern, word, re.IGNORECASE):
            return (meaning, -math.inf, math.inf, True, True)
    return None


Interval = tuple[float, float, bool, bool]  # low, high, low open, high open


def complement(low: float, high: float, low_open: bool, high_open: bool) -> Interval | None:
    """The other side of a one-sided interval (``< 0`` -> ``>= 0``); None for a two-sided one,
    whose complement is two intervals (``x != 3``, ``0 <= x < 9``)."""
    if math.isinf(low) and not math.isinf(high):
        return high, math.inf, not high_open, True
    if math.isinf(high) and not math.isinf(low):
        return -math.inf, low, True, not low_open
    return None


def _negate(s: Stated) -> Stated | None:
    if s.meaning != "cmp":
        return Stated(s.subject, _NEGATED[s.meaning], s.text)
    other = complement(s.low, s.high, s.low_open, s.high_open)
    return Stated(s.subject, "cmp", s.text, *other) if other is not None else None


def _stated(subject: str, pred: str, negated: bool, text: str) -> Stated | None:
    meaning = _meaning_of(pred)
    if meaning is None:
        return None
    kind, low, high, low_open, high_open = meaning
    s = Stated(subject, kind, text.strip(), low, high, low_open, high_open)
    return _negate(s) if negated else s


def _state_polarity(adj: str, state: str) -> bool | None:
    """True when ``adj`` names the state, False when it names its opposite."""
    words = state.removeprefix("state:").split("_")
    target = words[-1] if words else ""
    if not target:
        return None
    a, t = adj.lower(), target.lower()
    if same_word(stem(a), stem(t)) or a == t:
        return True
    for prefix in ("un", "dis", "in", "non-", "non"):
        if a == prefix + t or t == prefix + a:
            return False
    if any({a, t} == {x, y} for x, y in _ANTONYMS):
        return False
    return None


def _aliases(subjects: frozenset[str]) -> dict[str, str]:
    """The words that name each subject: ``job.name`` is "`job.name`" and "the name" (when no
    other subject is called that)."""
    out = {s: s for s in subjects}
    tails: dict[str, set[str]] = {}
    for s in subjects:
        if "." in s:
            tails.setdefault(s.rsplit(".", 1)[1], set()).add(s)
    out.update({tail: next(iter(owners)) for tail, owners in tails.items() if len(owners) == 1 and tail not in out})
    return out


def _conjunct(part: str, params: frozenset[str], states: frozenset[str]) -> list[Stated]:
    out: list[Stated] = []
    aliases = _aliases(params)
    used: list[tuple[int, int]] = []
    for m in _PREFIX.finditer(part):
        subject = aliases.get(m.group("subj").strip("`"), "")
        if subject:
            s = _stated(subject, m.group("adj"), False, m.group(0))
            if s is not None:
                out.append(s)
                used.append(m.span())
    for m in _NO_SUBJECT.finditer(part):
        subject = aliases.get(m.group("subj").strip("`"), "")
        if subject:
            out.append(Stated(subject, "none", m.group(0)))
            used.append(m.span())
    for m in re.finditer(r"(`+)(?P<t>[A-Za-z_][\w.]*)\1|(?<![\w`.])(?P<w>[a-z_]\w{2,})(?![\w`(])", part):
        found = aliases.get(m.group("t") or m.group("w") or "")
        if found is None or any(a <= m.start() < b for a, b in used):
            continue
        c = _COPULA.match(part, m.end())
        if c is None:
            continue
        # "if no such key exists", "when not a single `item` is given": the negation comes first
        before = _NEGATED_BEFORE.search(part[:m.start()])
        start = before.start() if before else m.start()
        s = _stated(found, c.group("pred"), bool(c.group("neg")) != bool(before), part[start:c.end()])
        if s is not None:
            out.append(s)
            used.append((m.start(), c.end()))
    for m in _STATE.finditer(part):
        if any(a <= m.start() < b for a, b in used):
            continue
        adj = m.group("adj") or m.group("adj2")
        negated = bool(m.group("neg")) or m.group("adj2") is not None
        for state in sorted(states):
            polarity = _state_polarity(adj, state)
            if polarity is not None:
                meaning = "true" if polarity != negated else "false"
                out.append(Stated(state, meaning, "it " + m.group(0)))
                break
    return out


def stated_alternatives(condition: str, params: Iterable[str], states: Iterable[str] = ()) -> list[list[Stated]]:
    """The condition's alternatives, each the conjunction of what it states of a subject.

    "unless ..." states the condition under which the call does NOT do it: every literal of
    a one-part "unless" condition is negated (several parts negated together are a
    disjunction, which no conjunction says, so they are left out)."""
    names, known = frozenset(params), frozenset(states)
    text = re.sub(r"`+(None|True|False)`+", r"\1", condition)
    # "*values* is empty": an emphasised name is written like code (reST, Markdown)
    text = re.sub(r"(?<![\w*])\*{1,2}([A-Za-z_]\w*)\*{1,2}(?![\w*])", r"`\1`", text)
    unless = re.search(r"\bunless\b", text, re.IGNORECASE)
    if unless:
        text = text[unless.end():]
    out: list[list[Stated]] = []
    for alt in re.split(r"\bor\b|;", text):
        conj = [s for part in re.split(r"\band\b|,\s*(?:but|while)\b", alt) for s in _conjunct(part, names, known)]
        if conj:
            out.append(conj)
    return negation(out) if unless else out


def negation(alternatives: list[list[Stated]]) -> list[list[Stated]]:
    """What "unless A" and "..., otherwise" promise: not (A1 or A2 ...), read when each
    alternative is one literal (the conjunction of their negations); a negated conjunction is
    a disjunction of negations no single conjunction says, so it is left out ([])."""
    if not alternatives or any(len(conj) != 1 for conj in alternatives):
        return []
    out: list[Stated] = []
    for (s,) in alternatives:
        negated = _negate(s)
        if negated is None:
            return []
        out.append(replace(negated, text=f"not ({s.text})"))
    return [out]
