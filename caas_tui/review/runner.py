"""Review a whole doc: read it, extract claims, run a reviewer, stamp each verdict
with the hash of the claim's doc lines (so later edits make it stale)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from caas_tui.errors import CaasError
from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.base import Reviewer, ReviewProgress
from caas_tui.review.claims.extract import DOC_EXTS, PYTHON_EXTS, extract_claims
from caas_tui.review.textutil import read_text, span_sha256, split_lines
from caas_tui.sources import Skipped, load_path


@dataclass(frozen=True, slots=True)
class DocReview:
    doc_path: str  # relative to the project root
    reviewer: str
    claims: tuple[Claim, ...]
    verdicts: tuple[Verdict, ...]  # parallel to ``claims``

    def pairs(self) -> list[tuple[Claim, Verdict]]:
        return list(zip(self.claims, self.verdicts, strict=True))

    def count(self, label: str) -> int:
        return sum(1 for v in self.verdicts if v.verdict == label)


def relative_doc_path(engine: Engine, doc: str | Path) -> str:
    """``doc`` (absolute, cwd-relative or root-relative) as a root-relative posix path."""
    root = engine.root.resolve()
    candidate = Path(doc).expanduser()
    options = [candidate] if candidate.is_absolute() else [Path.cwd() / candidate, root / candidate]
    for option in options:
        resolved = option.resolve()
        if resolved.is_file() and resolved.is_relative_to(root):
            return resolved.relative_to(root).as_posix()
    for option in options:
        if option.resolve().is_file():
            raise CaasError(f"{doc}: outside the project root {root}")
    raise CaasError(f"{doc}: no such file")


def review_doc(
    engine: Engine, doc_path: str | Path, reviewer: Reviewer, *, progress: ReviewProgress | None = None
) -> DocReview:
    rel = relative_doc_path(engine, doc_path)
    gate = load_path(engine.cfg, rel)  # the indexer's size cap and binary sniff, one place
    if isinstance(gate, Skipped):
        raise CaasError(f"not reviewed: {gate.reason}")
    text = read_text(engine.resolve_path(rel))
    claims = extract_claims(rel, text)
    lines = split_lines(text)
    verdicts = reviewer.review(claims, engine, progress=progress) if claims else []
    if len(verdicts) != len(claims):
        raise CaasError(f"{rel}: reviewer {reviewer.name} returned {len(verdicts)} verdicts for {len(claims)} claims")
    stamped = tuple(
        dataclasses.replace(v, doc_sha256=span_sha256(lines, c.start_line, c.end_line))
        for c, v in zip(claims, verdicts, strict=True)
    )
    return DocReview(rel, reviewer.name, tuple(claims), stamped)


def reviewable_paths(engine: Engine) -> list[str]:
    """Every Markdown/reST doc and project Python module in the index."""
    paths: set[str] = set()
    for chunk in engine.chunks():
        suffix = Path(chunk.path).suffix.lower()
        if chunk.kind == "doc" and suffix in DOC_EXTS and suffix != ".txt" or chunk.kind in ("code", "api") and suffix in PYTHON_EXTS:
            paths.add(chunk.path)
    return sorted(paths)
