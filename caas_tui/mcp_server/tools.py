"""The five tools as plain methods over an engine: validate, refresh, answer, fit the budget.

Kept apart from the MCP wiring (``server.py``) so the logic reads (and fails) the
same whichever way it is called. Expected failures leave as ``ToolError`` with one
line the agent can act on; anything else is a bug and the SDK reports it as such.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TypeVar

from mcp.server.mcpserver.exceptions import ToolError

from caas_tui.errors import CaasError
from caas_tui.mcp_server.budget import Limits, add_note, clip, fit_items, size
from caas_tui.mcp_server.freshness import Freshness
from caas_tui.mcp_server.related import UnknownSymbol, related
from caas_tui.mcp_server.results import (
    Evidence,
    RelatedResult,
    ReviewResult,
    SearchHit,
    SearchResult,
    SpanResult,
    SuggestedFix,
    SymbolResult,
)
from caas_tui.mcp_server.symbols import definitions
from caas_tui.models import KINDS, MODES, Hit
from caas_tui.retrieve.claimquery import claim_request
from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.request import SearchRequest, as_kinds, as_mode
from caas_tui.review.textutil import read_text, split_lines

T = TypeVar("T")
_MAX_NAME_CHARS = 300
_RATIONALE_CHARS = 2_000
_MAX_CHECKS = 30
LEADS = 5  # claim-search hits a review_claim answer carries


def _one_line(message: str) -> str:
    return " ".join(message.split())


def _last_line_that_fits(lines: list[str], start: int, end: int, room: int) -> int:
    """The last line of ``start..end`` whose text, JSON-escaped, still fits in ``room``."""
    used = 0
    for n in range(start, end + 1):
        used += len(json.dumps(lines[n - 1], ensure_ascii=False)) - 2 + (2 if n > start else 0)  # "\n" joins
        if used > room:
            return n - 1
    return end


class Tools:
    def __init__(self, engine: Engine, limits: Limits | None = None) -> None:
        self.engine = engine
        self.limits = limits or Limits()
        self.freshness = Freshness(engine, self.limits.refresh_interval)

    def _run(self, fn: Callable[[], T]) -> T:
        """Refresh if due, then answer; expected failures become tool errors."""
        try:
            self.freshness.ensure()
            return fn()
        except CaasError as exc:
            raise ToolError(_one_line(str(exc))) from exc

    # -- search ----------------------------------------------------------------------
    def search(self, query: str, k: int = 10, mode: str = "hybrid", kind: str | None = None,
               expand: bool = False, rerank: bool = False) -> SearchResult:
        lim = self.limits
        query = query.strip()
        if not query:
            raise ToolError("query must not be empty")
        if len(query) > lim.max_query_chars:
            raise ToolError(f"query is {len(query)} characters, over the {lim.max_query_chars} limit")
        if not 1 <= k <= lim.max_k:
            raise ToolError(f"k must be between 1 and {lim.max_k}, got {k}")
        if mode not in MODES:
            raise ToolError(f"unknown mode {mode!r} (choose from {', '.join(MODES)})")
        kind = kind or None
        if kind is not None and kind not in KINDS:
            raise ToolError(f"unknown kind {kind!r} (choose from {', '.join(KINDS)}, or leave it out)")

        def answer() -> SearchResult:
            found = self.engine.run(SearchRequest(query, k, mode=as_mode(mode), kinds=as_kinds([kind] if kind else None),
                                                  expand=expand, rerank=rerank))
            hits, outcome = found.hits, found.rerank
            how = None
            if outcome is not None:
                how = outcome.message or (f"re-scored the top {outcome.reranked} fused hits with the MiniLM "
                                          f"transformer")
            result = SearchResult(query=query, mode=mode, kind=kind, hits=self._hits(hits), rerank=how)
            return fit_items(result, "hits", lim.output_chars, "hits", "ask for a smaller k or filter by kind")

        return self._run(answer)

    def _hits(self, hits: Sequence[Hit]) -> list[SearchHit]:
        return [
            SearchHit(
                rank=h.rank, path=h.chunk.path, start_line=h.chunk.start_line, end_line=h.chunk.end_line,
                symbol=h.chunk.symbol, kind=h.chunk.kind, score=round(h.score, 6), bm25_rank=h.bm25_rank,
                dense_rank=h.dense_rank, via=h.via, rerank_score=h.rerank_score,
                snippet=clip(h.chunk.text, self.limits.snippet_chars)[0],
            )
            for h in hits
        ]

    # -- read_span -------------------------------------------------------------------
    def read_span(self, path: str, start_line: int, end_line: int) -> SpanResult:
        if start_line < 1 or end_line < start_line:
            raise ToolError(f"bad line range {start_line}-{end_line}: lines are 1-based and end_line >= start_line")

        def answer() -> SpanResult:
            rel = self._project_file(path)
            lines = split_lines(read_text(self.engine.resolve_path(rel)))
            total = len(lines)
            if start_line > total:
                raise ToolError(f"{rel} has {total} lines; start_line {start_line} is past the end")
            end = min(end_line, total)
            budget = self.limits.output_chars
            last = _last_line_that_fits(lines, start_line, end, budget - size(
                SpanResult(path=rel, start_line=start_line, end_line=end, total_lines=total, text="",
                           note=f"the file ends at line {total}")))
            if last < start_line:
                raise ToolError(f"{rel}:{start_line} alone is over the {budget} character budget")
            if last < end:
                raise ToolError(f"{rel}:{start_line}-{end} is over the {budget} character budget; "
                                f"read a smaller range, e.g. {start_line}-{last}")
            text = self.engine.read_span(rel, start_line, end, max_chars=budget)
            result = SpanResult(path=rel, start_line=start_line, end_line=end, total_lines=total, text=text)
            if end < end_line:
                result = add_note(result, f"the file ends at line {total}")
            return result

        return self._run(answer)

    def _project_file(self, path: str) -> str:
        """The root-relative path of an indexed file; refuses paths outside the root first.

        Only indexed files are served (what search can return): a gitignored ``.env``,
        the index itself or a binary are not the agent's business through this tool.
        """
        if not path.strip():
            raise ToolError("path must not be empty")
        try:
            rel = self.engine.resolve_path(path.strip()).relative_to(self.engine.root).as_posix()
        except (ValueError, OSError) as exc:  # a NUL byte, a name too long for the file system
            raise ToolError(f"{path!r}: not a usable path ({exc})") from None
        if not self.engine.chunks_for_path(rel):
            raise ToolError(f"{path}: not an indexed project file (missing, ignored, binary or not code/docs)")
        return rel

    # -- find_symbol -----------------------------------------------------------------
    def find_symbol(self, name: str) -> SymbolResult:
        name = name.strip()
        if not name:
            raise ToolError("name must not be empty")
        if len(name) > _MAX_NAME_CHARS:
            raise ToolError(f"name is {len(name)} characters, over the {_MAX_NAME_CHARS} limit")

        def answer() -> SymbolResult:
            defs = definitions(self.engine, name)
            if not defs:
                raise ToolError(f"unknown symbol {name!r}: nothing defines it (try search)")
            clipped = False
            for i, d in enumerate(defs):
                if d.docstring:
                    text, cut = clip(d.docstring, self.limits.docstring_chars)
                    if cut:
                        defs[i], clipped = d.model_copy(update={"docstring": text}), True
            result = SymbolResult(name=name, definitions=defs)
            if clipped:
                result = add_note(result, f"docstrings over {self.limits.docstring_chars} characters were shortened; "
                                  "read_span the definition for all of it", truncated=True)
            return fit_items(result, "definitions", self.limits.output_chars, "definitions",
                             "ask with a qualified name")

        return self._run(answer)

    # -- related ---------------------------------------------------------------------
    def related(self, symbol: str, depth: int = 1) -> RelatedResult:
        symbol = symbol.strip()
        if not symbol:
            raise ToolError("symbol must not be empty")
        if not 1 <= depth <= self.limits.max_depth:
            raise ToolError(f"depth must be between 1 and {self.limits.max_depth}, got {depth}")

        def answer() -> RelatedResult:
            try:
                result, notes = related(self.engine, symbol, depth)
            except UnknownSymbol:
                raise ToolError(f"unknown symbol {symbol!r}: nothing defines it (try search)") from None
            for note in notes:
                result = add_note(result, note, truncated=note.startswith("the graph walk stopped"))
            if result.source == "search":
                reach = "direct neighbours only" if depth > 1 else "less certain than the graph"
                result = add_note(result, f"not in the symbol graph; neighbours found by name search ({reach})")
            return fit_items(result, "neighbours", self.limits.output_chars, "neighbours",
                             "use depth=1 or ask about one neighbour")

        return self._run(answer)

    # -- review_claim ----------------------------------------------------------------
    def review_claim(self, text: str, doc_path: str | None = None) -> ReviewResult:
        text = text.strip()
        if not text:
            raise ToolError("text must not be empty")
        if len(text) > self.limits.max_claim_chars:
            raise ToolError(f"text is {len(text)} characters, over the {self.limits.max_claim_chars} limit; "
                            "review one statement at a time")

        def answer() -> ReviewResult:
            # Imported on first use: the reviewer is the heaviest part of the core, and
            # search and reading must keep working even if it cannot load.
            from caas_tui.mcp_server import review as review_mod

            rel = self._project_file(doc_path) if doc_path else None
            claim, located = review_mod.make_claim(self.engine, text, rel)
            verdict, warnings = review_mod.review(self.engine, claim, located)
            leads = self._hits(self.engine.run(claim_request(claim, LEADS)).hits)
            rationale, cut = clip(verdict.rationale, _RATIONALE_CHARS)
            result = ReviewResult(
                claim=claim.text, doc_path=rel, symbols=list(claim.symbols), verdict=verdict.verdict,
                reviewer=verdict.reviewer, rationale=rationale,
                evidence=[Evidence(path=e.path, start_line=e.start_line, end_line=e.end_line, symbol=e.symbol,
                                   note=e.note) for e in verdict.evidence],
                checks=list(verdict.checks[:_MAX_CHECKS]), coverage=list(verdict.coverage),
                # A fix names doc lines: only meaningful when the claim was found in the doc.
                fix=SuggestedFix(start_line=verdict.fix.start_line, end_line=verdict.fix.end_line,
                                 replacement=verdict.fix.replacement) if verdict.fix and located else None,
                claim_lines=[claim.start_line, claim.end_line] if located else None,
                leads=leads, warnings=list(warnings),
            )
            if cut:
                result = add_note(result, "the rationale was shortened", truncated=True)
            if len(verdict.checks) > _MAX_CHECKS:
                result = add_note(result, f"showing {_MAX_CHECKS} of {len(verdict.checks)} checks", truncated=True)
            if rel and not located:
                result = add_note(result, f"the text is not a claim of {rel}; reviewed on its own")
            # Leads go first: the verdict's own evidence is what decided it.
            result = fit_items(result, "leads", self.limits.output_chars, "leads", "search for more")
            return fit_items(result, "evidence", self.limits.output_chars, "evidence spans",
                             "read_span the evidence shown")

        return self._run(answer)
