"""Probes: a prose or field claim that states the outcome of a concrete call written in inline code
(```parse_money("€12,50")` gives 12.50 EUR``, ````Money(" 1 ", "USD")`` raises :exc:`InvalidAmountError```)
is decided by running that call, so only the OUTCOME phrase has to be read, never the author's wording
of the mechanism. The outcome vocabulary is the language's: returns / gives / is / evaluates to, raises E,
does not raise / is accepted, returns None, is True / False, X and Y are equal / the same / distinct.

Planning is pure (no run): which spans to evaluate, what the sentence says each gives, and whether the
sentence asserts anything besides those outcomes (then a matching run is not the whole claim).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Literal

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import code_spans, parse_inline, role_target
from caas_tui.review.execute.stated import value_like

ProbeKind = Literal["raises", "no-raise", "value", "equal", "distinct"]
PROBE_SECONDS = 2.0  # a probe states one call's outcome: longer is a hang, not an answer
MAX_PROBES = 3  # per claim: each runs in its own fork with its own time limit
_REST_WORDS = 2  # words besides the call and its outcome that still leave the claim only about them

_HOLE = "\x00"
_SPAN = re.compile(r"\x00(\d+)\x00")
_TICKS = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
_ROLE = re.compile(r"(?<![\w`]):(?:[\w-]+:)?[\w-]+:`([^`]+)`")
_EXC_WORD = re.compile(r"[A-Z][A-Za-z0-9_]*(?:\.[A-Z][A-Za-z0-9_]*)*")
# the outcome phrases, read right after the probed span (an adverb or two may come between: "now raises")
_LEAD = r"(?:\s*,)?\s+(?:(?:now|still|also|always|then|just|simply|immediately|instead|only)\s+)*"
_WILL = r"(?:(?:will|would|should|must|can)\s+)?"  # the tense is the author's; the outcome is the same
_RAISES = re.compile(_LEAD + _WILL + r"(?:raises|raised|raise|throws|threw|throw|fails?\s+with|failed\s+with|"
                     r"(?:is|was|gets?)\s+rejected\s+with|errors\s+with)"
                     r"\s+(?:an?\s+|the\s+)?", re.IGNORECASE)
_NO_RAISE = re.compile(_LEAD + r"(?:(?:does\s+not|doesn't|will\s+not|won't|never)\s+raises?\b|raises\s+no(?:thing)?\b|"
                       r"(?:is|are)\s+(?:also\s+)?accepted\b|succeeds\b|works\b)", re.IGNORECASE)
_VALUE = re.compile(_LEAD + _WILL + r"(?:returns|returned|return|gives|gave|give|yields|yielded|yield|produces|"
                    r"produced|produce|evaluates\s+to|evaluated\s+to|evaluate\s+to|comes\s+back\s+as|came\s+back\s+as|"
                    r"come\s+back\s+as|becomes|became|become|equals|is\s+equal\s+to|prints|printed|print|is|was|be|"
                    r"→|⇒|->|=>)"
                    r"\s+(?:(?:you|back|us)\s+)?", re.IGNORECASE)
_NOT_VALUE = re.compile(_LEAD + r"(?:is\s+not|isn't|was\s+not|wasn't|is\s+never|(?:does|will)\s+not\s+(?:return|give)|"
                        r"(?:doesn't|won't)\s+(?:return|give)|never\s+(?:returns|gives))\s+", re.IGNORECASE)
_GET_FROM = re.compile(r"(?:you\s+get|gives?\s+you|returns?)\s+\x00(\d+)\x00\s+(?:from|by\s+calling|out\s+of)\s+$",
                       re.IGNORECASE)
_PAIR = re.compile(r"\s+and\s+\x00(\d+)\x00\s+(?:are|compare)\s+(?:(?:both|two|always|never|still)\s+)*"
                   r"(?P<what>equal|the\s+same|identical|one|a\s+single|(?:two\s+)?distinct|different|separate|"
                   r"not\s+equal|unequal)\b", re.IGNORECASE)
_CLAUSE_END = re.compile(r"\s*(?:[.;:!?](?:\s|$)|,|\s+(?:and|but|while|whereas|because|since|so|when|if|unless|"
                         r"for|as|which|that|with)\b|$)", re.IGNORECASE)
_DESCRIBED = re.compile(r"(?<![\w'\"])[a-z]{2,}(?![\w'\"])")
_LITERAL_WORD = re.compile(r"(?:True|False|None|-?\d[\d_]*(?:\.\d+)?)\b")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
_SAME = frozenset({"equal", "the same", "identical", "one", "a single"})


@dataclass(frozen=True, slots=True)
class Probe:
    """One expression to evaluate and the outcome the sentence states for it."""

    source: str
    kind: ProbeKind
    want: str = ""  # the exception name (``raises``) or the stated value as written (``value``)
    other: str = ""  # the second expression of ``equal`` / ``distinct``
    want_code: bool = False  # the stated value is inline code: the run may evaluate it too
    negated: bool = False  # ``value``: the sentence says the call does NOT give ``want``
    printed: bool = False  # ``value``: stated as what the call prints, not what it returns
    base: str = ""  # a derived probe: the literal call it was built from, run first (``derived.py``)
    origin: str = ""  # ... and how it was built, for the rationale

    def request(self) -> dict[str, object]:
        return {"source": self.source, "kind": self.kind, "want": self.want, "other": self.other,
                "want_code": self.want_code, "negated": self.negated, "base": self.base}

    def stated(self) -> str:
        """The outcome as the doc states it, for a rationale."""
        if self.kind == "raises":
            return f"raises {self.want}"
        if self.kind == "no-raise":
            return "does not raise"
        if self.kind == "equal":
            return "are equal"
        if self.kind == "distinct":
            return "are distinct"
        if self.printed:
            return f"prints {self.want}"
        return f"does not give {self.want}" if self.negated else f"gives {self.want}"


@dataclass(frozen=True, slots=True)
class ProbePlan:
    probes: tuple[Probe, ...]
    rest: bool  # the sentence asserts more than the probed outcomes
    condition: str = ""  # the word of a condition the outcome is stated under (``once``, ``if``), if any


def probe_expression(text: str) -> bool:
    """Inline code a probe evaluates: an expression with a call, subscription, comparison or operator;
    a bare or dotted name, a literal and a signature with placeholder markers are not calls to run.
    (``f()`` is: it may be how prose names a function, which ``is_bare_call`` lets the judge tell
    when the signature rejects it.)"""
    if "\n" in text or "await" in text or "lambda" in text:
        return False
    tree = parse_inline(text)
    if tree is None or isinstance(tree, ast.Name | ast.Attribute | ast.Constant | ast.Starred):
        return False
    if any(isinstance(n, ast.Constant) and n.value is Ellipsis for n in ast.walk(tree)):
        return False  # ``f(a, ...)``: an illustration, or a keyword-only signature read as a call
    if isinstance(tree, ast.UnaryOp) and isinstance(tree.operand, ast.Constant):
        return False  # ``-2.5``: a number
    try:
        compile(text.strip(), "<probe>", "eval")  # a ``f(a, *, b)`` signature parses only with its markers removed
    except (SyntaxError, ValueError):
        return False
    return any(isinstance(n, ast.Call | ast.Subscript | ast.Compare | ast.BinOp | ast.UnaryOp | ast.BoolOp)
               for n in ast.walk(tree))


def _probe(source: str, kind: ProbeKind, want: str, want_code: bool) -> Probe:
    """A probe from ``_outcome``'s reading: a value's ``want`` comes marked ``!`` (negated) or ``>`` (printed)."""
    negated = kind == "value" and want.startswith("!")
    printed = kind == "value" and want.startswith(">")
    return Probe(source, kind, want[1:] if negated or printed else want, want_code=want_code, negated=negated,
                 printed=printed)


def is_bare_call(text: str) -> bool:
    """``split()`` / ``Money.to_minor()``: a dotted name with empty parentheses."""
    tree = parse_inline(text)
    if not isinstance(tree, ast.Call) or tree.args or tree.keywords:
        return False
    node = tree.func
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _masked(text: str) -> tuple[str, list[tuple[str, bool]]]:
    """The sentence with each code span / role replaced by ``\\x00i\\x00``; ``(content, is_role)`` per span."""
    spans: list[tuple[str, bool]] = []
    known = set(code_spans(text))

    def role(m: re.Match[str]) -> str:
        spans.append((m.group(1), True))
        return f"{_HOLE}{len(spans) - 1}{_HOLE}"

    def tick(m: re.Match[str]) -> str:
        content = m.group(2)
        if content not in known:
            return m.group(0)
        spans.append((content.strip(), False))
        return f"{_HOLE}{len(spans) - 1}{_HOLE}"

    return _TICKS.sub(tick, _ROLE.sub(role, text)), spans


def _exception_name(after: str, spans: list[tuple[str, bool]]) -> tuple[str, int] | None:
    m = _SPAN.match(after)
    if m:
        content, is_role = spans[int(m.group(1))]
        name = role_target(content) if is_role else content.strip().removesuffix("()")
        last = name.rsplit(".", 1)[-1]
        return (last, m.end()) if _EXC_WORD.fullmatch(name) or _EXC_WORD.fullmatch(last) else None
    w = _EXC_WORD.match(after)
    if w and len(w.group(0)) > 2 and any(c.islower() for c in w.group(0)):
        return w.group(0).rsplit(".", 1)[-1], w.end()
    return None


def _stated_value(after: str, spans: list[tuple[str, bool]]) -> tuple[str, bool, int] | None:
    """The value a ``returns`` / ``is`` phrase states: a code span, a literal word, or a short
    value-like run of prose (``12.50 EUR``), with whether it was code and where it ends."""
    m = _SPAN.match(after)
    if m:
        content, is_role = spans[int(m.group(1))]
        return (None if is_role else (content, True, m.end()))
    lit = _LITERAL_WORD.match(after)
    end = _CLAUSE_END.search(after)
    stop = end.start() if end else len(after)
    text = after[:stop].strip()
    # a lower-case word after a number describes it (``5 items``, ``3 seconds``): no printed value reads so
    if text and _HOLE not in text and value_like(text, strict=False) and not _DESCRIBED.search(text):
        return text, False, stop
    if lit and text == lit.group(0):
        return lit.group(0), False, lit.end()
    return None


def _outcome(after: str, spans: list[tuple[str, bool]]) -> tuple[ProbeKind, str, bool, int] | None:
    """``(kind, want, want_code, end)`` of the first outcome phrase right after a span; a negated
    value comes back with ``want`` prefixed by ``!``, a printed one by ``>`` (``_probe`` reads them)."""
    neg = _NOT_VALUE.match(after)
    if neg:  # ``is not `True```: only a stated value (``is not rounded`` is prose, no outcome)
        m = _SPAN.match(after[neg.end():])
        lit = _LITERAL_WORD.match(after[neg.end():])
        if m and not spans[int(m.group(1))][1]:
            return "value", "!" + spans[int(m.group(1))][0], True, neg.end() + m.end()
        if lit:
            return "value", "!" + lit.group(0), False, neg.end() + lit.end()
        return None
    phrases: tuple[tuple[ProbeKind, re.Pattern[str]], ...] = (("no-raise", _NO_RAISE), ("raises", _RAISES),
                                                               ("value", _VALUE))
    for kind, pattern in phrases:
        m = pattern.match(after)
        if not m:
            continue
        if kind == "no-raise":
            return "no-raise", "", False, m.end()
        rest = after[m.end():]
        if kind == "raises":
            exc = _exception_name(rest, spans)
            return ("raises", exc[0], False, m.end() + exc[1]) if exc else None
        val = _stated_value(rest, spans)
        if val is None:
            return None
        printed = ">" if re.search(r"print", m.group(0), re.IGNORECASE) else ""
        return "value", printed + val[0], val[1], m.end() + val[2]
    return None


_AND = re.compile(r",?\s+and(?=\s)", re.IGNORECASE)


def _coordinated(after: str, spans: list[tuple[str, bool]]) -> tuple[int, tuple[ProbeKind, str, bool, int]] | None:
    """An outcome in a later predicate of the same subject (```f(x)` checks ..., and gives 3``):
    only while no other code span comes between, which would be another subject. Returns where the
    predicate starts and the outcome, its end counted from the same origin."""
    hole = after.find(_HOLE)
    scope = after if hole < 0 else after[:hole]
    for m in _AND.finditer(scope):
        found = _outcome(after[m.end():], spans)
        if found is not None:
            kind, want, want_code, end = found
            return m.start(), (kind, want, want_code, m.end() + end)
    return None


# an outcome stated under a condition (``raises E once the queue is empty``, ``after `close()```) holds
# only where the condition does; a run cannot tell whether the session meets it. "once more" / "at once"
# / "after that" (the walk-through's order) are no conditions.
_CONDITION = re.compile(r"(?<!\bat )\b(if|when|whenever|once(?!\s+(?:more|again))|unless|until|provided|as\s+long\s+as|"
                        r"after(?!\s+that\b)|before)\b", re.IGNORECASE)
_TABLE = re.compile(r"table \(([^()]*)\): ")
_RETURNS_HEAD = re.compile(r"^(?:returns?|result|results|output|gives|value|evaluates\s+to|yields)$", re.IGNORECASE)
# ``Raises: E: ... e.g. ``f(x)``.`` (Google) and ``:raises E: for ``f(x)``.`` (Sphinx): the example raises E
_RAISES_FIELD = re.compile(r"^\s*(?:Raises\s*:\s*(?P<google>[A-Za-z_][\w.]*)\s*:|:raises?\s+(?P<sphinx>[A-Za-z_][\w.]*)\s*:)")


def plan_probes(claim: Claim) -> ProbePlan:
    """The probes of a prose or field claim (none for code claims, or when no outcome is stated)."""
    if claim.kind not in ("prose", "field"):
        return ProbePlan((), False)
    table = _TABLE.search(claim.context)
    plan = _table_plan(claim.text, table.group(1)) if table else None
    plan = plan or _raises_field(claim.text) or _sentence_plan(claim.text)
    if not plan.probes:
        return plan
    cond = _CONDITION.search(_masked(claim.text)[0])
    return ProbePlan(plan.probes, plan.rest or bool(cond), cond.group(1).lower() if cond else "")


def _table_plan(text: str, header: str) -> ProbePlan | None:
    """A table row: a probed call in one cell, its outcome in another (``raises `E```), or a value
    under a column that names results (``Returns``)."""
    heads = [h.strip() for h in header.split("|")]
    cells = [c.strip() for c in text.split("|")]
    if len(heads) != len(cells):
        return None
    for i, cell in enumerate(cells):
        masked, spans = _masked(cell)
        hole = _SPAN.fullmatch(masked.strip())
        if not hole or spans[0][1] or not probe_expression(spans[0][0]):
            continue
        for j, other in enumerate(cells):
            if j == i or not other:
                continue
            o_masked, o_spans = _masked(other)
            found = _outcome(" " + o_masked, o_spans)
            if found is None and _RETURNS_HEAD.match(heads[j]):
                val = _stated_value(o_masked, o_spans)
                found = ("value", val[0], val[1], len(o_masked) + 1) if val and val[2] >= len(o_masked.rstrip()) \
                    else None
            if found is None:
                continue
            kind, want, want_code, end = found
            others = [c for k, c in enumerate(cells) if k not in (i, j) and c]
            rest = bool(others) or bool(o_masked[end - 1:].strip(" .;"))
            return ProbePlan((_probe(spans[0][0], kind, want, want_code),), rest)
    return None


def _raises_field(text: str) -> ProbePlan | None:
    m = _RAISES_FIELD.match(text)
    if not m:
        return None
    name = (m.group("google") or m.group("sphinx")).rsplit(".", 1)[-1]
    if not _EXC_WORD.fullmatch(name):
        return None
    masked, spans = _masked(text[m.end():])
    probes: list[Probe] = []
    used: list[tuple[int, int]] = []
    for h in _SPAN.finditer(masked):
        content, is_role = spans[int(h.group(1))]
        if not is_role and probe_expression(content) and len(probes) < MAX_PROBES:
            probes.append(Probe(content, "raises", name))
            used.append((h.start(), h.end()))
    if not probes:
        return None
    # the field's text is the condition the exception is raised under: beyond the example and one
    # preposition introducing it (``for ``f(x)````), any word states a condition the run does not check
    return ProbePlan(tuple(probes), _asserts_more(masked, used, _EXAMPLE, words=1))


_EXAMPLE = re.compile(r"(?:\be\.g\.|\bfor\s+example\b|\bfor\s+instance\b|\bsuch\s+as\b|\blike\b|\bas\s+in\b)",
                      re.IGNORECASE)


def _sentence_plan(text: str) -> ProbePlan:
    masked, spans = _masked(text)
    probes: list[Probe] = []
    used: list[tuple[int, int]] = []  # masked ranges the probes consumed
    holes = list(_SPAN.finditer(masked))
    paired: set[int] = set()
    for h in holes:
        i = int(h.group(1))
        content, is_role = spans[i]
        if is_role or i in paired or not probe_expression(content) or len(probes) >= MAX_PROBES:
            continue
        after = masked[h.end():]
        pair = _PAIR.match(after)
        if pair and probe_expression(spans[int(pair.group(1))][0]):
            j = int(pair.group(1))
            what = pair.group("what").lower()
            kind: ProbeKind = "equal" if re.sub(r"\s+", " ", what) in _SAME else "distinct"
            probes.append(Probe(content, kind, other=spans[j][0]))
            paired.add(j)
            used.append((h.start(), h.end() + pair.end()))
            continue
        reverse = _GET_FROM.search(masked[:h.start()])
        if reverse:
            want, want_role = spans[int(reverse.group(1))]
            if not want_role:
                probes.append(Probe(content, "value", want, want_code=True))
                used.append((reverse.start(), h.end()))
                continue
        direct = _outcome(after, spans)
        found = (0, direct) if direct else _coordinated(after, spans)
        if found is None or found[1] is None:
            continue
        start, (said, want, want_code, end) = found
        probes.append(_probe(content, said, want, want_code))
        used += [(h.start(), h.end()), (h.end() + start, h.end() + end)]
    if not probes:
        return ProbePlan((), False)
    return ProbePlan(tuple(probes), _asserts_more(masked, used))


# discourse markers that place the sentence in the doc's walk-through and assert nothing themselves
_LEAD_IN = re.compile(r"^\s*(?:(?:Returns|Raises|Yields|Example|Examples|Note|So|Thus|Also|Here|E\.g\.|For\s+example|"
                      r"Calling|Call|Now|Next|Then|Finally|At\s+this\s+point|After\s+that|In\s+this\s+case)\b[:,]?\s*)+",
                      re.IGNORECASE)
_FIELD_HEAD = re.compile(r"^\s*(?:Parameters|Args|Arguments|Returns|Raises|Yields)\s*:\s*(?:[\w.\[\], |]+:\s*)?")


def _asserts_more(masked: str, used: list[tuple[int, int]], drop: re.Pattern[str] | None = None,
                  words: int = _REST_WORDS) -> bool:
    """Whether the sentence, without the probed calls and their outcome phrases, still says something:
    more than ``_REST_WORDS`` words, or another code span."""
    rest = []
    at = 0
    for start, end in sorted(used):
        rest.append(masked[at:start])
        at = max(at, end)
    rest.append(masked[at:])
    text = _LEAD_IN.sub("", _FIELD_HEAD.sub("", " ".join(rest)))
    if drop is not None:  # words that only introduce the probed example (``e.g.``)
        text = drop.sub(" ", text)
    if _SPAN.search(text):
        return True
    return len(_WORD.findall(text)) > words
