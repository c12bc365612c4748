"""A cross-reference role whose target is a module: ``:func:`sort_query``` (or ``.. autofunction::
sort_query``) where only the module ``pkg.functions.sort_query`` is left. Sphinx's object roles
match objects of their own kind, so the reference is broken; the function it named is gone."""

from __future__ import annotations

import re

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import Mention
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad
from caas_tui.review.static.model.resolve import Def

ROLE_AT = re.compile(r":(?:py:)?(\w+):`")
_OBJECT_ROLES = {"func": "function", "function": "function", "class": "class", "exc": "exception",
                 "meth": "method", "method": "method", "attr": "attribute", "data": "data", "decorator": "decorator"}


def role_of(claim: Claim, m: Mention) -> str | None:
    """The role a ``role`` mention is written with (``func`` for ``:py:func:`x```)."""
    hit = ROLE_AT.match(claim.text, m.start) if m.origin == "role" else None
    return hit.group(1) if hit is not None else None


def module_for_object_role(ctx: ReviewContext, claim: Claim, m: Mention, target: Def, shown: str) -> Finding | None:
    """Contradicted when an object role (``:func:``, ``:class:`` ...) resolved only to a module."""
    role = role_of(claim, m)
    if role not in _OBJECT_ROLES or target.kind != "module" or not target.is_project:
        return None
    parent, _, last = target.qualname.rpartition(".")
    if parent and ctx.project.has_module(parent):
        # ``from pkg.raycast import raycast`` in ``pkg/__init__.py``: ``pkg.raycast`` is the function
        bound = ctx.resolver.member(ctx.resolver.module_def(parent), last)
        if not bound.found or bound.target is None or bound.target.kind != "module":
            return None
    what = _OBJECT_ROLES[role]
    return bad("contradicted", f"`{shown}` is a {what}",
               f"`{shown}` is the module `{target.qualname}`, not a {what}: a `:{role}:` reference to it cannot "
               f"resolve (use `:mod:` for the module, or the {what} it should name)", ctx.evidence(target))
