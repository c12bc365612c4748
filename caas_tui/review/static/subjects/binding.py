"""Binding a sentence that names no API to the one callable its context is about, so the
existing checks (defaults, raises, returns, behaviour families) judge it: the sentence is
re-read with the subject named (``It returns a list`` -> ```load` returns a list``).

Strict on purpose, since a wrong binding means false flags: only a pronoun or a definite
description in the subject slot bridges; the nearest source that offers a candidate
decides, and it must offer exactly one (a description must spell the class's name); what
the re-read adds is kept only when it goes beyond the subject existing, and the verdict
says where the subject came from."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from caas_tui.models import Claim, Verdict
from caas_tui.review.claims.mentions import symbols_and_spans
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import callable_mentions
from caas_tui.review.static.naming.nouns import noun_subjects
from caas_tui.review.static.subjects.bridge import Bridge, find_bridge, find_subjectless, rewrite
from caas_tui.review.static.subjects.sources import FAR_ONLY, OWNERS, context_sources

_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|$)|[A-Z]?[a-z]+|\d+")
# Nouns that name a callable by its kind, whatever it is called.
_KIND_NOUNS = {"function": ("function", "call", "method"), "class": ("class", "constructor", "object", "instance")}


@dataclass(frozen=True)
class Binding:
    """The claim re-read with its subject named, and where the subject came from."""

    claim: Claim
    subject: Def
    name: str
    where: str

    @property
    def note(self) -> str:
        return f"subject taken from {self.where} `{self.name}`"


def _name_words(d: Def) -> tuple[str, ...]:
    return tuple(w.lower() for w in _CAMEL.findall(d.short))


def describes(bridge: Bridge, d: Def) -> bool:
    """A pronoun fits any callable; a description must be the callable's kind noun ("the
    function") or, for a class, the trailing words of its name ("the store" for ``DiskStore``)."""
    if bridge.kind != "description":
        return True
    words = bridge.words
    if len(words) == 1 and words[0] in _KIND_NOUNS.get(d.kind, ()):
        return True
    if d.kind != "class":
        return False  # "a source" is no function's name, whatever its words: classes only
    own = _name_words(d)
    return len(words) <= len(own) and own[len(own) - len(words):] == words


def _spelled(ctx: ReviewContext, claim: Claim, d: Def) -> str | None:
    """How to name ``d`` so that the claim's doc resolves the name back to it."""
    tries = [d.short]
    if d.owner is not None and d.owner.kind == "class":
        tries = [f"{d.owner.short}.{d.short}"]
    for name in [*tries, d.qualname]:
        res = ctx.resolve(name, claim)
        if res.found and not res.ambiguous and res.target is not None and res.target.node is d.node:
            return name
    return None


def bind_subject(ctx: ReviewContext, claim: Claim) -> Binding | None:
    """The claim with its context's subject named, or None when it names one itself, has
    no bridge in its subject slot, or the context offers none or several."""
    if claim.kind != "prose" or callable_mentions(ctx, claim) or noun_subjects(ctx, claim):
        return None
    bridge = find_bridge(claim.text) or find_subjectless(claim.text)
    if bridge is None:
        return None
    for source in context_sources(ctx, claim, far=bridge.kind == "description"):
        fits = [(d, where) for d, where in zip(source.defs, source.wheres, strict=True) if describes(bridge, d)
                and (bridge.kind != "subjectless" or where in OWNERS)
                and (bridge.kind == "description" or where not in FAR_ONLY)]
        if not fits:
            if bridge.kind != "description" and source.defs:
                return None  # the nearest place naming an API is what a pronoun is about
            continue
        if len(fits) > 1:
            return None  # "It ..." after `Rule` and `parse_condition`: can't tell which
        subject, where = fits[0]
        name = _spelled(ctx, claim, subject)
        if name is None:
            return None
        text = rewrite(claim.text, bridge, name)
        symbols, spans = symbols_and_spans(text)
        return Binding(replace(claim, text=text, symbols=symbols, code_spans=spans), subject, name, where)
    return None


def inherited_findings(
    ctx: ReviewContext, claim: Claim, found: Sequence[Finding], judge: Callable[[ReviewContext, Claim], list[Finding]]
) -> tuple[list[Finding], Binding | None]:
    """``found`` plus what the checks say of the claim re-read with its bound subject; the
    subject existing is no news, so a re-read that adds nothing else leaves the claim alone."""
    binding = bind_subject(ctx, claim)
    if binding is None:
        return list(found), None
    seen = {(f.status, f.check) for f in found}
    added = [f for f in judge(ctx, binding.claim)
             if (f.status, f.check) not in seen and not (f.status == "ok" and set(f.aspects) <= {"names"})]
    if not added:
        return list(found), None
    return [*found, *added], binding


def noted(verdict: Verdict, binding: Binding | None) -> Verdict:
    """The verdict with the binding recorded on its coverage and rationale."""
    if binding is None:
        return verdict
    return replace(verdict, rationale=f"{verdict.rationale} ({binding.note})",
                   coverage=(*verdict.coverage, f"subject:{binding.note}"))
