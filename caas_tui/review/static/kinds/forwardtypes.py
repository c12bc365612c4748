"""The builtin type a claim gives an unannotated function or property ("`Store.total` returns
an `int`", "`Store.count` is a `float`") against the annotation of the project helper whose
result it returns (``return compute_total(self.amounts)``, ``compute_total(...) -> float``).

Annotated subjects are ``rettypes``' to judge. Here the type is known only when every
``return`` of the subject hands back a call to project functions (``delegation.callee``,
up to two hops) annotated with one plain builtin name. Two numeric types decide nothing
(an annotation ``-> float`` admits an ``int``, as in ``rettypes``): the claim's type is
reported unchecked, so the label stays ``unverified``.
"""

from __future__ import annotations

import ast
import re

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import find_mentions
from caas_tui.review.static.codefacts.delegation import callee
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import own_nodes
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import resolve_mention

_BUILTINS = ("int", "float", "str", "bool", "bytes", "list", "dict", "tuple", "set", "frozenset")
_TYPE = r"(?::(?:py:)?class:)?`{1,2}(?P<type>" + "|".join(_BUILTINS) + r")`{1,2}"
_STATED = re.compile(
    r"(?P<subject>(?::[\w:]+:)?`{1,2}[A-Za-z_][\w.]*(?:\(\))?`{1,2})\s+(?:(?:always\s+)?(?:returns|gives|is)\s+)"
    r"(?:an?\s+|of\s+type\s+)" + _TYPE + r"(?![\w`])",
)
_NUMERIC = frozenset({"int", "float", "bool"})
_MAX_HOPS = 2


def _annotation(fn: Def) -> str | None:
    node = fn.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.returns is None:
        return None
    ann = node.returns
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        return ann.value if ann.value in _BUILTINS else ""
    return ann.id if isinstance(ann, ast.Name) and ann.id in _BUILTINS else ""


def forwarded_type(ctx: ReviewContext, fn: Def, hops: int = 0) -> tuple[str, Def] | None:
    """(builtin type name, the helper annotated with it) when every return of ``fn`` hands
    back a call to project functions annotated with that one type."""
    node = fn.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or hops > _MAX_HOPS:
        return None
    returns = [n for n in own_nodes(node) if isinstance(n, ast.Return)]
    if not returns or any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in own_nodes(node)):
        return None
    found: set[str] = set()
    helper: Def | None = None
    for ret in returns:
        if not isinstance(ret.value, ast.Call):
            return None
        target = callee(ctx, fn, ret.value)
        if target is None or target.kind != "function":
            return None
        own = _annotation(target)
        if own == "":
            return None  # annotated with something other than one builtin
        if own is None:
            inner = forwarded_type(ctx, target, hops + 1)
            if inner is None:
                return None
            own, target = inner
        found.add(own)
        helper = target
    return (found.pop(), helper) if len(found) == 1 and helper is not None else None


def _subject(ctx: ReviewContext, claim: Claim, span: str) -> Def | None:
    for m in find_mentions(span):
        res = resolve_mention(ctx, claim, m)
        return res.target if res.found and not res.ambiguous else None
    return None


def check_forwarded_types(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind == "code":
        return []
    out: list[Finding] = []
    for m in _STATED.finditer(claim.text):
        subject = _subject(ctx, claim, m.group("subject"))
        if subject is None or subject.kind != "function" or not subject.is_project or _annotation(subject) is not None:
            continue
        found = forwarded_type(ctx, subject)
        if found is None:
            continue
        actual, helper = found
        stated = m.group("type")
        fact = f"{m.group('subject')} gives {'an' if stated[0] in 'aeiou' else 'a'} `{stated}`"
        if stated == actual:
            out.append(ok(fact, ctx.evidence(subject), ctx.evidence(helper), aspect=("type", "returns")))
        elif stated in _NUMERIC and actual in _NUMERIC:
            out.append(Finding("unchecked", fact, f"`{helper.short}` is annotated `-> {actual}`, which does not settle "
                               f"`{stated}`", (), None, ("type", "returns")))
        else:
            out.append(bad("contradicted", fact,
                           f"`{subject.short}` returns what `{helper.short}` returns, annotated `-> {actual}`",
                           ctx.evidence(subject), ctx.evidence(helper), aspect=("type", "returns")))
    return out
