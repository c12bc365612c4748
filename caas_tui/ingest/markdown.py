"""Markdown -> section pieces keyed by heading path.

Where headings are (and so where fenced code, HTML comments and front matter are: a
``# comment`` inside a fence is not a heading) is decided by ``mdscan``, the scanner
claim extraction uses too, so chunks and claims agree on sections.
"""

from __future__ import annotations

from caas_tui.ingest.ids import Piece, split_lines
from caas_tui.ingest.mdscan import scan_markdown
from caas_tui.ingest.sections import section_pieces, stem
from caas_tui.models import SourceFile


def chunk_markdown(src: SourceFile) -> list[Piece]:
    lines, n = split_lines(src.text)
    if n == 0:
        return []
    scan = scan_markdown(lines[:n])
    return section_pieces(
        src.kind,
        lines,
        n,
        list(scan.headings),
        preamble_symbol=scan.title or stem(src.path),
        # Never cut a long section at a blank line inside a code block.
        can_break=lambda ln: scan.kinds[ln - 1] not in ("fence", "code"),
    )
