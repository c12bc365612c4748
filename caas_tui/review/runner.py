"""Review a whole doc: read it, extract claims, run a reviewer, stamp each verdict
with the hash of the claim's doc lines (so later edits make it stale)."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from caas_tui.errors import CaasError
from caas_tui.ingest.mdscan import scan_markdown
from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.base import Reviewer, ReviewProgress, needs_doc_context
from caas_tui.review.claims.doccomments import source_language
from caas_tui.review.claims.extract import DOC_EXTS, PYTHON_EXTS, claims_limit_warning, extract_claims_counted
from caas_tui.review.textutil import read_text, span_sha256, split_lines
from caas_tui.sources import Skipped, load_path

MARKDOWN_EXTS = frozenset({".md", ".markdown"})


@dataclass(frozen=True, slots=True)
class DocReview:
    doc_path: str  # relative to the project root
    reviewer: str
    claims: tuple[Claim, ...]
    verdicts: tuple[Verdict, ...]  # parallel to ``claims``
    warnings: tuple[str, ...] = ()  # "path:line: ..." for broken structure the claims worked around

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
    return review_claims(engine, doc_path, None, reviewer, progress=progress)


def review_claims(
    engine: Engine,
    doc_path: str | Path,
    claim_ids: Collection[str] | None,
    reviewer: Reviewer,
    *,
    progress: ReviewProgress | None = None,
) -> DocReview:
    """The one review path: ``claim_ids`` of ``doc_path`` (every claim when None), each judged
    in the context of its whole doc, so a claim gets the same verdict alone, in a batch, from
    the app, the CLI or MCP.

    A reviewer whose verdict depends on the claims before it (the static reviewer keeps the
    names earlier code blocks bound: ``scene = Scene(...)`` in step 1) is given every claim
    of the doc up to the last one asked about; the others are filtered out afterwards.
    """
    rel = relative_doc_path(engine, doc_path)
    gate = load_path(engine.cfg, rel)  # the indexer's size cap and binary sniff, one place
    if isinstance(gate, Skipped):
        raise CaasError(f"not reviewed: {gate.reason}")
    text = read_text(engine.resolve_path(rel))
    every, found = extract_claims_counted(rel, text)
    over = claims_limit_warning(rel, found)
    wanted = _wanted(rel, every, claim_ids)
    if any(wanted) and needs_doc_context(reviewer):
        last = max(i for i, w in enumerate(wanted) if w)
        judged = every[: last + 1]
    else:
        judged = [c for c, w in zip(every, wanted, strict=True) if w]
    keep = {c.id for c, w in zip(every, wanted, strict=True) if w}
    verdicts = reviewer.review(judged, engine, progress=_counting([c.id in keep for c in judged], progress)) if judged else []
    if len(verdicts) != len(judged):
        raise CaasError(f"{rel}: reviewer {reviewer.name} returned {len(verdicts)} verdicts for {len(judged)} claims")
    lines = split_lines(text)
    pairs = [(c, v) for c, v in zip(judged, verdicts, strict=True) if c.id in keep]
    stamped = tuple(dataclasses.replace(v, doc_sha256=span_sha256(lines, c.start_line, c.end_line)) for c, v in pairs)
    warnings = doc_warnings(rel, text) + ((over,) if over else ())
    return DocReview(rel, reviewer.name, tuple(c for c, _ in pairs), stamped, warnings)


def _wanted(rel: str, claims: Sequence[Claim], claim_ids: Collection[str] | None) -> list[bool]:
    if claim_ids is None:
        return [True] * len(claims)
    ids = set(claim_ids)
    missing = ids - {c.id for c in claims}
    if missing:
        n = len(missing)
        raise CaasError(f"{rel}: {n} claim{'s are' if n != 1 else ' is'} no longer in the doc "
                        "(it changed since its claims were read); reopen it and review again")
    return [c.id in ids for c in claims]


def _counting(asked: Sequence[bool], progress: ReviewProgress | None) -> ReviewProgress | None:
    """Progress over the claims asked about, not over the context claims reviewed with them."""
    if progress is None:
        return None
    done_after = [0, *itertools.accumulate(1 if a else 0 for a in asked)]
    total = done_after[-1]

    def step(done: int, _total: int, message: str) -> None:
        progress(done_after[max(0, min(done, len(asked)))], total, message)

    return step


def doc_warnings(rel: str, text: str) -> tuple[str, ...]:
    """What the claim extraction had to guess about ``rel`` (an unclosed code fence)."""
    if Path(rel).suffix.lower() not in MARKDOWN_EXTS:
        return ()
    scan = scan_markdown(split_lines(text), unclosed="blank")
    return tuple(f"{rel}:{w.removeprefix('line ')}" for w in scan.warnings)


def reviewable_paths(engine: Engine) -> list[str]:
    """Every Markdown/reST doc, project Python module and other code file with doc comments in the index."""
    paths: set[str] = set()
    for chunk in engine.chunks():
        suffix = Path(chunk.path).suffix.lower()
        if chunk.kind == "doc" and suffix in DOC_EXTS and suffix != ".txt" or chunk.kind in ("code", "api") and suffix in PYTHON_EXTS:
            paths.add(chunk.path)
        elif chunk.kind == "api" and source_language(chunk.path) is not None:
            paths.add(chunk.path)  # a doc comment of TS/JS, Java, Kotlin, C#, Go or Rust code
    return sorted(paths)
