"""Deprecation notes about names that are already gone.

A sentence about the API's past ("was renamed to", "has been removed") may name things that
no longer exist, so the reviewer leaves it alone. A deprecation note speaks of the present
("``x`` is deprecated and will be removed in 2.0", a ``.. deprecated::`` block): it says the
name still exists. When the code no longer has it, the note is out of date, which is the
drift a reader of an old guide hits.
"""

from __future__ import annotations

import dataclasses
import re

from caas_tui.models import Claim
from caas_tui.review.claims.tense import SURVIVES, in_version_note
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.drift.driftnames import check_stdlib_named, check_worded_members
from caas_tui.review.static.drift.removednames import check_unbound_api_names
from caas_tui.review.static.findings import Finding
from caas_tui.review.static.naming.names import check_mentions
from caas_tui.review.static.naming.prosenames import check_named_members, check_undefined_roles

_PENDING = re.compile(
    r"\b(?:will\s+(?:soon\s+)?be\s+(?:removed|dropped|deleted|gone)|(?:is|are)\s+(?:now\s+)?deprecated"
    r"|deprecated\s+(?:and|since|as\s+of|in\s+(?:version\s+)?\d)|pending\s+deprecation|scheduled\s+for\s+removal)\b"
    # the adjective before a name: "a deprecated :class:`LegacyVersion` object" is one that exists
    r"|(?:\b(?:a|an|the|or|and|any|of)\s+|\()deprecated\s+(?=:[\w:]+:`|``?\w)",
    re.IGNORECASE,
)
# the note tells of a change that already happened: the names it uses may be gone on purpose
_DONE = re.compile(
    r"\b(?:was|were|has|have|had)\s+(?:\w+ly\s+)?(?:been\s+)?(?:removed|renamed|moved|replaced|dropped|deleted|split)\b"
    r"|\b(?:renamed|moved)\s+(?:to|into|from)\b|\bno\s+longer\b|\bformerly\b|\bpreviously\b|\bused\s+to\b"
    r"|\b(?:old|former|legacy)\s+(?:name|api|spelling)\b(?!\s+(?:is|are)?\s*(?:still|kept|remains?|stays?)\b)"
    # a release note's past-tense verb: "Deprecated the ``x`` module, will be removed in 2.1."
    r"|^\W*(?:deprecated|removed|dropped|renamed)\s+(?:the\s+|support\s+for\s+)?[`:]",
    re.IGNORECASE,
)


def pending_removal(claim: Claim) -> bool:
    """The claim says a name is deprecated or will be removed (and not that it already was)."""
    if claim.kind == "code" or _DONE.search(claim.text):
        return False
    return _PENDING.search(claim.text) is not None or SURVIVES.search(claim.text) is not None or in_version_note(claim.context) == "deprecated"


def check_removed_notes(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    """A deprecation note's names that do not exist any more: the note is out of date."""
    if not pending_removal(claim):
        return []
    out: list[Finding] = []
    found = (check_mentions(ctx, claim) + check_undefined_roles(ctx, claim) + check_stdlib_named(ctx, claim)
             + check_named_members(ctx, claim) + check_worded_members(ctx, claim) + check_unbound_api_names(ctx, claim))
    for f in found:
        if f.status != "contradicted" or any(f.rationale == g.rationale[len(_LEAD):] for g in out):
            continue
        out.append(dataclasses.replace(f, rationale=_LEAD + f.rationale, edit=None))
    return out


_LEAD = "the note says this is deprecated or due for removal, but it is already gone: "
