"""reStructuredText -> section pieces keyed by heading path.

Section titles are found the way docutils finds them: a title line with an
underline (optionally an overline too) of one repeated punctuation character;
levels follow the order in which adornment styles first appear. Directive
bodies and literal blocks are indented, and an indented line is never a title,
so they stay inside their section without special handling.
"""

from __future__ import annotations

import re

from caas_tui.ingest.ids import Piece, is_blank, split_lines
from caas_tui.ingest.sections import Heading, section_pieces, stem
from caas_tui.models import SourceFile

# One printable non-alphanumeric ASCII character repeated (docutils' adornment set).
_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1+[ \t]*$")


def chunk_rst(src: SourceFile) -> list[Piece]:
    lines, n = split_lines(src.text)
    if n == 0:
        return []
    return section_pieces(src.kind, lines, n, scan(lines, n), preamble_symbol=stem(src.path))


def _adornment(line: str) -> str | None:
    """The adornment character of ``line``, if it is an adornment line."""
    m = _ADORNMENT.match(line)
    return m.group(1) if m else None


def _title_ok(title: str, rule: str) -> bool:
    """docutils accepts an underline at least as long as the title, or a short
    one of 4+ characters (with a warning); ``Text`` over ``::`` is no title."""
    text = title.strip()
    if not text or text.startswith(".. ") or _adornment(text):
        return False
    width = len(rule.rstrip())
    return width >= len(text) or width >= 4


def scan(lines: list[str], n: int) -> list[Heading]:
    styles: list[tuple[str, bool]] = []  # adornment styles in order of first use
    headings: list[Heading] = []

    def level(style: tuple[str, bool]) -> int:
        if style not in styles:
            styles.append(style)
        return styles.index(style)

    i = 0
    while i < n:
        after_blank = i == 0 or is_blank(lines[i - 1])
        over = _adornment(lines[i])
        if (
            over
            and after_blank
            and i + 2 < n
            and not is_blank(lines[i + 1])
            and _adornment(lines[i + 2]) == over
            and _title_ok(lines[i + 1], lines[i + 2])
        ):
            # Overline + title + underline; the title may be inset.
            headings.append(Heading(i + 1, level((over, True)), _clean(lines[i + 1])))
            i += 3
            continue
        line = lines[i]
        if (
            after_blank
            and i + 1 < n
            and line[:1] not in ("", " ", "\t")
            and not over
            and (under := _adornment(lines[i + 1])) is not None
            and _title_ok(line, lines[i + 1])
        ):
            headings.append(Heading(i + 1, level((under, False)), _clean(line)))
            i += 2
            continue
        i += 1
    return headings


def _clean(title: str) -> str:
    return " ".join(title.split())
