"""Drifting docs: doc sections that mention a symbol whose code changed after the doc did.

A doc written against an older version of a function is the likeliest place for a
false claim, and it can be found without reviewing anything: compare the doc file's
last change with the last change of the symbol's definition lines.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from caas_tui.live.changedates import ChangeDates
from caas_tui.models import Chunk
from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims.mentions import find_mentions

DOC_LANGUAGES = frozenset({"markdown", "rst"})
# A bare name (``spawn``) is trusted only when written as code; in prose it is just a word.
_CODE_ORIGINS = frozenset({"role", "code", "call"})
# Dates closer than this are the same time: a copy, checkout or unpack stamps a whole tree
# within a second or two, and FAT/zip keep only 2 s; that is no evidence of an order.
SAME_TIME_S = 2.0


@dataclass(frozen=True, slots=True)
class Mention:
    doc: str
    line: int
    symbol: str  # qualified name of the definition it resolved to
    definition: Chunk


@dataclass(frozen=True, slots=True)
class Drift:
    doc: str
    line: int
    symbol: str
    symbol_path: str
    symbol_changed: float  # epoch seconds
    doc_changed: float


def resolve(engine: Engine, name: str, origin: str) -> Chunk | None:
    """The one code definition ``name`` names, or None (unknown or ambiguous)."""
    if "." not in name and origin not in _CODE_ORIGINS:
        return None
    found = engine.find_symbol(name, kinds=("code",))
    if "." in name:
        found = [c for c in found if c.symbol == name or (c.symbol or "").endswith("." + name)]
    symbols = {c.symbol for c in found}
    if len(symbols) != 1:
        return None  # ``run`` defined in five classes says nothing about any one of them
    return min(found, key=lambda c: (c.path, c.start_line))


def doc_mentions(engine: Engine, chunks: Iterable[Chunk] | None = None) -> list[Mention]:
    """Resolved symbol mentions of every Markdown/reST doc chunk, one per (section, symbol)."""
    out: list[Mention] = []
    cache: dict[tuple[str, str], Chunk | None] = {}
    for chunk in chunks if chunks is not None else engine.chunks():
        if chunk.kind != "doc" or chunk.language not in DOC_LANGUAGES:
            continue
        seen: set[str] = set()
        for offset, text in enumerate(chunk.text.split("\n")):
            if not any(ch in text for ch in "`._("):
                continue  # nothing on this line can name a symbol
            for mention in find_mentions(text):
                key = (mention.name, mention.origin if "." not in mention.name else "")
                if key not in cache:
                    cache[key] = resolve(engine, mention.name, mention.origin)
                definition = cache[key]
                if definition is None or definition.symbol in seen or definition.symbol is None:
                    continue
                seen.add(definition.symbol)
                out.append(Mention(chunk.path, chunk.start_line + offset, definition.symbol, definition))
    out.sort(key=lambda m: (m.doc, m.line, m.symbol))
    return out


def find_drift(mentions: list[Mention], dates: ChangeDates) -> list[Drift]:
    """Mentions whose symbol's definition lines changed after the doc file last did."""
    out: list[Drift] = []
    for m in mentions:
        doc_changed = dates.file_date(m.doc)
        file_changed = dates.file_date(m.definition.path)
        if doc_changed is None or file_changed is None or file_changed <= doc_changed + SAME_TIME_S:
            continue  # the file as a whole bounds its lines: no need to ask git about them
        d = m.definition
        symbol_changed = dates.span_date(d.path, d.start_line, d.end_line)
        if symbol_changed is not None and symbol_changed > doc_changed + SAME_TIME_S:
            out.append(Drift(m.doc, m.line, m.symbol, d.path, symbol_changed, doc_changed))
    return out


def drift_paths(mentions: list[Mention]) -> set[str]:
    """Every file whose date the drift check may need."""
    return {m.doc for m in mentions} | {m.definition.path for m in mentions}
