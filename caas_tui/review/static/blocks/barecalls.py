"""A bare call in prose (``fetch("KSEA", "metric")``) judged like a code block's when the
claim says which callable the bare name is: a qualified name in the same claim ending in it
(":meth:`wx.Client.fetch` is called as ``fetch(...)``"), or, in a docstring, the module's
own top-level binding of that name (a doctest runs in the module's globals).

Anything else stays unjudged: a bare name in a guide may be a parameter or a callback
(``progress(done, total)``). Calls the doc imported, or that name what the package exports,
are ``names.check_inline_calls``'s."""

from __future__ import annotations

import ast
import warnings

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import Mention, find_mentions
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import check_call_args, resolve_mention


def _call(raw: str) -> ast.Call | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(raw.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError):
        return None
    body = tree.body
    return body if isinstance(body, ast.Call) and isinstance(body.func, ast.Name) else None


def module_binding(ctx: ReviewContext, claim: Claim, name: str) -> Def | None:
    """The project function or class a docstring's module binds ``name`` to at top level."""
    if not claim.doc_path.endswith((".py", ".pyi")):
        return None
    src = ctx.project.module_for_path(claim.doc_path)
    if src is None or name not in src.bindings:
        return None
    res = ctx.resolver.resolve_in(src, name)
    t = res.target if res.found and not res.ambiguous else None
    return t if t is not None and t.is_project and t.kind in ("function", "class") else None


def _named_in_claim(ctx: ReviewContext, claim: Claim, name: str, mentions: list[Mention]) -> Def | None:
    targets: dict[int, Def] = {}
    for m in mentions:
        if m.name.rsplit(".", 1)[-1] != name or "." not in m.name:
            continue
        res = resolve_mention(ctx, claim, m)
        if res.found and not res.ambiguous and res.target is not None and res.target.is_project \
                and res.target.kind in ("function", "class"):
            targets[id(res.target.node)] = res.target
    return next(iter(targets.values())) if len(targets) == 1 else None


def check_bare_calls(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    mentions = find_mentions(claim.text)
    findings: list[Finding] = []
    for m in mentions:
        if m.origin != "code" or "." in m.name or m.raw.strip().endswith("()"):
            continue  # ``f()`` abbreviates a call as often as it makes one
        call = _call(m.raw)
        if call is None or not isinstance(call.func, ast.Name) or call.func.id != m.name:
            continue
        if ctx.doc_env(claim.doc_path, claim.section).get(m.name) is not None:
            continue  # imported by an earlier block: ``check_inline_calls`` judges it
        target = _named_in_claim(ctx, claim, m.name, mentions) or module_binding(ctx, claim, m.name)
        if target is None:
            continue
        export = ctx.resolver.exported(m.name)
        if target.kind == "class" or (export is not None and export.node is target.node):
            continue  # judged by ``check_inline_calls`` already
        findings += check_call_args(ctx, claim, call, target, on_instance=True, strict=True)
    return findings
