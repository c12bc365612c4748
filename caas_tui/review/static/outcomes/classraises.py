""""`Client` raises `ClientError` when the server refuses", where the sentence is about what
the class's methods do rather than its constructor: some method of the class (its own,
inherited from project bases, or a subclass's), or code they call, must be able to raise
that project exception. Contradicted only when every one of them is seen in full and none
can; a builtin exception, an unresolved base or anything opaque in reach leaves it unjudged.
"""

from __future__ import annotations

import ast

from caas_tui.review.static.codefacts.raisecheck import bases_known, judge
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad
from caas_tui.review.static.model.resolve import Def

_MAX_METHODS = 120


def class_methods(ctx: ReviewContext, cls: Def) -> list[Def] | None:
    """Every function the class defines or inherits from project bases, and its subclasses'
    own; None when a base does not resolve (an inherited method may be anything)."""
    classes = [cls, *ctx.subclasses(cls)]
    if not all(bases_known(ctx, c) for c in classes):
        return None
    out: list[Def] = []
    seen: set[int] = set()
    for owner in classes:
        names = {s.name for c in _lineage(ctx, owner) if isinstance(c.node, ast.ClassDef) for s in c.node.body
                 if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
        for name in sorted(names):
            res = ctx.resolver.member(owner, name)
            target = res.target
            if target is None or target.kind != "function" or id(target.node) in seen:
                continue
            seen.add(id(target.node))
            out.append(target)
    return out if 0 < len(out) <= _MAX_METHODS else None


def _lineage(ctx: ReviewContext, cls: Def) -> list[Def]:
    out: list[Def] = []
    stack, seen = [cls], set()
    while stack:
        cur = stack.pop()
        if cur.kind != "class" or not isinstance(cur.node, ast.ClassDef) or id(cur.node) in seen:
            continue
        seen.add(id(cur.node))
        out.append(cur)
        stack.extend(ctx.resolver.bases(cur)[0])
    return out


def check_class_raises(ctx: ReviewContext, cls: Def, exc: Def, name: str) -> list[Finding]:
    if not exc.is_project or exc.kind != "class":
        return []
    methods = class_methods(ctx, cls)
    if methods is None:
        return []
    for method in methods:
        result, _ = judge(ctx, method, exc)
        if result is not False:
            return []  # some method can raise it, or it cannot be told
    return [bad("contradicted", f"`{cls.short}` raises `{name}`",
                f"no method of `{cls.short}` (inherited and subclasses' included), nor anything they call, "
                f"raises `{name}`", ctx.evidence(cls), ctx.evidence(exc), aspect="raises")]
