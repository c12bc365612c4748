"""A signature written inline in prose (``f(a, *, b=1, c=DEFAULT)``): the bare ``*`` or ``/``
says it is the signature, not an example call, so each ``name=value`` states that parameter's
default and the marker states which parameters are keyword-only. Names and arity are checked as
for any inline call (``naming.names``); this checks the defaults and the keyword-only marker.
A default no check can decide stays an asserted, unchecked ``default``, so the row is never
``consistent`` on its names alone.
"""

from __future__ import annotations

import ast
import re

from caas_tui.models import Claim, EvidenceSpan
from caas_tui.review.claims.mentions import dotted, is_signature
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.defaults.symdefaults import check_symbol_default, resolved_default
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import Signature, same_value
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.model.valuecalls import doc_qualname, value_call
from caas_tui.review.static.naming.names import inline_calls
from caas_tui.review.static.wording.facts import StatedValue


def _unchecked(check: str, why: str, aspect: str) -> Finding:
    return Finding("unchecked", check, why, (), aspects=(aspect,))


def _label(target: Def, sig: Signature) -> str:
    return target.short if target.kind == "class" else sig.fn.short


def _literal(node: ast.expr) -> tuple[object] | None:
    """``(value,)`` of a literal default (``256``, ``{}``, ``("a", "b")``), else None."""
    try:
        return (ast.literal_eval(node),)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return value_call(node, doc_qualname)


def _default(ctx: ReviewContext, claim: Claim, sig: Signature, label: str, kw: ast.keyword) -> list[Finding]:
    assert kw.arg is not None
    if isinstance(kw.value, ast.Constant) and kw.value.value is Ellipsis:
        return []  # ``f(*, b)``: keyword-only, no default shown
    p = sig.named(kw.arg)
    if p is None or p.kind in ("var", "varkw"):
        return []  # a name the callable lacks: the inline-call check reports it
    mod = sig.fn.module
    written = ast.unparse(kw.value)
    check = f"default of `{kw.arg}` in `{label}` is {written}"
    ev = ctx.evidence(sig.fn)
    if p.default is None:
        return [bad("contradicted", check, f"`{kw.arg}` of `{label}` is required; it has no default", ev,
                    aspect="default")]
    if mod is not None and mod.segment(p.default) == written:
        return [ok(check, ev, aspect="default")]  # the default as the code spells it
    literal = _literal(kw.value)
    if literal is not None:
        stated = literal[0]
        actual = resolved_default(ctx, sig, kw.arg, p.default, none_stated=stated is None)
        if actual is None:
            return [_unchecked(check, "", "default")]
        if same_value(stated, actual.value):
            return [ok(check, ev, *[ctx.evidence(d) for d in actual.via], aspect="default")]
        source = mod.segment(p.default) if mod is not None else actual.source
        return [bad("contradicted", check, f"`{label}` defaults `{kw.arg}` to {source}, not {written}", ev,
                    aspect="default")]
    name = dotted(kw.value)
    if name is not None:
        found = check_symbol_default(ctx, claim, sig, kw.arg, StatedValue(name, name, False, 0, symbol=True), label)
        return found or [_unchecked(check, "", "default")]
    return [_unchecked(check, "", "default")]


def _positional_names(sig: Signature, label: str, call: ast.Call, ev: EvidenceSpan | None) -> list[Finding]:
    """In a signature a bare name is a parameter, not a variable passed in: ``f(key, *rest)``
    says ``f`` has parameters ``key`` and ``*rest``."""
    out: list[Finding] = []
    slots = len([q for q in sig.positional if q.name not in ("self", "cls")])
    for i, arg in enumerate(call.args):
        starred = isinstance(arg, ast.Starred)
        node = arg.value if isinstance(arg, ast.Starred) else arg
        if not isinstance(node, ast.Name):
            continue
        p = sig.named(node.id)
        check = f"`{label}` has parameter `{'*' if starred else ''}{node.id}`"
        if p is not None and (p.kind == "var") == starred:
            out.append(ok(check, ev, aspect="parameters"))
        elif p is None and not starred and sig.has_varkw:
            continue  # ``**kwargs`` may take it by name; a positional slot says nothing
        elif p is None and not starred and sig.has_var and i >= slots:
            continue  # past the named slots ``*args`` takes it: the doc names what it means there
        else:
            has = ", ".join(f"`{q.name}`" for q in sig.params if q.name not in ("self", "cls"))
            why = f"`{label}` has no parameter `{node.id}` (its parameters: {has})" if p is None else \
                f"`{node.id}` of `{label}` is {'a single parameter, not `*' + node.id + '`' if starred else '`*' + node.id + '`'}"
            out.append(bad("contradicted", check, why, ev, aspect="parameters"))
    return out


def _stands_alone(claim: Claim, raw: str) -> bool:
    """A call span that is the whole claim (a ``.. function::`` directive, a heading) or the whole
    first cell of a table row: a signature shown as the entry's title, not an example call."""
    def bare(text: str) -> str:
        return text.strip().strip("`").strip()

    if bare(claim.text) == raw:
        return True
    if "table (" not in claim.context:
        return False
    first = claim.text.split(" | ", 1)[0]
    return first.startswith("`") and bare(first) == raw


def check_signature_spans(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind == "code":
        return []
    findings: list[Finding] = []
    for m, call, target in inline_calls(ctx, claim):
        raw = m.raw.strip()
        if not (is_signature(raw) or _stands_alone(claim, raw)):
            continue
        sig = ctx.call_signature(target, on_instance=True)
        if sig is None or not sig.reliable:
            continue
        label = _label(target, sig)
        ev = ctx.evidence(sig.fn)
        # a bare ``*`` or ``*args``: what follows is keyword-only
        marker = re.search(r"(?<!\*)\*(?!\*)\s*(?:,|[A-Za-z_])", raw)
        star = marker.start() if marker else -1
        for kw in call.keywords:
            if kw.arg is None:
                continue
            findings += _default(ctx, claim, sig, label, kw)
            p = sig.named(kw.arg)
            shown_keyword_only = star != -1 and re.search(rf"\b{re.escape(kw.arg)}\b", raw[star:]) is not None
            if p is not None and p.kind == "kwonly" and not shown_keyword_only:
                findings.append(bad("contradicted", f"`{kw.arg}` of `{label}` may be passed by position",
                                    f"`{kw.arg}` of `{label}` is keyword-only; the signature shows it before `*`", ev,
                                    aspect="kind"))
            elif p is not None and p.kind in ("pos", "posonly") and shown_keyword_only:
                findings.append(_unchecked(f"`{kw.arg}` of `{label}` is keyword-only",
                                           f"the code lets `{kw.arg}` be passed by position", "kind"))
        findings += _positional_names(sig, label, call, ev)
        for arg in call.args:
            p = sig.named(arg.id) if isinstance(arg, ast.Name) else None
            if p is not None and p.kind == "kwonly":
                findings.append(bad("contradicted", f"`{p.name}` of `{label}` may be passed by position",
                                    f"`{p.name}` of `{label}` is keyword-only; the signature shows it as positional",
                                    ev, aspect="kind"))
    return findings
