"""Exact identifier matches stay on top.

A dense near-miss (a similarly named method) can outrank the very definition a
writer typed; a typed identifier is the strongest signal a query carries.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from caas_tui.models import KINDS, Chunk, Kind
from caas_tui.retrieve.fusion import Fused
from caas_tui.retrieve.symbols import SymbolTable

MAX_PINNED_PER_NAME = 5  # a qualified name (``Scene.spawn``) rarely matches more
MAX_PINNED_BARE = 2  # a bare name defined in many classes (``on_update``) says little
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


def looks_like_identifier(token: str) -> bool:
    """Identifiers, not prose: has ``_`` or ``.``, or upper case inside the word."""
    return "_" in token or "." in token or any(c.isupper() for c in token[1:])


def _definitions(symbols: SymbolTable, name: str, kinds: Sequence[Kind]) -> list[Chunk]:
    found = symbols.find(name, kinds, exact_only=True)
    code_keys = {(c.path, c.symbol) for c in found if c.kind == "code"}
    # The docstring twin of a pinned definition adds no evidence and costs a slot.
    found = [c for c in found if not (c.kind == "api" and (c.path, c.symbol) in code_keys)]
    out: list[Chunk] = []
    for chunk in found:
        out.append(chunk)
        out.extend(c for c in constructors(symbols, chunk) if c not in out)
    return out


def constructors(symbols: SymbolTable, chunk: Chunk) -> list[Chunk]:
    """A class's ``__init__`` definitions (none for anything else): calling a class runs its
    constructor, so `Box(size=...)` is answered by `Box.__init__`."""
    if chunk.kind != "code" or not (chunk.signature or "").startswith("class "):
        return []
    return symbols.find(f"{chunk.symbol}.__init__", ("code",), exact_only=True)


def pin_exact(
    query: str, fused: list[Fused], symbols: SymbolTable, kinds: Sequence[Kind] | None
) -> tuple[list[Fused], set[str]]:
    """Move definitions the query names exactly to the top; returns the list and the pinned ids.

    A name that matches many definitions (``__init__``, ``run``) pins only those the
    channels found, at most a few, so a common name cannot flood the results.
    """
    names = [m.group(0) for m in _IDENT.finditer(query) if looks_like_identifier(m.group(0))]
    if not names:
        return fused, set()
    order = {f.id: i for i, f in enumerate(fused)}
    exact: list[str] = []
    for name in names:
        matches = [c.id for c in _definitions(symbols, name, kinds or KINDS)]
        limit = MAX_PINNED_PER_NAME if "." in name else MAX_PINNED_BARE
        if len(matches) > limit:
            if "." not in name:
                continue  # ambiguous bare name: let the channels rank its definitions
            matches = sorted((m for m in matches if m in order), key=order.__getitem__)[:limit]
        exact.extend(m for m in matches if m not in exact)
    if not exact:
        return fused, set()
    exact_set = set(exact)
    top = fused[0].score if fused else 1.0
    by_id = {f.id: f for f in fused}
    # Keep the order the definitions were found in (class before its constructor).
    head = [by_id.get(cid) or Fused(cid, top, {}) for cid in exact]
    return head + [f for f in fused if f.id not in exact_set], exact_set
