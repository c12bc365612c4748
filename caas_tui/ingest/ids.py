"""Shared chunk plumbing: pieces, stable ids, line spans and windows.

Chunkers produce ``Piece``s (a chunk without id or hashes); ``finish`` orders
them and gives each a stable id. Line numbers are 1-based and inclusive, and
"lines" always means ``text.split("\\n")``: ``str.splitlines`` also breaks on
form feeds and other separators that Python's tokenizer does not count, which
would throw line numbers off.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from caas_tui.models import Chunk, Kind, SourceFile


@dataclass(frozen=True, slots=True)
class Piece:
    kind: Kind
    start: int
    end: int
    symbol: str | None
    text: str
    signature: str | None = None
    parent: str | None = None


def chunk_id(kind: str, path: str, symbol: str | None, occurrence: int) -> str:
    """Stable across edits elsewhere in the file: no line numbers, no content."""
    key = f"{kind}\0{path}\0{symbol or ''}\0{occurrence}"
    return hashlib.sha1(key.encode("utf-8"), usedforsecurity=False).hexdigest()[:16]


def finish(src: SourceFile, pieces: Iterable[Piece]) -> list[Chunk]:
    """Order pieces by position and turn them into ``Chunk``s with stable ids.

    The occurrence number counts earlier chunks with the same (kind, symbol), so
    it only shifts when a same-named chunk is added or removed above.
    """
    ordered = sorted(pieces, key=lambda p: (p.start, -p.end, p.kind))
    seen: Counter[tuple[str, str | None]] = Counter()
    chunks: list[Chunk] = []
    for p in ordered:
        occurrence = seen[(p.kind, p.symbol)]
        seen[(p.kind, p.symbol)] += 1
        chunks.append(
            Chunk(
                id=chunk_id(p.kind, src.path, p.symbol, occurrence),
                kind=p.kind,
                path=src.path,
                start_line=p.start,
                end_line=p.end,
                symbol=p.symbol,
                text=p.text,
                mtime=src.mtime,
                sha256=hashlib.sha256(p.text.encode("utf-8", "surrogatepass")).hexdigest(),
                language=src.language,
                signature=p.signature,
                parent=p.parent,
                file_sha256=src.sha256,
            )
        )
    return chunks


def split_lines(text: str) -> tuple[list[str], int]:
    """The file's lines and their count (a final newline does not open a line)."""
    lines = text.split("\n")
    n = len(lines) - 1 if text.endswith("\n") else len(lines)
    return lines, n


def span_text(lines: list[str], start: int, end: int) -> str:
    return "\n".join(lines[start - 1 : end])


def is_blank(line: str) -> bool:
    return not line.strip()


def trim(lines: list[str], start: int, end: int) -> tuple[int, int] | None:
    """Shrink a span to exclude blank lines at both ends; None if all blank."""
    while start <= end and is_blank(lines[start - 1]):
        start += 1
    while end >= start and is_blank(lines[end - 1]):
        end -= 1
    return (start, end) if start <= end else None


def windows(start: int, end: int, size: int, overlap: int) -> list[tuple[int, int]]:
    """Fixed windows of ``size`` lines overlapping by ``overlap``, covering the span."""
    out: list[tuple[int, int]] = []
    s = start
    while True:
        e = min(s + size - 1, end)
        out.append((s, e))
        if e >= end:
            return out
        s = e - overlap + 1


def paragraph_windows(
    lines: list[str],
    start: int,
    end: int,
    max_lines: int,
    can_break: Callable[[int], bool] | None = None,
) -> list[tuple[int, int]]:
    """Split a span into pieces of at most ``max_lines``, cutting at blank lines.

    ``can_break(line_no)`` vetoes cuts (e.g. blank lines inside a code fence).
    A stretch with no usable blank line is cut hard at ``max_lines``. Spans come
    back trimmed of blank edges; blank-only stretches disappear.
    """
    out: list[tuple[int, int]] = []
    s = start
    min_lines = max(1, max_lines // 3)  # never cut off a sliver just to hit a blank
    while s <= end:
        if end - s + 1 <= max_lines:
            cut_end, s_next = end, end + 1
        else:
            cut_end, s_next = s + max_lines - 1, s + max_lines
            for ln in range(s + max_lines - 1, s + min_lines - 1, -1):
                if is_blank(lines[ln - 1]) and (can_break is None or can_break(ln)):
                    cut_end, s_next = ln - 1, ln + 1
                    break
        span = trim(lines, s, cut_end)
        if span is not None:
            out.append(span)
        s = s_next
    return out
