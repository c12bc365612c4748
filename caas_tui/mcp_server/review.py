"""``review_claim``: one statement, checked by the deterministic static reviewer.

The text becomes a ``Claim``. With ``doc_path``, a claim of that doc with the same
text is used as is (its real lines, section and surrounding text) and reviewed in the
context of its whole doc, as the app and the CLI review it; otherwise the doc only lends
its path.
"""

from __future__ import annotations

import re

from caas_tui.errors import ReviewError
from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims import claim_id, extract_claims
from caas_tui.review.claims.mentions import code_block_names, symbols_and_spans
from caas_tui.review.runner import review_claims
from caas_tui.review.static import StaticReviewer
from caas_tui.review.textutil import normalise_ws, read_text

_FENCED = re.compile(r"\A\s*(`{3,}|~{3,})[^\n]*\n(.*?)\n\s*\1\s*\Z", re.DOTALL)  # one fenced block, nothing else
NO_DOC = "<mcp>"  # doc_path of a claim given without one: never a real project path


def make_claim(engine: Engine, text: str, doc_path: str | None) -> tuple[Claim, bool]:
    """The claim to review, and whether it was located in ``doc_path`` (so its lines,
    and a fix's lines, are real doc lines)."""
    if doc_path is not None:
        found = _claim_in_doc(engine, doc_path, text)
        if found is not None:
            return found, True
    path = doc_path if doc_path is not None else NO_DOC
    fenced = _FENCED.match(text)
    spans: tuple[str, ...]
    if fenced:  # a code claim is the code itself, as extract_claims makes it
        text = fenced.group(2)
        symbols, spans, kind = tuple(code_block_names(text)), (text,), "code"
    else:
        symbols, spans = symbols_and_spans(text)
        kind = "prose"
    lines = max(1, text.count("\n") + 1)
    claim = Claim(
        id=claim_id(path, text, 0), doc_path=path, start_line=1, end_line=lines, text=text, kind=kind,
        symbols=symbols, code_spans=spans, section=None, context="",
    )
    return claim, False


def _claim_in_doc(engine: Engine, doc_path: str, text: str) -> Claim | None:
    """The doc's own claim with this text (exact after whitespace folding, else containing it).

    ``doc_path`` is an indexed project file (the caller checked)."""
    claims = extract_claims(doc_path, read_text(engine.resolve_path(doc_path)))
    want = normalise_ws(text)
    for claim in claims:
        if normalise_ws(claim.text) == want:
            return claim
    for claim in claims:
        if want and want in normalise_ws(claim.text):
            return claim
    return None


def review(engine: Engine, claim: Claim, located: bool = False) -> tuple[Verdict, tuple[str, ...]]:
    """The verdict, and the doc's review warnings (an unclosed code fence, the claims-per-doc
    limit), the lines the CLI prints. A claim located in its doc is reviewed the way the app and
    the CLI review it (in the context of the whole doc: names earlier code blocks bound); any
    other text on its own, with no doc to warn about."""
    warnings: tuple[str, ...] = ()
    if located:
        result = review_claims(engine, claim.doc_path, [claim.id], StaticReviewer())
        verdicts, warnings = result.verdicts, result.warnings
    else:
        verdicts = tuple(StaticReviewer().review([claim], engine))
    if len(verdicts) != 1:
        raise ReviewError(f"the static reviewer returned {len(verdicts)} verdicts for one claim")
    return verdicts[0], warnings
