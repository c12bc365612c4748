"""Where a sentence that names no API can take its subject from, nearest first: the
paragraph's earlier sentence, the code block just above (in the same section, with no
other API named in between), the reST directive or heading the sentence sits under, and a
docstring's owner. Each source offers the project functions and classes it names; the
caller binds only when exactly one fits."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import code_block_names, code_spans, role_target
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import callable_mentions, section_subject
from caas_tui.review.static.referents.sectionnames import section_parts, section_start
from caas_tui.review.static.referents.subjects import heading_subject

_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+(?:py:)?(?:class|function|method|classmethod|staticmethod)::\s+([\w.]+)")
_ROLE = re.compile(r":[\w:-]+:`([^`]+)`")
_CALLED = re.compile(r"\b([A-Za-z_][\w.]*)\s*\(")
_NAME = re.compile(r"[A-Za-z_][\w.]*")


@dataclass(frozen=True)
class Source:
    """The callables one place in the context names."""

    defs: tuple[Def, ...]
    wheres: tuple[str, ...]  # for each, as the verdict says it: "the sentence before", "the code block above", ...


def _project_callable(ctx: ReviewContext, claim: Claim, name: str) -> Def | None:
    if not _NAME.fullmatch(name):
        return None
    res = ctx.resolve(name, claim)
    target = res.target if res.found and not res.ambiguous else None
    if target is None or not target.is_project or target.kind not in ("function", "class"):
        return None
    return target


def _distinct(defs: list[Def]) -> tuple[Def, ...]:
    out: dict[int, Def] = {}
    for d in defs:
        out.setdefault(id(d.node), d)
    return tuple(out.values())


def _names_in_prose(text: str) -> list[str]:
    names = [role_target(m.group(1)) for m in _ROLE.finditer(text)]
    for span in code_spans(_ROLE.sub(" ", text)):
        names += [m.group(1) for m in _CALLED.finditer(span)] or [span.strip()]
    return names


def _earlier_sentence(ctx: ReviewContext, claim: Claim) -> Source | None:
    """The nearest earlier sentence of the same paragraph that names a callable."""
    claims = ctx.doc_claims(claim.doc_path)
    at = next((i for i, c in enumerate(claims) if c.id == claim.id), None)
    if at is None:
        return None
    for prev in reversed(claims[:at]):
        if prev.kind != "prose" or prev.context != claim.context or prev.section != claim.section:
            return None
        found = _distinct([d for _, d in callable_mentions(ctx, prev)])
        if found:
            return Source(found, ("the sentence before",) * len(found))
    return None


def _above(ctx: ReviewContext, claim: Claim, far: bool) -> Iterator[Source]:
    """The reST directive the sentence is indented under, then the nearest code block
    above it in its section together with what the prose in between names; ``far``: then
    everything the section names above the sentence (for a description that spells a
    class's name, which may have been introduced a paragraph earlier)."""
    lines = ctx.doc_lines(claim.doc_path)
    end = min(max(claim.start_line - 1, 0), len(lines))
    first = lines[end] if end < len(lines) else ""
    indent = len(first) - len(first.lstrip())
    for i in range(end - 1, -1, -1) if indent else ():
        m = _DIRECTIVE.match(lines[i])
        if m and indent > len(m.group(1)):
            d = _project_callable(ctx, claim, m.group(2))
            if d is not None:
                yield Source((d,), ("the directive",))
            break
        if lines[i].strip() and len(lines[i]) - len(lines[i].lstrip()) < indent:
            break  # out of the indented body: no directive owns the sentence
    start = section_start(lines, end)
    parts = section_parts(lines[start:end])
    named: list[tuple[Def, str]] = []  # what the section names above the sentence, nearest first
    block_seen = False
    for kind, text in reversed(parts):
        if kind == "prose":
            named += [(d, "the text above") for n in _names_in_prose(text) if (d := _project_callable(ctx, claim, n))]
            continue
        if block_seen:
            continue
        block_seen = True
        found = [(d, "the code block above") for n in code_block_names(text) if (d := _project_callable(ctx, claim, n))]
        if found:
            # what the prose between the block and the sentence names competes with the block's
            yield _source([*named, *found])
            if not far:
                return
            named = []  # offered with the block already
    if named:
        # A pronoun does not reach past a paragraph (``FAR_ONLY``), but what is named there
        # still stops it from falling back on the heading.
        yield _source(named)


def _source(named: list[tuple[Def, str]]) -> Source:
    out: dict[int, tuple[Def, str]] = {}
    for d, where in named:
        out.setdefault(id(d.node), (d, where))
    return Source(tuple(d for d, _ in out.values()), tuple(w for _, w in out.values()))


def _heading(ctx: ReviewContext, claim: Claim) -> Source | None:
    """What the sentence's own heading names: a reference entry (``### `load(path)` ``) or
    a question (``### Does `load` accept yes/no?``) naming one callable."""
    named = heading_subject(ctx, claim)
    if named is not None:
        return Source((named,), ("the heading",))
    if not claim.section:
        return None
    last = claim.section.split(" > ")[-1]
    found = _distinct([d for n in _names_in_prose(last) if (d := _project_callable(ctx, claim, n))])
    return Source(found, ("the heading",) * len(found)) if found else None


_ROW = re.compile(r"(?:^|\n\n)table \([^\n]*?\): ([^|\n]*)\|")


def _row(ctx: ReviewContext, claim: Claim) -> Source | None:
    """A table row's first cell, which names what the row's other cells describe."""
    m = _ROW.search(claim.context)
    if m is None or claim.text.startswith(m.group(1).strip()):
        return None
    found = _distinct([d for n in _names_in_prose(m.group(1)) if (d := _project_callable(ctx, claim, n))])
    return Source(found, ("the table row",) * len(found)) if found else None


OWNERS = ("the table row", "the directive", "the heading", "the docstring's owner")
FAR_ONLY = ("the text above",)


def context_sources(ctx: ReviewContext, claim: Claim, *, far: bool = False) -> Iterator[Source]:
    """Every place the claim's subject may come from, nearest first (``far``: see ``_above``)."""
    row = _row(ctx, claim)
    if row is not None:
        yield row
        return  # a row is about its first cell, whatever the text above it names
    earlier = _earlier_sentence(ctx, claim)
    if earlier is not None:
        yield earlier
    if claim.doc_path.endswith((".py", ".pyi")):
        owner = section_subject(ctx, claim)
        if owner is not None:
            yield Source((owner,), ("the docstring's owner",))
        return
    yield from _above(ctx, claim, far)
    heading = _heading(ctx, claim)
    if heading is not None:
        yield heading
