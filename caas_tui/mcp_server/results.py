"""What the MCP tools return: pydantic models, so clients get an output schema and
``structuredContent`` as well as the JSON text.

Every result carries ``truncated`` and ``note``: an agent reading a clipped answer
must be told so, and told how to ask for the rest.
"""

from __future__ import annotations

from pydantic import BaseModel, Field


class Budgeted(BaseModel):
    truncated: bool = Field(default=False, description="true when items or text were left out to fit the output budget")
    note: str | None = Field(default=None, description="why something was left out or what to do next")


class SearchHit(BaseModel):
    rank: int
    path: str = Field(description="relative to the project root")
    start_line: int = Field(description="1-based, inclusive")
    end_line: int = Field(description="1-based, inclusive")
    symbol: str | None = Field(description="qualified Python name, or the heading path of a doc section")
    kind: str = Field(description="code | test | doc | upstream | api")
    score: float = Field(description="fused (or single-channel) score")
    bm25_rank: int | None = Field(description="rank in the lexical channel, null if it did not find this chunk")
    dense_rank: int | None = Field(description="rank in the dense channel, null if it did not find this chunk")
    via: str | None = Field(description="why a hit was added: exact symbol match or a graph edge")
    rerank_score: float | None = Field(default=None, description="MiniLM cosine when rerank was asked and this hit "
                                       "was re-scored")
    snippet: str = Field(description="the start of the chunk's text; read_span gives the exact lines")


class SearchResult(Budgeted):
    query: str
    mode: str
    kind: str | None
    hits: list[SearchHit]
    rerank: str | None = Field(default=None, description="with rerank: how it went (re-scored, out of time, or "
                               "skipped because the transformers extra is not installed)")


class SpanResult(Budgeted):
    path: str
    start_line: int
    end_line: int = Field(description="the last line returned (the file may end before the line asked for)")
    total_lines: int = Field(description="lines in the file")
    text: str = Field(description="the exact text of the lines, joined with newlines")


class Definition(BaseModel):
    symbol: str
    kind: str = Field(description="code | test | upstream")
    path: str
    start_line: int
    end_line: int
    signature: str | None
    docstring: str | None
    parent: str | None = Field(description="the enclosing class, if any")


class SymbolResult(Budgeted):
    name: str
    definitions: list[Definition]


class Neighbour(BaseModel):
    relation: str = Field(
        description="read from the asked symbol's side: calls, called_by, inherits (a base), inherited_by, "
        "overrides, overridden_by, tests, tested_by, documents, documented_by, imports, imported_by, ..."
    )
    symbol: str = Field(description="qualified name, or the heading path of a doc section")
    kind: str = Field(description="module | class | function | method | doc | upstream | api")
    path: str
    start_line: int
    end_line: int
    depth: int = Field(description="hops from the asked symbol")
    via: str = Field(description="the node this one was reached from")
    confidence: float = Field(description="0..1: how sure the name resolution is")


class RelatedResult(Budgeted):
    symbol: str = Field(description="the node the name resolved to")
    kind: str | None
    path: str | None
    start_line: int | None
    end_line: int | None
    source: str = Field(description="graph: the cross-file symbol graph; search: a name search (less certain)")
    neighbours: list[Neighbour]


class Evidence(BaseModel):
    path: str
    start_line: int
    end_line: int
    symbol: str | None
    note: str | None


class SuggestedFix(BaseModel):
    start_line: int
    end_line: int
    replacement: str


class ReviewResult(Budgeted):
    claim: str
    doc_path: str | None
    claim_lines: list[int] | None = Field(description="[start, end] of the claim in doc_path when it was found there")
    symbols: list[str] = Field(description="names the claim mentions")
    verdict: str = Field(description="consistent | contradicted | incomplete | unverified | stale")
    reviewer: str
    rationale: str
    evidence: list[Evidence]
    checks: list[str] = Field(description="facts the reviewer actually checked")
    coverage: list[str] = Field(default_factory=list, description=(
        "assertion kinds of the claim as kind:checked or kind:unchecked; any unchecked kind keeps it from consistent"))
    fix: SuggestedFix | None
    leads: list[SearchHit] = Field(default_factory=list, description=(
        "where to read next: the claim searched as the reviewers search it (its words, the names it "
        "mentions, a docstring's owner; code, tests and upstream pages only), best first"))
    warnings: list[str] = Field(default_factory=list, description=(
        "what reviewing the doc had to work around, as path:line: message (an unclosed code fence, "
        "the claims-per-doc limit); the CLI prints the same lines"))
