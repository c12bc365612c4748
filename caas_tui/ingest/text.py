"""Plain text -> paragraph windows (no structure to key on, so no symbol)."""

from __future__ import annotations

from caas_tui.ingest.ids import Piece, paragraph_windows, span_text, split_lines
from caas_tui.models import SourceFile

TEXT_WINDOW = 30  # lines; cut at the last blank line that keeps a window under this


def chunk_text(src: SourceFile) -> list[Piece]:
    lines, n = split_lines(src.text)
    if n == 0:
        return []
    return [Piece(src.kind, s, e, None, span_text(lines, s, e)) for s, e in paragraph_windows(lines, 1, n, TEXT_WINDOW)]
