"""A parameter stated to be required or optional against whether the signature gives it a
default: ``:param topic: optional topic filter`` for ``topic: str`` with no default, ``port
(int): required.`` for ``port: int = 80``, ```callback` is required`` in prose.

Only what the signature settles is judged. "Optional" for a parameter annotated to accept
``None`` may mean "may be None", so it is left alone; so is "required" for a parameter whose
default is a sentinel or a ``None`` the body tests (it may insist on a value there), a parameter
whose callable takes ``**kwargs`` or ``*args`` (a wrapper), and any statement with a
condition ("required when ...", "only if ...")."""

from __future__ import annotations

import ast
import re

from caas_tui.models import Claim, EvidenceSpan
from caas_tui.review.claims.docstrings import FieldFact
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import Param, Signature, none_fallback
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.referents.subjects import claim_signatures

# The description opens with the word, alone or as "(optional)", "Optional." or "optional topic filter".
_FIELD = re.compile(r"^\W*(?P<word>required|mandatory|optional)\b", re.IGNORECASE)
_TYPE_OPTIONAL = re.compile(r"(?:^|,)\s*optional\s*$", re.IGNORECASE)
_PROSE = re.compile(
    r"(?<!`)`{1,2}(?P<param>[A-Za-z_]\w*)`{1,2}(?!`)(?:\s+(?:argument|parameter|param|keyword(?:\s+argument)?))?"
    r"(?:\s+(?:of|to|for)\s+(?::[\w:-]+:)?`{1,2}[\w.]+(?:\(\))?`{1,2})?"
    r"\s+(?:is|are)\s+(?:always\s+)?(?P<word>required|mandatory|optional)\b\s*(?P<rest>[^.;]*)",
    re.IGNORECASE,
)
_CONDITION = re.compile(r"\b(?:if|when|unless|only|for|with|whenever|except|but|in)\b", re.IGNORECASE)
_SENTINEL = re.compile(r"^_*(?:MISSING|NOTSET|NOT_SET|UNSET|SENTINEL|DEFAULT|NOTHING|EMPTY|NoDefault|Unset)\w*$",
                       re.IGNORECASE)


def _admits_none(expr: ast.expr | None) -> bool:
    if expr is None:
        return True  # unannotated: "optional" may mean "may be None"
    text = ast.unparse(expr) if not isinstance(expr, ast.Constant) else str(expr.value)
    return bool(re.search(r"\bNone\b|\bOptional\b|\bAny\b|\bobject\b", text))


def _sentinel(sig: Signature, p: Param, default: ast.expr) -> bool:
    if isinstance(default, ast.Constant):
        # A ``None`` the body tests may be refused there; one it never looks at is a plain default.
        return default.value is Ellipsis or (default.value is None and none_fallback(sig.fn, p.name)[0])
    name = ast.unparse(default).rsplit(".", 1)[-1]
    return bool(_SENTINEL.match(name)) or isinstance(default, ast.Call)


def _judge(sig: Signature, p: Param, word: str, label: str, ev: EvidenceSpan | None) -> list[Finding]:
    if sig.has_varkw or any(q.kind == "var" for q in sig.params) or p.kind in ("var", "varkw"):
        return []
    required = word.lower() in ("required", "mandatory")
    check = f"`{p.name}` of `{label}` is {'required' if required else 'optional'}"
    if required:
        if p.default is None:
            return [ok(check, ev, aspect="default")]
        if _sentinel(sig, p, p.default):
            return []
        return [bad("contradicted", check, f"`{p.name}` of `{label}` has a default (`{ast.unparse(p.default)}`); "
                    "it is not required", ev, aspect="default")]
    if p.default is not None:
        return [ok(check, ev, aspect="default")]
    if _admits_none(p.annotation):
        return []
    return [bad("contradicted", check, f"`{p.name}` of `{label}` has no default; it is required, not optional", ev,
                aspect="default")]


def _label(sig: Signature, subject: Def) -> str:
    if subject.kind == "class":
        return subject.short
    parts = sig.fn.qualname.split(".")
    return ".".join(parts[-2:]) if sig.fn.owner is not None else parts[-1]


def check_requiredness(ctx: ReviewContext, claim: Claim, fact: FieldFact | None, subject: Def | None) -> list[Finding]:
    if fact is not None:
        if fact.role != "param" or not fact.name or "," in fact.name or subject is None:
            return []
        sig = ctx.call_signature(subject, on_instance=True)
        p = sig.named(fact.name.strip().lstrip("*")) if sig is not None and sig.reliable else None
        if sig is None or p is None:
            return []
        m = _FIELD.match(fact.desc)
        if m is not None and _CONDITION.search(re.split(r"[.;]", fact.desc[m.end():], maxsplit=1)[0]):
            return []  # "required, unless ``url`` is given"
        word = m.group("word") if m else ("optional" if fact.type and _TYPE_OPTIONAL.search(fact.type) else None)
        return _judge(sig, p, word, _label(sig, subject), ctx.evidence(sig.fn)) if word else []
    findings: list[Finding] = []
    matches = [m for m in _PROSE.finditer(claim.text) if not _CONDITION.search(m.group("rest"))]
    if not matches:
        return findings
    sigs = claim_signatures(ctx, claim)
    for m in matches:
        having = [(d, s) for d, s in sigs.values() if s.named(m.group("param")) is not None]
        if len(having) != 1:
            continue  # no callable, or several, take it: which one is meant is unknown
        d, sig = having[0]
        p = sig.named(m.group("param"))
        assert p is not None
        findings += _judge(sig, p, m.group("word"), _label(sig, d), ctx.evidence(sig.fn))
    return findings
