"""Why a function can't give ``None`` where a doc says it does: it never returns None (its
annotation or its returns) and raises instead, or its fallback for the stated missing case
is another value. One home for the prose, docstring-field and code-block forms."""

from __future__ import annotations

import re
from dataclasses import dataclass

from caas_tui.review.static.codefacts.raisecheck import reach
from caas_tui.review.static.codefacts.rettypes import never_none
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.outcomes.missingwords import MISSING, MISSING_WORD
from caas_tui.review.static.outcomes.retfallback import code_fallback

# "returns nothing.", ":returns: None", "Returns: None.", "# -> None": the result is None, whatever happens.
_NONE_RESULT = re.compile(r"(?:\breturns?:?|:returns?:|->|=>)\s*(?:``|`)?(?:None|nothing)(?:``|`)?[\s.]*$", re.IGNORECASE)
_CONDITION = re.compile(r"\b(?:if|when|whenever|unless|for|on|where|otherwise|or|once|after|until|while|in\s+case)\b",
                        re.IGNORECASE)


def unconditional_none(text: str) -> bool:
    """The text says the result is None, with no case or condition attached."""
    t = text.strip()
    return bool(_NONE_RESULT.search(t)) and not _CONDITION.search(re.sub(r"(`+)(.+?)\1", " ", t))


@dataclass(frozen=True, slots=True)
class NotNone:
    why: str  # "never returns None (annotated `-> bytes`); it raises `Missing`"
    evidence: tuple[Def, ...]


def not_none(ctx: ReviewContext, fn: Def, text: str, *, fallback: bool = False) -> NotNone | None:
    """What ``fn`` does instead of returning None, judged only when the code settles it.
    ``fallback``: also compare the value it hands back for the missing case ``text`` names
    (prose leaves that to ``retfallback.check_missing_fallback``)."""
    why = never_none(ctx, fn)
    if why is not None:
        reached = reach(ctx, fn)
        raised = [q.rsplit(".", 1)[-1] for q in reached.raised]
        if raised:
            instead = "it raises " + ", ".join(f"`{r}`" for r in raised)
        elif reached.subscripts and MISSING_WORD.search(text):
            instead = "its `[]` lookups raise instead (`KeyError`/`IndexError`)"
        elif unconditional_none(text):
            return NotNone(f"never returns None ({why})", (fn,))
        else:
            return None
        return NotNone(f"never returns None ({why}); {instead}", (fn, *reached.evidence[:2]))
    if fallback and MISSING.search(text):
        found = code_fallback(ctx, fn)
        if found is not None and found.value is not None:
            return NotNone(f"returns its fallback {found.source} {found.case}, i.e. {found.value!r}, not None",
                           found.via)
    return None
