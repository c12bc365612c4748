"""Code a function runs without a call written for it: the getters of the properties it
reads through ``self``. The raise reach follows them. (Special methods behind syntax --
``box[key]``, ``for x in grid`` -- are not followed: on an object of unknown type every
project class's ``__iter__`` would be a candidate, which buried real answers in guesses.)"""

from __future__ import annotations

import ast

from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.pysig import is_property, own_nodes
from caas_tui.review.static.model.resolve import Def


def properties_read(ctx: ReviewContext, f: Def) -> list[Def]:
    """The getters of the owner's properties that ``f`` reads through ``self``."""
    node = f.node
    if f.owner is None or f.owner.kind != "class" or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
            or not node.args.args:
        return []
    me = node.args.args[0].arg
    out: dict[int, Def] = {}
    for n in own_nodes(node):
        if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load) and isinstance(n.value, ast.Name) \
                and n.value.id == me:
            res = ctx.resolver.member(f.owner, n.attr)
            if res.found and res.target is not None and is_property(res.target) and res.target.node is not None:
                out.setdefault(id(res.target.node), res.target)
    return list(out.values())
