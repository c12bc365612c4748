"""The OUTCOME a claim states for a project callable, and the CONDITION under which it says so.

Outcomes: raises ``E`` ("raises", "throws", "is rejected with", "fails with", "reports ... as");
is rejected (some exception); raises nothing ("never raises", "ignores", "skips", "tolerates",
"accepts"); returns ``None``; returns an empty container; returns a literal; keeps the first or
the last of repeated entries ("the last one wins"). "Every problem", "any error", "all errors",
"whatever the input" make the outcome universal. The condition is the sentence (plus the FAQ
question right above an answer); ``concepts`` reads it in a closed vocabulary that the project's
test inputs and test names can be matched against.
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass
from typing import Literal

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import FieldFact
from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.codefacts.raisecheck import stated_exception
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import callable_mentions
from caas_tui.review.static.outcomes.raiseclaims import stated_raise_claims
from caas_tui.review.static.referents.subjects import subject_of
from caas_tui.review.static.testevidence.testfacts import MISSING, literal_args
from caas_tui.review.static.wording.facts import parse_value

OutcomeKind = Literal["raises", "no-raise", "returns-none", "returns-empty", "returns-value", "keeps"]


@dataclass(frozen=True)
class Stated:
    fn: Def
    kind: OutcomeKind
    exc: Def | None = None  # raises: the stated exception; None with kind "raises": any exception
    exc_name: str = ""
    value: object = MISSING  # returns-value: the literal; keeps: "first" | "last"
    universal: bool = False
    condition: str = ""
    written: str = ""  # the outcome as the claim writes it
    calls: tuple[object, ...] = ()  # literal arguments of the calls of ``fn`` the claim writes out


UNIVERSAL = re.compile(r"\b(?:every|all|any)\s+(?:\w+\s+)?(?:problems?|errors?|failures?|issues?|exceptions?)\b|"
                       r"\bwhatever\s+the\s+input\b|\b(?:any|every)\s+input\b", re.IGNORECASE)
_NOUN_MISSING = r"(?:missing|absent|nonexistent|non-existent|unknown)"
CONCEPTS: dict[str, re.Pattern[str]] = {
    "missing-path": re.compile(
        rf"\b(?:files?|paths?|directory|directories|folders?)\b[^.;?]*?\b(?:does\s+not|doesn't|do\s+not|don't)\s+exist|"
        rf"\b(?:files?|paths?|directory|folders?)\b\s+(?:is\s+|are\s+)?(?:missing|absent|not\s+found)\b|"
        rf"\b{_NOUN_MISSING}\s+(?:\w+\s+)?(?:files?|paths?|directory|folders?)\b|\bno\s+such\s+file\b", re.IGNORECASE),
    "duplicate": re.compile(r"\b(?:repeats?|repeated|repeating|duplicates?|duplicated|twice|more\s+than\s+once)\b",
                            re.IGNORECASE),
    "again": re.compile(r"\b(?:again|a\s+second\s+time|already\s+(?:been\s+)?(?:closed|stopped|started|finished|done|"
                        r"cancell?ed|completed|consumed|released|used|run))\b|"
                        r"\bcall(?:s|ed|ing)?\s+(?:`[^`]+`|\w+(?:\(\))?)\s+twice\b", re.IGNORECASE),
    "malformed": re.compile(r"\b(?:malformed|invalid|broken|corrupt(?:ed)?|garbage|unparsable|unparseable|"
                            r"not\s+valid)\b|\bbad\s+(?:syntax|input|json|data|text|document)\b", re.IGNORECASE),
    "empty": re.compile(r"\b(?:empty|blank)\b", re.IGNORECASE),
    "negative": re.compile(r"\b(?:negative|below\s+zero|less\s+than\s+zero)\b", re.IGNORECASE),
    "zero": re.compile(r"\bzero\b", re.IGNORECASE),
}


# "an unknown key", "the flag is missing", "no such variant": ``missing:<noun>``, the noun kept, so a
# test about an unknown variant is not taken for one about an unknown flag.
_MISSING_NOUN = re.compile(
    rf"\b{_NOUN_MISSING}\s+(?P<a>[a-z]+)\b|\bno\s+such\s+(?P<b>[a-z]+)\b|"
    r"\b(?P<c>[a-z]+)\s+(?:is|are)\s+(?:missing|absent|unknown|undefined|not\s+(?:found|present|stored|known|defined))\b|"
    r"\b(?P<d>[a-z]+)\s+that\s+(?:was|were|is|has)\s+(?:never|not)\s+(?:been\s+)?(?:put|stored|added|set|defined)\b",
    re.IGNORECASE)
_NOT_NOUNS = frozenset({"a", "an", "the", "or", "and", "to", "if", "when", "is", "are", "it", "its", "this", "that",
                        "one", "value", "values", "input", "inputs"})


def concepts(text: str) -> frozenset[str]:
    found = {name for name, pat in CONCEPTS.items() if pat.search(text)}
    for m in _MISSING_NOUN.finditer(text):
        noun = next(g for g in m.groups() if g).lower()
        if noun not in _NOT_NOUNS and not re.fullmatch(r"files?|paths?|directory|directories|folders?", noun):
            found.add("missing:" + (noun[:-1] if noun.endswith("s") and not noun.endswith("ss") else noun))
    if "missing-path" in found or any(c.startswith("missing:") for c in found):
        found.discard("empty")  # "an empty list for a missing file": the outcome, not the condition
    return frozenset(found)


_EXC = r"(?::exc:`~?(?P<role>[\w.]+)`|``?(?P<tick>[\w.]+)``?|(?P<bare>\b[A-Z]\w*(?:Error|Exception)\b))"
_WITH_EXC = re.compile(r"\b(?:rejects?|rejected|refuses?|refused|fails?|failed|reports?|reported|signals?|signalled|"
                       r"wraps?|wrapped|surfaces?|surfaced)\b[^.;?]*?\b(?:with|as|by\s+raising|into)\s+(?:an?\s+)?"
                       + _EXC, re.IGNORECASE)
_REJECT = re.compile(r"\b(?:rejects?|rejected|refuses?|refused)\b", re.IGNORECASE)
_NO_RAISE = re.compile(r"\b(?:ignores?|ignored|skips?|skipped|tolerates?|tolerated|accepts?|accepted|"
                       r"does\s+nothing|is\s+a\s+no-?op)\b", re.IGNORECASE)
_RETURNS = re.compile(r"\b(?:returns?|returned|gives?(?:\s+back)?|hands?\s+(?:you\s+)?back|evaluates?\s+to)\s+"
                      r"(?P<tok>``[^`]+``|`[^`]+`|None\b|an?\s+empty\s+(?:list|dict|dictionary|tuple|set|string|str|"
                      r"mapping|sequence)\b)", re.IGNORECASE)
_KEEPS = re.compile(r"\b(?:keeps?|kept|uses?|takes?)\s+the\s+(?P<a>first|last|earliest|latest)\b|"
                    r"\bthe\s+(?P<b>first|last|earliest|latest)(?:\s+(?:one|value|entry|occurrence))?\s+"
                    r"(?:wins|is\s+kept|takes\s+precedence|is\s+used)\b", re.IGNORECASE)
_NEVER = re.compile(r"\b(?:never|doesn't|does\s+not|won't|will\s+not)\s+(?:raises?|throws?|fails?)\b"
                    r"(?!\s*(?:an?\s+)?(?:`|:exc:|[A-Z]\w*(?:Error|Exception)))", re.IGNORECASE)
_EMPTY = re.compile(r"\ban?\s+empty\s+(?:list|dict|dictionary|tuple|set|string|str|mapping|sequence)\b", re.IGNORECASE)
_NEG_BEFORE = re.compile(r"(?:\bnever|\bnot|n't|\bnor|\bwithout)\s+(?:\w+\s+)?$", re.IGNORECASE)


_INLINE_CALL = re.compile(r"``?([^`]+\([^`]*\))``?")


def literal_calls(fn: Def, text: str) -> tuple[object, ...]:
    """The literal arguments of each call of ``fn`` written in the text (```f("beta", 2)```)."""
    out = []
    for m in _INLINE_CALL.finditer(text):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                node = ast.parse(m.group(1).strip(), mode="eval").body
        except SyntaxError:
            continue
        if isinstance(node, ast.Call) and (dotted(node.func) or "").rsplit(".", 1)[-1] == fn.qualname.rsplit(".", 1)[-1]:
            args = literal_args(node)
            if args is not None and (args[0] or args[1]):
                out.append(args)
    return tuple(out)


def _exception(ctx: ReviewContext, name: str, claim: Claim) -> Def | None:
    """The exception as the claim's doc means it, else the project's one class of that name (a
    docstring may name an exception its module never imports)."""
    return stated_exception(ctx, name, claim) or stated_exception(ctx, name)


def _question(ctx: ReviewContext, claim: Claim) -> str:
    """A FAQ question: the line right above the answer ("**What if the file is missing?**") or the
    heading the answer sits under."""
    lines = ctx.doc_lines(claim.doc_path)
    i = claim.start_line - 2
    if 0 <= i < len(lines) and lines[i].strip().rstrip("*_ ").endswith("?"):
        return lines[i].strip()
    heading = (claim.section or "").rsplit(">", 1)[-1].strip()
    return heading if heading.endswith("?") else ""  # "### What if the file is missing?"


def _sentence(text: str, pos: int) -> str:
    start = max(text.rfind(". ", 0, pos), text.rfind("? ", 0, pos), text.rfind("\n\n", 0, pos)) + 1
    end = re.search(r"[.;?](?:\s|$)", text[pos:])
    return text[start: pos + end.start() if end else len(text)].strip()


def _subject(ctx: ReviewContext, claim: Claim, pos: int, given: Def | None) -> Def | None:
    if given is not None:
        return given
    found = subject_of(ctx, claim, pos)
    if found is None:
        named = {id(d.node): d for _, d in callable_mentions(ctx, claim) if d.kind == "function"}
        found = next(iter(named.values())) if len(named) == 1 else None  # "... is rejected by `f`"
    if found is not None and found.kind == "class":
        init = ctx.resolver.member(found, "__init__")
        found = init.target if init.found and not init.ambiguous else None
    return found if found is not None and found.kind == "function" and found.is_project else None


def stated_outcomes(ctx: ReviewContext, claim: Claim, fact: FieldFact | None, subject: Def | None) -> list[Stated]:
    if fact is not None and (subject is None or fact.role not in ("raises", "returns")):
        return []
    question = _question(ctx, claim) if fact is None else ""
    out: list[Stated] = []
    for fn, name, negated, condition in stated_raise_claims(ctx, claim, fact, subject):
        fn = _subject(ctx, claim, 0, fn)  # type: ignore[assignment]
        if fn is None:
            continue
        text = f"{question} {claim.text if fact is None else fact.desc} {condition}"
        if negated and not name:
            out.append(Stated(fn, "no-raise", universal=True, condition=text, written="never raises",
                              calls=literal_calls(fn, claim.text)))
        elif not negated:
            exc = _exception(ctx, name, claim)
            if exc is not None:
                out.append(Stated(fn, "raises", exc, name, universal=bool(UNIVERSAL.search(text)), condition=text,
                                  written=f"raises `{name}`", calls=literal_calls(fn, claim.text)))
    body = claim.text if fact is None else f"returns {fact.desc}" if fact.role == "returns" else ""
    out += _worded(ctx, claim, body, subject, question, fact is not None)
    return out


def _worded(ctx: ReviewContext, claim: Claim, text: str, given: Def | None, question: str, field: bool) -> list[Stated]:
    out: list[Stated] = []

    def add(pos: int, **kw: object) -> None:
        fn = _subject(ctx, claim, pos, given)
        if fn is not None and not _NEG_BEFORE.search(text[max(0, pos - 30):pos]):
            out.append(Stated(fn, condition=f"{question} {text if field else _sentence(text, pos)}",
                              calls=literal_calls(fn, _sentence(text, pos)), **kw))  # type: ignore[arg-type]

    if not field:
        for m in _WITH_EXC.finditer(text):
            name = m.group("role") or m.group("tick") or m.group("bare")
            exc = _exception(ctx, name, claim)
            if exc is not None:
                add(m.start(), kind="raises", exc=exc, exc_name=name, written=f"is rejected with `{name}`",
                    universal=bool(UNIVERSAL.search(_sentence(text, m.start()))))
        if not out:
            for m in _REJECT.finditer(text):
                add(m.start(), kind="raises", written="is rejected")
    if not any(s.kind == "no-raise" for s in out):
        for m in _NEVER.finditer(text):
            add(m.start(), kind="no-raise", universal=True, written="never raises")
    if field and not any(s.kind.startswith("returns") for s in out):
        for m in _EMPTY.finditer(text):
            add(m.start(), kind="returns-empty", written="returns " + m.group(0))
    for m in _NO_RAISE.finditer(text):
        add(m.start(), kind="no-raise", written=m.group(0))
    for m in _RETURNS.finditer(text):
        tok = m.group("tok")
        if re.match(r"an?\s+empty", tok, re.IGNORECASE):
            add(m.start(), kind="returns-empty", written="returns " + tok)
            continue
        value, literal = parse_value(tok)
        if literal and value is None:
            add(m.start(), kind="returns-none", written="returns None")
        elif literal and isinstance(value, (int, float, str, bytes, list, tuple, dict, bool)):
            add(m.start(), kind="returns-empty" if value in ([], {}, (), "", b"") else "returns-value",
                value=value, written=f"returns {tok}")
    for m in _KEEPS.finditer(text):
        which = (m.group("a") or m.group("b")).lower()
        add(m.start(), kind="keeps", value="first" if which in ("first", "earliest") else "last",
            written=f"keeps the {which}")
    return out
