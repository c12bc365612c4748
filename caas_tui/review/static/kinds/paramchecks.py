"""A parameter entry's stated type (``handler (str):``, ``:type handler: str``) and its
described kind (``the handler class``, ``a callable``, ``path to ...``) against the
parameter's annotation. Unannotated parameters, and annotations we can't place, are
never judged."""

from __future__ import annotations

import ast
import dataclasses
import re

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import FieldFact
from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.codefacts.rettypes import annotation_kinds, compare
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import Param, Signature, is_enum
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import callable_mentions, section_subject
from caas_tui.review.static.referents.sectionnames import section_subjects
from caas_tui.review.static.wording.assertions import described_kind
from caas_tui.review.static.wording.facts import type_from_text
from caas_tui.review.static.wording.kindphrases import ACCEPTS_TYPE, PROSE_KIND, PROSE_TYPE, type_word_kind

_SCALARS = frozenset({"str", "int", "float", "bool", "bytes"})
_CALLABLE = frozenset({"Callable", "typing.Callable", "collections.abc.Callable", "abc.Callable"})
_CLASS = frozenset({"type", "Type", "typing.Type", "builtins.type"})
_PATH = frozenset({"Path", "pathlib.Path", "PurePath", "pathlib.PurePath", "PathLike", "os.PathLike"})
# Described kind -> annotation kinds that fit it, and those that can't.
_FITS = {
    "class": {"class"}, "callable": {"callable", "class"}, "path": {"str", "path", "bytes"},
    "id": {"str", "int", "bytes"}, "name": {"str"},
}
_CLASHES = {
    "class": _SCALARS | {"instance"}, "callable": _SCALARS, "path": {"int", "float", "bool"},
    "id": {"class", "callable", "float", "bool", "instance"},
    "name": {"class", "callable", "int", "float", "bool", "instance"},
}
_SAID = {"class": "a class", "callable": "a callable", "path": "a path", "id": "an id",
         "name": "a name"}
_WRITTEN: dict[str, str] = {"class": "`type[...]`", "callable": "`Callable[...]`", "path": "`str` or `Path`", "str": "`str`",
            "int": "`int`", "float": "`float`", "bool": "`bool`", "bytes": "`bytes`"}


def _unparse(expr: ast.expr) -> str:
    return ast.unparse(expr) if not isinstance(expr, ast.Constant) else str(expr.value)


def annotation_shape(expr: ast.expr | None) -> str | None:
    """class | callable | path | str | int | float | bool | bytes (Optional stripped), else None."""
    if expr is None:
        return None
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        try:
            expr = ast.parse(expr.value, mode="eval").body
        except SyntaxError:
            return None
    parts: list[ast.expr] = [expr]
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.BitOr):
        parts = [expr.left, expr.right]
    elif isinstance(expr, ast.Subscript) and (dotted(expr.value) or "").rsplit(".", 1)[-1] == "Optional":
        parts = [expr.slice]
    parts = [p for p in parts if not (isinstance(p, ast.Constant) and p.value is None)]
    if len(parts) != 1:
        return None
    node = parts[0]
    base = node.value if isinstance(node, ast.Subscript) else node
    name = dotted(base) or ""
    if name in _CLASS:
        return "class"
    if name in _CALLABLE:
        return "callable"
    if name in _PATH:
        return "path"
    if name in _SCALARS and not isinstance(node, ast.Subscript):
        return name
    return None


# A class whose own name says it is an id or a name (``UserId``, ``StationKey``), or that
# extends a scalar, can stand for one: never "an instance, not an id".
_ID_LIKE = re.compile(r"(?:Id|ID|Key|Name|Ref|Handle|Token|Path|Str|Int)(?:[A-Z_]|$)|^(?:Any|Self|object)$")
_SCALAR_BASES = frozenset({"str", "int", "bytes", "float", "UUID", "uuid.UUID", "PathLike", "os.PathLike"})


def param_shape(ctx: ReviewContext, fn: Def, expr: ast.expr | None) -> str | None:
    """:func:`annotation_shape`, or ``instance`` for a plain project class (``user: User``)
    that nothing marks as id- or name-like."""
    shape = annotation_shape(expr)
    if shape is not None or expr is None or fn.module is None:
        return shape
    name = dotted(expr)
    if name is None or _ID_LIKE.search(name.rsplit(".", 1)[-1]):
        return None
    res = ctx.resolver.resolve_in(fn.module, name)
    cls = res.target
    if not res.found or cls is None or cls.kind != "class" or not cls.is_project or not isinstance(cls.node, ast.ClassDef):
        return None
    if is_enum(cls, ctx.resolver) or any((dotted(b) or "") in _SCALAR_BASES for b in cls.node.bases):
        return None
    return "instance"


def _subject_sig(ctx: ReviewContext, subject: Def) -> Signature | None:
    sig = ctx.call_signature(subject, on_instance=True)
    return sig if sig is not None and sig.reliable else None


def _label(sig: Signature, subject: Def) -> str:
    if subject.kind == "class":
        return subject.short
    parts = sig.fn.qualname.split(".")
    return ".".join(parts[-2:]) if sig.fn.owner is not None else parts[-1]


def check_param_entry(ctx: ReviewContext, claim: Claim, fact: FieldFact, subject: Def) -> list[Finding]:
    if fact.role not in ("param", "type") or not fact.name or "," in fact.name:
        return []
    sig = _subject_sig(ctx, subject)
    if sig is None:
        return []
    p = sig.named(fact.name.strip().lstrip("*"))
    if p is None or p.annotation is None or p.kind in ("var", "varkw"):
        return []
    findings = _check_type(ctx, claim, sig, subject, p, fact.type)
    if fact.role == "param":
        findings += _check_kind(ctx, sig, subject, p, fact.desc)
    return findings


def _check_type(ctx: ReviewContext, claim: Claim, sig: Signature, subject: Def, p: Param, stated_text: str | None) -> list[Finding]:
    if not stated_text:
        return []
    word = type_word_kind(stated_text)  # NumPy ``hook : callable``, ``kind : Codec subclass``: a kind as the type
    if word is not None:
        return _judge_kind(ctx, sig, subject, p, word, aspect="type")
    stated = type_from_text(stated_text.split(",")[0].replace(" or None", ""))
    if stated is None:
        return []
    if stated.kind in ("None", "iterator"):
        return []
    kinds = annotation_kinds(ctx, sig.fn, p.annotation)
    if kinds is None:
        return []
    said = stated.name or stated.kind or stated_text
    label = _label(sig, subject)
    check = f"`{p.name}` of `{label}` is {said}"
    verdict = compare(ctx, stated, kinds, claim)
    if verdict is None:
        return []
    ev = ctx.evidence(sig.fn)
    if verdict:
        return [ok(check, ev, aspect="type")]
    assert p.annotation is not None
    return [bad("contradicted", check, f"`{p.name}` of `{label}` is annotated `{_unparse(p.annotation)}`, not {said}", ev,
                aspect="type")]


def _check_kind(ctx: ReviewContext, sig: Signature, subject: Def, p: Param, desc: str) -> list[Finding]:
    kind = described_kind(desc)
    return _judge_kind(ctx, sig, subject, p, kind, aspect="kind") if kind is not None else []


def _judge_kind(ctx: ReviewContext, sig: Signature, subject: Def, p: Param, kind: str, *, aspect: str) -> list[Finding]:
    shape = param_shape(ctx, sig.fn, p.annotation)
    if shape is None:
        return []
    label = _label(sig, subject)
    check = f"`{p.name}` of `{label}` is {_SAID[kind]}"
    ev = ctx.evidence(sig.fn)
    if shape in _FITS[kind]:
        return [ok(check, ev, aspect=aspect)]
    if shape not in _CLASHES[kind]:
        return []
    assert p.annotation is not None
    rationale = (f"`{p.name}` of `{label}` is described as {_SAID[kind]} but annotated `{_unparse(p.annotation)}`"
                 + (f"; {_SAID[kind]} would be {_WRITTEN[kind]}" if kind in _WRITTEN else ""))
    return [bad("contradicted", check, rationale, ev, aspect=aspect)]


def _one_taking(ctx: ReviewContext, candidates: list[Def], param: str) -> tuple[Signature, Def, Param] | None:
    """The one candidate callable with an annotated parameter ``param``: (signature, callable, parameter)."""
    having: dict[int, tuple[Signature, Def, Param]] = {}
    for d in candidates:
        sig = _subject_sig(ctx, d)
        p = sig.named(param) if sig is not None else None
        if sig is not None and p is not None and p.annotation is not None and p.kind not in ("var", "varkw"):
            having[id(sig.fn.node)] = (sig, d, p)
    return next(iter(having.values())) if len(having) == 1 else None


def check_prose_kinds(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    """```handler` is the handler class`` in prose, about the one named callable taking ``handler``;
    ```item` must be a `Tag``` and "accepts a `Tag`" against the annotation."""
    matches = list(PROSE_KIND.finditer(claim.text))
    typed = list(PROSE_TYPE.finditer(claim.text))
    accepts = list(ACCEPTS_TYPE.finditer(claim.text))
    if not (matches or typed or accepts):
        return []
    candidates = [d for _, d in callable_mentions(ctx, claim)]
    owner = section_subject(ctx, claim)
    if owner is not None:
        candidates.append(owner)
    # A row of a parameter table, or a sentence under a reference heading, belongs to what the section names.
    candidates += section_subjects(ctx, claim)
    findings: list[Finding] = []
    for m in matches:
        found = _one_taking(ctx, candidates, m.group("param"))
        if found is not None:
            findings += _check_kind(ctx, found[0], found[1], found[2], m.group("desc"))
    for m in typed:
        found = _one_taking(ctx, candidates, m.group("param"))
        if found is not None:
            findings += _check_type(ctx, claim, found[0], found[1], found[2], m.group("type"))
    # the callable named before the verb ("`Store.add(item)` accepts a `Tag`"), else the section's
    before = [d for pos, d in callable_mentions(ctx, claim) if accepts and pos < accepts[0].start()]
    named = {id(d.node): d for d in (before or ([owner] if owner is not None else []))}
    if accepts and len(named) == 1:
        d = next(iter(named.values()))
        sig = _subject_sig(ctx, d)
        params = [q for q in sig.params if q.name not in ("self", "cls") and q.kind not in ("var", "varkw")] if sig else []
        if sig is not None and len(params) == 1 and params[0].annotation is not None:
            # which argument "a `Tag`" is, is settled: the callable takes one
            findings += [dataclasses.replace(f, aspects=(*f.aspects, "parameters"))
                         for f in _check_type(ctx, claim, sig, d, params[0], accepts[0].group("type"))]
    return findings
