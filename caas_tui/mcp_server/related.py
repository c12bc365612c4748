"""``related``: a symbol's neighbours across files (``caas_tui.retrieve.related``), as the
tool's result and the notes to show with it."""

from __future__ import annotations

from caas_tui.mcp_server.results import Neighbour, RelatedResult
from caas_tui.retrieve.chain import MAX_HOPS
from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.related import Related, RelatedEntry, UnknownSymbol
from caas_tui.retrieve.related import related as find_related

__all__ = ["UnknownSymbol", "related"]


def related(engine: Engine, symbol: str, depth: int) -> tuple[RelatedResult, list[str]]:
    """The neighbourhood of ``symbol`` and notes to show with it (ambiguity, hop cap)."""
    found = find_related(engine, symbol, depth, max_hops=MAX_HOPS)
    notes = _ambiguity(found.symbol, list(found.alternatives))
    if found.truncated:
        notes.append(f"the graph walk stopped at {MAX_HOPS} hops; use depth=1")
    return _result(found), notes


def _ambiguity(chosen: str, others: list[str]) -> list[str]:
    if not others:
        return []
    more = f" and {len(others) - 5} more" if len(others) > 5 else ""
    return [f"the name is ambiguous: showing {chosen}; also {', '.join(others[:5])}{more} (ask with a qualified name)"]


def _result(found: Related) -> RelatedResult:
    return RelatedResult(
        symbol=found.symbol, kind=found.kind, path=found.path, start_line=found.start_line,
        end_line=found.end_line, source=found.source, neighbours=[_neighbour(e) for e in found.entries],
        truncated=found.truncated,
    )


def _neighbour(entry: RelatedEntry) -> Neighbour:
    return Neighbour(
        relation=entry.relation, symbol=entry.symbol, kind=entry.kind, path=entry.path, start_line=entry.start_line,
        end_line=entry.end_line, depth=entry.depth, via=entry.via, confidence=entry.confidence,
    )
