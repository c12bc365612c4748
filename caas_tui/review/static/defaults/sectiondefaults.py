"""Defaults a tutorial states in words, about a parameter it names only in words and a
class it names only through the section ("If you leave the batch size out, the sink gets
batches of 500 records" after a block calling ``Pipeline(...)``; "By default a failing
call is retried after 250 ms" about ``RetryPolicy.backoff``).

The subject is a project class or function the section's heading, code or inline code
names before the sentence, or a class whose leading name word the sentence uses. The
parameter is the one whose name words the sentence spells out ("batch size" ->
``batch_size``); for a quantity with a unit, failing that, the one parameter of the
quantity's kind (a time, a count) whose documented meaning shares a word with the
sentence (only in a sentence that writes no code: one naming code but not the parameter
describes something else, like a delay the code computes). Every choice must be unique, or
nothing is judged. A parameter the sentence writes by its own name is left to the checks
that read names, unless it writes it only as the override ("one hour unless you pass
`ttl=`", which those checks, reading names before the value, do not see). A class
docstring states its public methods' defaults too. After an omission cue ("when not given",
"without ``ttl``") the one literal the sentence writes in code is the default.
"""

from __future__ import annotations

import ast
import re

from caas_tui.models import Claim
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.defaults.numbers import is_quantity, plain_number, quantity_matches, restate_value
from caas_tui.review.static.defaults.symdefaults import resolved_default
from caas_tui.review.static.defaults.worddefaults import OMITTED
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import Signature, same_value
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import section_subject
from caas_tui.review.static.naming.nouns import word_classes
from caas_tui.review.static.referents.sectionnames import param_docs, section_subjects
from caas_tui.review.static.referents.subjects import claim_signatures
from caas_tui.review.static.wording.facts import stated_defaults
from caas_tui.review.static.wording.units import Quantity, bare_numbers, param_unit, quantities
from caas_tui.review.static.wording.words import STOPWORDS, same_word, stem

# "polls every 30 s unless you pass `interval=`": what holds until the caller sets it, i.e. the default
# (and "one hour unless set", "unless otherwise given")
_UNLESS_BODY = (r"(?:you\s+(?:pass|set|give|specify|change|override)|(?:it\s+is\s+|they\s+are\s+)?(?:otherwise\s+)?"
                r"(?:set|given|specified|passed|overridden|configured))\b")
_UNLESS_SET = r"\bunless\s+" + _UNLESS_BODY
_CUE = re.compile(
    r"\bby\s+default\b|\bdefaults?\s+(?:to|is|of)\b|\bthe\s+default\b|\bdefault\s*:|\(\s*default\b|"
    r"\bif\s+you\s+(?:leave\s+(?:[\w`]+\s+){1,4}out|omit|don't\s+(?:pass|give|set|specify)|do\s+not\s+(?:pass|give|set|specify))\b|"
    r"\b(?:when|if)\s+(?:it\s+is\s+|they\s+are\s+|(?:[\w`]+\s+){1,3}(?:is|are)\s+)?(?:omitted|left\s+out|not\s+(?:given|set|passed|specified))\b|"
    r"\bwithout\s+(?:passing|setting|giving|specifying)\b|"
    r"\bwithout\s+(?:an?\s+|the\s+)?(`+)[A-Za-z_]\w*\1|"  # "rates added without ``ttl`` live for 15 minutes"
    + _UNLESS_SET,
    re.IGNORECASE,
)
# "unless you pass `ttl=` to `Store` or to `add`": the clause says where the default is overridden,
# so an "or" in it offers no second value, and a name in it is the parameter, not a value.
_OVERRIDE = re.compile(_UNLESS_SET + r"[^.;!?]*", re.IGNORECASE)
# A sentence that bounds or contrasts the default, or gives an example of it.
_MIXED = re.compile(r"\b(?:unless(?!\s+" + _UNLESS_BODY + r")|except|but|otherwise|either|or|e\.g|for\s+example|such\s+as|instead)\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z]{3,}")
_GENERIC = frozenset({"max", "min", "num", "use", "default", "has", "for", "the", "and", "with", "per", "can", "may",
                      "value", "number", "count"})
_TIME_WORDS = frozenset({"second", "millisecond", "minute", "hour", "delay", "timeout", "interval", "wait", "period",
                         "backoff", "ttl", "duration", "sleep", "latency", "expiry", "lifetime"})
_TIME_UNIT = re.compile(r"\b(?:(?:milli|micro|nano)?seconds?|ms|minutes?|hours?)\b", re.IGNORECASE)
_COUNT_WORDS = frozenset({"attempt", "retry", "retri", "tri", "time"})


def _name_words(name: str) -> list[str]:
    return [stem(t) for t in re.split(r"_+", name.lower()) if len(t) >= 3 and t not in _GENERIC]


def _prose_words(text: str) -> set[str]:
    prose = re.sub(r"(`+)(.+?)\1", " ", text)
    return {stem(w) for w in _WORD.findall(prose) if w.lower() not in STOPWORDS}


def _compounds(text: str) -> set[str]:
    """Adjacent word pairs written as one name word: "times out" -> ``timeout``, "back off" -> ``backoff``."""
    prose = re.findall(r"[A-Za-z]+", re.sub(r"(`+)(.+?)\1", " ", text))
    pairs = list(zip(prose, prose[1:], strict=False))
    # "times out": the verb's -s dropped, not stemmed ("tim" + "out" is no name word)
    return {stem(a.lower()) + b.lower() for a, b in pairs} | {stem((a + b).lower()) for a, b in pairs} | \
        {stem(a.lower().removesuffix("s") + b.lower()) for a, b in pairs}


def _family(name: str, desc: str) -> str | None:
    """The kind of quantity a parameter holds, from its name's unit suffix, its name's
    words or what its docstring says it is."""
    own = param_unit(name)
    if own is not None:
        return own[0]
    if _TIME_UNIT.search(desc) or any(same_word(w, t) for w in _name_words(name) for t in _TIME_WORDS):
        return "time"  # "delay ..., in seconds"; a "multiplier applied to the delay" is not a time
    if any(same_word(w, t) for w in set(_name_words(name)) for t in _COUNT_WORDS):
        return "count"
    return None


def _candidates(ctx: ReviewContext, claim: Claim) -> tuple[list[tuple[Def, Signature]], set[int]]:
    """The signatures the sentence can be about, and which of them it names itself (those
    the name-reading default checks also see)."""
    direct = claim_signatures(ctx, claim)
    subjects = [d for d, _ in direct.values()] + section_subjects(ctx, claim) + word_classes(ctx, claim.text)
    subjects += _own_methods(ctx, section_subject(ctx, claim))
    out: dict[int, tuple[Def, Signature]] = {}
    for d in subjects:
        sig = ctx.call_signature(d, on_instance=True)
        if sig is not None and sig.reliable:
            out.setdefault(id(sig.fn.node), (d, sig))
    return list(out.values()), set(direct)


def _own_methods(ctx: ReviewContext, owner: Def | None) -> list[Def]:
    """The public methods of the class whose docstring holds the claim: a class docstring
    states its methods' defaults too ("The ``batch`` defaults to 64" about ``drain(batch=...)``)."""
    if owner is None or owner.kind != "class" or not isinstance(owner.node, ast.ClassDef):
        return []
    out: list[Def] = []
    for stmt in owner.node.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and not stmt.name.startswith("_"):
            res = ctx.resolver.member(owner, stmt.name)
            if res.found and res.target is not None and res.target.kind == "function":
                out.append(res.target)
    return out


def _numeric(ctx: ReviewContext, sig: Signature, name: str) -> bool:
    p = sig.named(name)
    if p is None or p.default is None or p.kind in ("var", "varkw"):
        return False
    actual = resolved_default(ctx, sig, name, p.default, none_stated=False)
    return actual is not None and is_quantity(actual.value)


_TERM = re.compile(r"^\s*(`+)([A-Za-z_]\w*)\1\s*(?:[:\u2014\u2013-]\s|\s)")


def leading_term(claim: Claim) -> str | None:
    """The name a definition-list entry or a list item opens with (```timeout``` then "Seconds
    to wait. Defaults to ``30``."): what the entry's later sentences are about."""
    paragraph = claim.context.split("\n\n", 1)[-1]
    m = _TERM.match(paragraph)
    return m.group(2) if m and not paragraph.startswith(claim.text) else None


def _pick(ctx: ReviewContext, claim: Claim, pairs: list[tuple[Def, Signature]], direct: set[int],
          q: Quantity | None, *, numeric: bool = True) -> tuple[Def, Signature, str] | None:
    words = _prose_words(claim.text) | _compounds(claim.text)
    outside = _OVERRIDE.sub(" ", claim.text)  # a name only in "unless you pass `x=`" is for this check
    # The name-reading checks judge a value they can read ("defaults to 8", "250 ms"); a bare
    # "is 4 by default" they can't, so it stays here.
    seen = bool(_SAYS_DEFAULT.search(claim.text)) and bool(stated_defaults(claim.text) or quantities(claim.text))
    term = leading_term(claim)
    spelled: list[tuple[Def, Signature, str]] = []
    described: list[tuple[Def, Signature, str]] = []
    for d, sig in pairs:
        docs = param_docs(ctx, d, sig.fn)
        for p in sig.params:
            if p.name in ("self", "cls") or p.default is None or (numeric and not _numeric(ctx, sig, p.name)):
                continue
            desc = docs.get(p.name, "")
            if p.name == term or re.search(rf"\b{re.escape(p.name)}\b", claim.text):
                if seen and re.search(rf"\b{re.escape(p.name)}\b", outside) and (
                        (id(sig.fn.node) in direct and _in_code(claim, p.name)) or _in_code(claim, p.name, dotted=True)):
                    return None  # named outright, of a callable the sentence names: the name-reading checks judge it
                spelled.append((d, sig, p.name))
                continue
            if q is not None and _family(p.name, desc) != q.family:
                continue
            own = _name_words(p.name)
            if own and all(any(same_word(t, w) for w in words) for t in own):
                spelled.append((d, sig, p.name))
            elif numeric and q is not None and desc and (not claim.code_spans or _names_only(claim, d)) \
                    and words & (_prose_words(desc) - {stem(w) for w in _name_words(p.name)} - _CUE_WORDS):
                # By what the parameter is documented as, only in a sentence naming no code but the
                # callable itself: one that names other code is about something else the code does.
                described.append((d, sig, p.name))
    for found in (spelled, described):
        if found:
            return found[0] if len(found) == 1 else None
    return None


# The cue the name-reading default checks need; "if you leave `x` out" alone is this module's.
_SAYS_DEFAULT = re.compile(r"\bdefault", re.IGNORECASE)
_CUE_WORDS = frozenset({stem("default"), stem("defaults")})


def _in_code(claim: Claim, name: str, *, dotted: bool = False) -> bool:
    """``name`` written as code (```timeout```, ```timeout=5```), or with ``dotted`` as a member (```Client.timeout```)."""
    pattern = rf"[\w.]+\.{re.escape(name)}" if dotted else rf"(?:[\w.]+\.)?{re.escape(name)}\s*(?:=.*)?"
    return any(re.fullmatch(pattern, span.strip()) for span in claim.code_spans)


def _names_only(claim: Claim, subject: Def) -> bool:
    """Every code span of the claim is the subject itself (``:func:`pkg.poll` polls every ...``)."""
    return all(span.strip().removesuffix("()").rsplit(".", 1)[-1] == subject.short for span in claim.code_spans)


def _label(subject: Def, sig: Signature) -> str:
    if subject.kind == "class":
        return subject.short
    parts = sig.fn.qualname.split(".")
    return ".".join(parts[-2:]) if sig.fn.owner is not None else parts[-1]


_CODE_VALUE = re.compile(r"\bdefaults?(?:\s+(?:to|is|of)|\s*[:=])?\s*(`+)([^`]+)\1", re.IGNORECASE)


def _literal(written: str) -> tuple[object, str] | None:
    try:
        return ast.literal_eval(written), written
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


def _code_value(text: str) -> tuple[object, str] | None:
    """The literal a sentence gives as a default in code ("defaults to ``True``", "default:
    `30`"; after an omission cue, "when not given, `sep` is `","`", the one literal it writes);
    None when there is none, or more than one, or it is no literal."""
    found = list(_CODE_VALUE.finditer(text))
    if len(found) == 1:
        return _literal(found[0].group(2).strip())
    if found or not OMITTED.search(text):
        return None
    literals = [v for m in re.finditer(r"(`+)([^`]+)\1", text) if (v := _literal(m.group(2).strip())) is not None]
    return literals[0] if len(literals) == 1 else None


def check_section_defaults(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind != "prose":
        return []
    cue = _CUE.search(claim.text)
    if cue is None or _MIXED.search(_OVERRIDE.sub(" ", claim.text)):
        return []
    literal = _code_value(claim.text)
    qs = quantities(claim.text) if literal is None else []
    bare = bare_numbers(claim.text) if literal is None else []
    if literal is None and len(qs) + len(bare) != 1:
        return []  # none, or several values: which one is the default is unknown
    q = qs[0] if qs else None
    pairs, direct = _candidates(ctx, claim)
    picked = _pick(ctx, claim, pairs, direct, q, numeric=literal is None) if pairs else None
    if picked is None:
        return []
    subject, sig, param = picked
    p = sig.named(param)
    none_stated = literal is not None and literal[0] is None
    actual = resolved_default(ctx, sig, param, p.default, none_stated=none_stated) if p and p.default else None
    if actual is None:
        return []
    label = _label(subject, sig)
    verdict: bool | None
    if literal is not None:
        verdict = same_value(literal[0], actual.value)
        said = f"`{literal[1]}`"
    elif q is not None:
        verdict = quantity_matches(q, param, actual.value)
        said = q.text
    elif (number := plain_number(actual.value)) is not None:
        verdict = bare[0][0] == number
        said = f"{bare[0][0]:g}"
    else:
        return []
    if verdict is None:
        return []
    check = f"default of `{param}` in `{label}` is {said}"
    ev = [ctx.evidence(sig.fn), *(ctx.evidence(d) for d in actual.via)]
    aspect: tuple[str, ...] = ("default",) if q is None else ("default", "value")  # the quantity is what was compared
    if verdict:
        return [ok(check, *ev, aspect=aspect)]
    where = f" (via `{actual.via[-1].qualname}`)" if actual.via else ""
    shown = restate_value(q, param, actual.value) if q is not None else None
    also = f", which is {shown}" if shown and shown != actual.source else ""
    return [bad("contradicted", check, f"`{label}` defaults `{param}` to {actual.source}{where}{also}, not {said}",
                *ev, aspect=aspect)]
