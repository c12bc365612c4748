"""The module a reST page speaks from: ``.. currentmodule::`` / ``.. module::`` above a claim,
and whether a claim is the signature of a hand-written object description under it.

Sphinx reads a bare target (``:class:`Version```, ``.. class:: Version``, ``.. attribute::
Version.epoch``) in the current module first, so under a project module those targets are
that module's names: a description of a name the module no longer has documents nothing.
"""

from __future__ import annotations

import re

from caas_tui.models import Claim
from caas_tui.review.static.context import ReviewContext

_CURRENT = re.compile(r"^\s*\.\.\s+(?:py:(?:current)?module|currentmodule|module|automodule)::\s*([\w.]+)\s*$")
# Directives that document an object by hand; ``autofunction`` and friends import it, so they define nothing.
DEFINING = r"(?:function|class|exception|data|decorator|method|attribute|staticmethod|classmethod|property)"
_DESCRIPTION = re.compile(rf"^\s*\.\.\s+(?:py:)?{DEFINING}::\s*\S")


def current_module(ctx: ReviewContext, claim: Claim) -> str | None:
    """The project module a reST ``.. currentmodule::`` / ``.. module::`` above the claim sets."""
    if not claim.doc_path.endswith((".rst", ".txt")):
        return None
    for line in reversed(ctx.doc_lines(claim.doc_path)[: max(claim.start_line - 1, 0)]):
        m = _CURRENT.match(line)
        if m:
            return m.group(1) if ctx.project.has_module(m.group(1)) else None
    return None


def describes_object(ctx: ReviewContext, claim: Claim) -> bool:
    """The claim is the signature line of a hand-written ``.. class::`` (``.. method::`` ...)."""
    lines = ctx.doc_lines(claim.doc_path)
    return claim.doc_path.endswith((".rst", ".txt")) and 0 < claim.start_line <= len(lines) \
        and _DESCRIPTION.match(lines[claim.start_line - 1]) is not None
