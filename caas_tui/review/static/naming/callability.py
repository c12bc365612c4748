"""Calls in prose to something that cannot be called: ```Job.done()``` where ``done`` is a
``bool`` field, ```limits.MAX_SIZE()``` where it is a number. The name exists, so the
existence check passes; the call the reader copies still fails with ``TypeError``."""

from __future__ import annotations

import ast

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import find_mentions
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Edit, Finding, bad
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import resolve_mention

_PLAIN = frozenset({"bool", "int", "float", "str", "bytes", "complex"})


def _plain_type(node: ast.AST | None) -> str | None:
    """The builtin value type an attribute is declared or assigned as, if it is one."""
    if isinstance(node, ast.AnnAssign):
        ann = node.annotation
        if isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):
            sides = [ann.left, ann.right]
            names = [s.id for s in sides if isinstance(s, ast.Name)]
            nones = [s for s in sides if isinstance(s, ast.Constant) and s.value is None]
            return names[0] if len(names) == 1 and nones and names[0] in _PLAIN else None
        return ann.id if isinstance(ann, ast.Name) and ann.id in _PLAIN else None
    if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
        kind = type(node.value.value).__name__
        return kind if kind in _PLAIN else None
    return None


def _callable_alike(owner: Def | None, member: str) -> str | None:
    """The one method of ``owner`` named like the attribute (``done`` -> ``done_at``)."""
    if owner is None or not isinstance(owner.node, ast.ClassDef):
        return None
    names = [n.name for n in owner.node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
             and (n.name.startswith(member + "_") or n.name.endswith("_" + member))]
    return names[0] if len(names) == 1 else None


def check_uncallable(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    findings: list[Finding] = []
    for m in find_mentions(claim.text):
        if not m.called or m.origin not in ("code", "call") or "." not in m.name:
            continue
        res = resolve_mention(ctx, claim, m)
        target = res.target
        if not res.found or res.ambiguous or target is None or not target.is_project or target.kind != "attribute":
            continue
        kind = _plain_type(target.node)
        if kind is None:
            continue
        shown = m.name
        rationale = f"`{shown}` is a `{kind}` attribute, not something to call"
        alike = _callable_alike(target.owner, target.short)
        edit = None
        if alike is not None:
            rationale += f"; did you mean `{target.owner.short if target.owner else ''}.{alike}()`?"
            edit = Edit(claim.start_line, claim.end_line, f"{shown}(", f"{shown.rsplit('.', 1)[0]}.{alike}(")
        findings.append(bad("contradicted", f"`{shown}` can be called", rationale, ctx.evidence(target), edit=edit))
    return findings
