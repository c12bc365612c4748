"""Names a claim uses that the reviewer could not resolve at all: the claim is not
``consistent`` on the strength of its other names.

A removed class written as a bare code span (``BaseResponse``), or a member of a class whose
members cannot be listed (a metaclass or an unresolved base may add them), resolves to
nothing: no check flags it and no check passes it. Left alone, the claim's other names would
make it ``consistent``; an ``unchecked`` finding keeps it ``unverified`` and says which name
was not checked. (A claim whose names all fail to resolve is unverified with no facts anyway.)
"""

from __future__ import annotations

import ast
import builtins
import keyword
import re
import sys

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import Mention
from caas_tui.review.claims.nonpython import classified_as_non_python, not_a_python_name
from caas_tui.review.static.blocks.codeblocks import parse_block
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.drift.removednames import doc_has, stdlib_names
from caas_tui.review.static.findings import Finding
from caas_tui.review.static.model.resolve import Def, external_object
from caas_tui.review.static.naming.names import judged_mentions, resolve_mention


def _foreign(ctx: ReviewContext, claim: Claim, name: str) -> bool:
    """A name that means something outside the project (builtin, stdlib, typing) or that the doc itself defines."""
    head = name.split(".")[0]
    if keyword.iskeyword(head) or hasattr(builtins, head) or head in sys.stdlib_module_names:
        return True
    if external_object(name) is not None or head in stdlib_names():
        return True
    if ctx.maybe_stdlib(head) and ctx.resolver.exported(head) is None:
        return True
    return doc_has(ctx, claim, head)


def check_unresolved(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind == "code" or not ctx.project.packages or claim.doc_path.endswith((".py", ".pyi")):
        return []
    out: list[Finding] = []
    doc = None
    mentions = judged_mentions(claim)
    for m in mentions:
        name = m.name
        if m.origin == "dotted" and not ctx.project.is_project(name):
            continue
        # a lone lower-case word (a variable, a key) or an all-caps one (``HEAD``, a value) is no
        # class name; a lower-case role (``:func:`helper```) is judged only for what it resolved to
        word = "." not in name and not (m.called or name[:1].isupper() and not name.isupper())
        if word and m.origin != "role":
            continue
        if name.startswith("_") or _foreign(ctx, claim, name) or classified_as_non_python(claim.text, m.start):
            continue
        if m.origin != "role":
            doc = doc if doc is not None else "\n".join(ctx.doc_lines(claim.doc_path))
            if not_a_python_name(name, claim.text, m.start, doc, qualified=ctx.project.is_project(name)):
                continue
        res = resolve_mention(ctx, claim, m)
        if res.found and res.target is not None:
            odd = _kind_mismatch(ctx, claim, m, res.target)
            if odd is not None:
                out.append(Finding("unchecked", f"`{name}` is what the doc calls it", odd, (), None, ("names",)))
            continue
        if res.status != "unknown" or word:
            continue
        if "." in name and ctx.project.is_project(name):
            why = f"`{name}` could not be resolved (members added at run time, or an import the reviewer cannot follow)"
        elif "." in name:
            why = f"`{name}` could not be resolved (its class's members cannot all be listed)"
        else:
            why = f"`{name}` is not defined in the project and was not checked"
        out.append(Finding("unchecked", f"`{name}` exists", why, (), None, ("names",)))
    if out and not any(_project_name(ctx, claim, m) for m in mentions):
        return []  # nothing else was checked either: the claim is unverified already, with no facts
    return out


def check_unresolved_imports(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    """``from pkg.mod import name`` in a code block, where the project's ``pkg.mod`` exists but
    ``name`` resolves to nothing either way (a module ``__getattr__``, a star import of another
    package): the block's other names must not make it ``consistent``."""
    if claim.kind != "code" or not ctx.project.packages:
        return []
    tree = parse_block(claim.text)
    if tree is None:
        return []
    out: list[Finding] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
            continue
        if not (ctx.project.is_project(node.module) and ctx.project.has_module(node.module)):
            continue
        owner = ctx.resolver.module_def(node.module)
        for alias in node.names:
            if alias.name != "*" and ctx.resolver.member(owner, alias.name).status == "unknown":
                name = f"{node.module}.{alias.name}"
                out.append(Finding("unchecked", f"`{name}` exists", f"`{name}` could not be resolved (bound at run "
                                   "time, or through an import the reviewer cannot follow)", (), None, ("names",)))
    return out


_ROLE = re.compile(r":(?:py:)?(\w+):`")


def _kind_mismatch(ctx: ReviewContext, claim: Claim, m: Mention, target: Def) -> str | None:
    """A name found only as something else than the role says: a module-level ``:func:`foo```
    that exists only as a method ``C.foo``. The name resolved, but not to what the doc names,
    so its existence was not checked."""
    if not target.is_project or "." in m.name:
        return None
    role = _ROLE.match(claim.text, m.start) if m.origin == "role" else None
    kind = role.group(1) if role is not None else ("func" if m.called else None)
    if kind in ("func", "function", "class", "exc", "data") and ctx.resolver.exported(m.name) is None:
        defs = ctx.resolver.defs_named(m.name)
        if defs and all(d.owner is not None and d.owner.kind == "class" for d in defs):
            where = ", ".join(f"`{d.qualname}`" for d in defs[:3])
            return f"`{m.name}` exists only as a member of a class ({where}), not as a module-level name"
    return None


def _project_name(ctx: ReviewContext, claim: Claim, m: Mention) -> bool:
    res = resolve_mention(ctx, claim, m)
    return res.found and res.target is not None and res.target.is_project
