"""Whose behaviour a sentence describes when it names no callable itself: in a docstring,
its owner; in a Markdown/reST reference, the symbol its heading names
(``### `Client.get(url, *, timeout=None) -> Response` ``, or ``get(url)`` under a
``Client`` heading)."""

from __future__ import annotations

import re

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import find_mentions
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.pysig import Signature
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import callable_mentions, resolve_mention, section_subject, subject_before
from caas_tui.review.static.naming.nouns import noun_subjects

_HEAD_NAME = re.compile(r"^\s*(?:`+|\*\*|:\w+:`)?~?(?:class\s+|def\s+)?([A-Za-z_][\w.]*)\s*(?:\(|`|\*\*|$|\s*->|\s+-\s)")


def _heading_name(heading: str) -> str | None:
    m = _HEAD_NAME.match(heading)
    return m.group(1) if m else None


def heading_subject(ctx: ReviewContext, claim: Claim) -> Def | None:
    """The project function or class the claim's heading names (a doc, not a docstring)."""
    if not claim.section or claim.doc_path.endswith((".py", ".pyi")):
        return None
    headings = [h.strip() for h in claim.section.split(" > ")]
    name = _heading_name(headings[-1])
    if name is None:
        return None
    tries = [name]
    if "." not in name:
        parents = [n for n in (_heading_name(h) for h in reversed(headings[:-1])) if n]
        tries = [f"{p}.{name}" for p in parents[:1]] + tries
    for candidate in tries:
        res = ctx.resolve(candidate, claim)
        target = res.target if res.found and not res.ambiguous else None
        if target is not None and target.is_project and target.kind in ("function", "class"):
            return target
    return None


def owner_of(ctx: ReviewContext, claim: Claim) -> Def | None:
    """The docstring's owner, else the symbol the heading names."""
    return section_subject(ctx, claim) or heading_subject(ctx, claim)


# Nothing before the verb but a pronoun: "Raises ...", "It returns ...", "This method calls ...".
_NO_SUBJECT = re.compile(
    r"^\W*(?:(?:it|this|this\s+(?:method|function|call|class)|also|then|and|never|always|only|still|does\s+not|"
    r"doesn't|will|\w+ly)\s+)*$",
    re.IGNORECASE,
)


def subject_of(ctx: ReviewContext, claim: Claim, offset: int) -> Def | None:
    """The callable named before ``offset``; with none named, the docstring's owner, or the
    heading's symbol when the sentence has no subject of its own ("Raises ``KeyError`` if
    ..." under ``### `Cache.get(key)` ``). None when it is ambiguous."""
    found = subject_before(ctx, claim, offset)
    if found is not None:
        return found
    if any(pos < offset for pos, _ in callable_mentions(ctx, claim)):
        return None  # several named: ambiguous, not absent
    if not _NO_SUBJECT.match(claim.text[:offset]):
        return None  # "Markdown calls ...": the sentence has a subject, and it is not the heading's
    return heading_subject(ctx, claim)


def claim_signatures(ctx: ReviewContext, claim: Claim) -> dict[int, tuple[Def, Signature]]:
    """The reliable call signatures a sentence can be about: the callables it names, the
    project classes it names in words, and its docstring's owner; one per function."""
    candidates = [d for _, d in callable_mentions(ctx, claim)] + [d for _, d in noun_subjects(ctx, claim)]
    owner = owner_of(ctx, claim)
    if owner is not None:
        candidates.append(owner)
    sigs: dict[int, tuple[Def, Signature]] = {}
    for d in candidates:
        sig = ctx.call_signature(d, on_instance=True)
        if sig is not None and sig.reliable:
            sigs.setdefault(id(sig.fn.node), (d, sig))
    return sigs


def field_signatures(ctx: ReviewContext, claim: Claim) -> dict[int, tuple[Def, Signature]]:
    """The classes whose fields the claim names as ``Config.verify``: a field its constructor
    takes as a parameter of the same name (a dataclass field, a ``NamedTuple`` member,
    ``self.verify = verify``), so what the sentence says about it is about that parameter."""
    out: dict[int, tuple[Def, Signature]] = {}
    for m in find_mentions(claim.text):
        if "." not in m.name or m.origin not in ("code", "role"):
            continue
        res = resolve_mention(ctx, claim, m)
        t = res.target
        if not res.found or res.ambiguous or t is None or not t.is_project or t.kind != "attribute" \
                or t.owner is None or t.owner.kind != "class":
            continue
        sig = ctx.call_signature(t.owner, on_instance=True)
        if sig is not None and sig.reliable and sig.named(t.short) is not None:
            out.setdefault(id(sig.fn.node), (t.owner, sig))
    return out
