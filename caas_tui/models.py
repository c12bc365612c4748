"""Domain nouns shared by every layer. Frozen: a value once made never changes."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal, get_args

# Each vocabulary is a Literal for the type checker and a tuple of its values for runtime checks.
Kind = Literal["code", "test", "doc", "upstream", "api"]
KINDS: tuple[Kind, ...] = get_args(Kind)
Mode = Literal["hybrid", "bm25", "dense"]
MODES: tuple[Mode, ...] = get_args(Mode)
VerdictLabel = Literal["consistent", "contradicted", "incomplete", "unverified", "stale"]
VERDICTS: tuple[VerdictLabel, ...] = get_args(VerdictLabel)
# "needs another look": a later review changed the verdict a decision was made on.
Decision = Literal["pending", "accepted", "rejected", "edited", "needs another look"]
DECISIONS: tuple[Decision, ...] = get_args(Decision)
NEEDS_LOOK: Decision = "needs another look"
FailOn = Literal["contradicted", "incomplete"]  # the lowest verdict that fails a CI run
FAIL_ONS: tuple[FailOn, ...] = get_args(FailOn)


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One readable project file, decoded, with its provenance."""

    path: str  # relative to the project root, forward slashes
    kind: Kind  # code | test | doc | upstream ("api" is for chunks only)
    language: str  # python | markdown | rst | text
    text: str
    mtime: float
    sha256: str  # of the raw bytes on disk
    size: int
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Chunk:
    """A symbol-level unit of retrieval.

    ``symbol`` is the qualified Python name (``pkg.mod.Class.method``) for code and
    api chunks, and the heading path (``Tutorial > Step 3``) for docs.
    """

    id: str
    kind: Kind
    path: str
    start_line: int  # 1-based, inclusive
    end_line: int  # 1-based, inclusive
    symbol: str | None
    text: str
    mtime: float
    sha256: str  # of ``text``
    language: str = "text"
    signature: str | None = None
    parent: str | None = None  # enclosing class (code) or parent heading path (docs)
    file_sha256: str = ""

    @property
    def short_symbol(self) -> str | None:
        if not self.symbol:
            return None
        return self.symbol.rsplit(".", 1)[-1].rsplit(" > ", 1)[-1]

    def context_header(self) -> str:
        """Text prepended when indexing so a chunk can be found by where it lives."""
        parts = [self.path]
        if self.parent:
            parts.append(self.parent)
        if self.symbol:
            parts.append(self.symbol)
        if self.signature:
            parts.append(self.signature)
        return " | ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Hit:
    """A ranked search result and why it ranked."""

    chunk: Chunk
    rank: int  # 1-based position in the final list
    score: float  # fused (or single-channel) score
    bm25_rank: int | None = None
    dense_rank: int | None = None
    via: str | None = None  # e.g. "calls <- pkg.Scene.remove" when added by graph expansion
    rerank_score: float | None = None

    def to_json(self, snippet_chars: int = 300) -> dict[str, Any]:
        text = self.chunk.text
        snippet = text if len(text) <= snippet_chars else text[: snippet_chars - 1] + "…"
        return {
            "rank": self.rank,
            "path": self.chunk.path,
            "start_line": self.chunk.start_line,
            "end_line": self.chunk.end_line,
            "symbol": self.chunk.symbol,
            "kind": self.chunk.kind,
            "score": round(self.score, 6),
            "bm25_rank": self.bm25_rank,
            "dense_rank": self.dense_rank,
            "snippet": snippet,
        }


@dataclass(frozen=True, slots=True)
class Claim:
    """One checkable statement from a doc: a sentence, a field entry or a code block."""

    id: str  # stable: hash of doc path + normalised text + occurrence
    doc_path: str
    start_line: int
    end_line: int
    text: str
    kind: str  # prose | code | field
    symbols: tuple[str, ...] = ()  # dotted names / identifiers it mentions
    code_spans: tuple[str, ...] = ()  # backticked or code-block text
    section: str | None = None  # heading path or owning symbol
    context: str = ""  # surrounding text given to reviewers


@dataclass(frozen=True, slots=True)
class EvidenceSpan:
    """The lines of a file a verdict rests on, with their hash when judged."""

    path: str
    start_line: int
    end_line: int
    symbol: str | None = None
    sha256: str | None = None  # content hash of the evidence lines when judged
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "start_line": self.start_line, "end_line": self.end_line, "symbol": self.symbol}


@dataclass(frozen=True, slots=True)
class Fix:
    """Replace doc lines ``start_line..end_line`` (1-based, inclusive) with ``replacement``."""

    start_line: int
    end_line: int
    replacement: str

    def to_json(self) -> dict[str, Any]:
        return {"start_line": self.start_line, "end_line": self.end_line, "replacement": self.replacement}


@dataclass(frozen=True, slots=True)
class Verdict:
    """What one reviewer concluded about one claim, and on what evidence."""

    claim_id: str
    verdict: VerdictLabel
    reviewer: str  # "static" | "claude" — never blank: every verdict names its producer
    rationale: str
    evidence: tuple[EvidenceSpan, ...] = ()
    fix: Fix | None = None
    model: str | None = None
    doc_sha256: str | None = None  # hash of the claim's doc lines when judged
    checks: tuple[str, ...] = field(default=())  # facts the reviewer actually checked
    # Assertion kinds of the claim and whether each was checked: ``("names:checked",
    # "returns:unchecked")``. A claim with an unchecked kind is never ``consistent``.
    coverage: tuple[str, ...] = field(default=())
