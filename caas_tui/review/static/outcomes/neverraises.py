""""Never raises" claims: contradicted only by a ``raise`` in the function's own body that
nothing in it catches (what callees raise may be handled by the caller's arguments)."""

from __future__ import annotations

import ast

from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad
from caas_tui.review.static.model.flow import own_raise_outside_try
from caas_tui.review.static.model.resolve import Def


def check_never_any(ctx: ReviewContext, fn: Def, label: str) -> list[Finding]:
    """"never raises" with no exception named: contradicted by a ``raise`` of its own that
    nothing in it catches."""
    node = own_raise_outside_try(fn, None)
    if node is None:
        return []
    raised = ast.unparse(node.exc.func if isinstance(node.exc, ast.Call) else node.exc) if node.exc else "?"
    return [bad("contradicted", f"`{label}` never raises", f"`{label}` raises `{raised}` itself (line {node.lineno})",
                ctx.evidence(fn), aspect="raises")]


def check_never(ctx: ReviewContext, fn: Def, exc: Def, name: str, label: str) -> list[Finding]:
    """"never raises X": contradicted only by a ``raise X`` in its own body that nothing catches."""
    names = {exc.qualname.rsplit(".", 1)[-1]}
    names |= {d.qualname.rsplit(".", 1)[-1] for d in ctx.subclasses(exc)} if exc.kind == "class" else set()
    node = own_raise_outside_try(fn, names)
    if node is None:
        return []
    ev = ctx.evidence(fn)
    return [bad("contradicted", f"`{label}` never raises `{name}`",
                f"`{label}` raises `{name}` itself (line {node.lineno})", ev, aspect="raises")]
