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
from caas_tui.review.static.names import section_subject
from caas_tui.review.static.resolve import Def

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
    own = section_subject(ctx, claim)
    return own is not None and own.node is cls.node
