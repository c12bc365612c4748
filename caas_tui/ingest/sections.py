"""Headings -> section pieces, shared by the Markdown and reST chunkers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from caas_tui.ingest.ids import Piece, paragraph_windows, span_text, trim
from caas_tui.models import Kind

SECTION_MAX_LINES = 120  # longer sections are windowed with the same symbol
SECTION_WINDOW = 100
SEP = " > "


@dataclass(frozen=True, slots=True)
class Heading:
    line: int  # first line of the heading (the overline for an overlined reST title)
    level: int  # smaller is outer; only the order matters
    title: str


def stem(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return name[:dot] if dot > 0 else name


def section_pieces(
    kind: Kind,
    lines: list[str],
    n: int,
    headings: list[Heading],
    preamble_symbol: str,
    can_break: Callable[[int], bool] | None = None,
) -> list[Piece]:
    """One piece per section (heading line through the line before the next
    heading), symbol = heading path, parent = the enclosing heading path."""
    pieces: list[Piece] = []
    first = headings[0].line if headings else n + 1
    if first > 1:
        _emit(pieces, kind, lines, 1, first - 1, preamble_symbol, None, can_break)
    stack: list[tuple[int, str]] = []
    for i, h in enumerate(headings):
        end = headings[i + 1].line - 1 if i + 1 < len(headings) else n
        while stack and stack[-1][0] >= h.level:
            stack.pop()
        parent = SEP.join(t for _, t in stack) or None
        stack.append((h.level, h.title or "(untitled)"))
        _emit(pieces, kind, lines, h.line, end, SEP.join(t for _, t in stack), parent, can_break)
    return pieces


def _emit(
    pieces: list[Piece],
    kind: Kind,
    lines: list[str],
    start: int,
    end: int,
    symbol: str,
    parent: str | None,
    can_break: Callable[[int], bool] | None,
) -> None:
    span = trim(lines, start, end)
    if span is None:
        return
    start, end = span
    if end - start + 1 <= SECTION_MAX_LINES:
        spans = [span]
    else:
        spans = paragraph_windows(lines, start, end, SECTION_WINDOW, can_break)
    for s, e in spans:
        pieces.append(Piece(kind, s, e, symbol, span_text(lines, s, e), None, parent))
