"""Whether a claim about a class (``X raises E``) is about constructing it.

"Some methods on :class:`SSLStream` raise ..." is about members, not ``__init__``; only a
claim that constructs the class (``SSLStream(...)``, "creating a ``Scene`` raises"), a
``:raises:`` field, or a sentence of the class's own docstring (which documents the
constructor by convention) is judged against the constructor.
"""

from __future__ import annotations

import re

from caas_tui.models import Claim
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import section_subject

_MEMBERS = re.compile(r"\b(?:methods?|attributes?|propert(?:y|ies)|operations?|members?|functions?)\b", re.IGNORECASE)
_CONSTRUCTING = re.compile(r"\b(?:construct|creat|instantiat|initiali[sz]|making\s+an?\b|build)\w*", re.IGNORECASE)


def about_construction(ctx: ReviewContext, claim: Claim, cls: Def, *, field: bool) -> bool:
    if field:
        return True
    text = claim.text
    if re.search(rf"(?<![\w.]){re.escape(cls.short)}\s*\(", text) or _CONSTRUCTING.search(text):
        return True
    if _MEMBERS.search(text):
        return False
    if _names_init_param(ctx, claim, cls):
        return True  # "`Poller` raises ... if ``interval`` is below 1": a condition on what it is built with
    own = section_subject(ctx, claim)
    return own is not None and own.node is cls.node


def _names_init_param(ctx: ReviewContext, claim: Claim, cls: Def) -> bool:
    init = ctx.resolver.member(cls, "__init__")
    if not (init.found and init.target is not None and init.target.kind == "function"):
        return False
    sig = ctx.signature(init.target)
    if sig is None:
        return False
    spans = {span.strip().removesuffix("=") for span in claim.code_spans}
    return any(p.name in spans for p in sig.params if p.name not in ("self", "cls"))
