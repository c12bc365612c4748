"""Markdown -> section pieces keyed by heading path.

A line scanner, not a full CommonMark parser: it only needs to know where
headings are, which means knowing where fenced code, HTML comments and front
matter are (a ``# comment`` inside a fence is not a heading).
"""

from __future__ import annotations

import re

from caas_tui.ingest.ids import Piece, split_lines
from caas_tui.ingest.sections import Heading, section_pieces, stem
from caas_tui.models import SourceFile

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$")
_ATX_CLOSING = re.compile(r"(?:^|[ \t]+)#+$")
_SETEXT = re.compile(r"^ {0,3}(=+|--+)[ \t]*$")
_ANCHOR = re.compile(r"[ \t]*\{#[^}]*\}$")
# Lines that cannot be the text of a setext heading: list items, quotes, tables.
_NOT_PARAGRAPH = re.compile(r"^\s*(?:[-*+][ \t]|\d{1,9}[.)][ \t]|>|\|)")
_FRONT_TITLE = re.compile(r"""^title:\s*["']?(.*?)["']?\s*$""")


def chunk_markdown(src: SourceFile) -> list[Piece]:
    lines, n = split_lines(src.text)
    if n == 0:
        return []
    headings, in_fence, title = scan(lines, n)
    return section_pieces(
        src.kind,
        lines,
        n,
        headings,
        preamble_symbol=title or stem(src.path),
        # Never cut a long section at a blank line inside a code block.
        can_break=lambda ln: not in_fence[ln - 1],
    )


def scan(lines: list[str], n: int) -> tuple[list[Heading], list[bool], str | None]:
    """Headings, a per-line "inside fenced code" flag, and the front-matter title."""
    headings: list[Heading] = []
    in_fence = [False] * n
    title: str | None = None
    i = 0
    if n > 1 and lines[0].rstrip() == "---":
        # YAML front matter: its closing "---" would otherwise read as a setext
        # underline turning the last key into a heading.
        for j in range(1, n):
            if lines[j].rstrip() in ("---", "..."):
                for k in range(1, j):
                    m = _FRONT_TITLE.match(lines[k])
                    if m and m.group(1):
                        title = m.group(1)
                        break
                i = j + 1
                break
    fence: tuple[str, int] | None = None
    in_comment = False
    prev_paragraph = False  # is lines[i-1] plain paragraph text (setext candidate)?
    while i < n:
        line = lines[i]
        if fence is not None:
            in_fence[i] = True
            stripped = line.strip()
            if (
                stripped
                and set(stripped) == {fence[0]}
                and len(stripped) >= fence[1]
                and len(line) - len(line.lstrip(" ")) < 4
            ):
                fence = None
            prev_paragraph = False
            i += 1
            continue
        if in_comment:
            in_comment = "-->" not in line
            prev_paragraph = False
            i += 1
            continue
        m = _FENCE.match(line)
        if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
            fence = (m.group(1)[0], len(m.group(1)))
            in_fence[i] = True
            prev_paragraph = False
            i += 1
            continue
        if line.lstrip().startswith("<!--") and "-->" not in line:
            in_comment = True
            prev_paragraph = False
            i += 1
            continue
        m = _ATX.match(line)
        if m:
            headings.append(Heading(i + 1, len(m.group(1)), _clean(_ATX_CLOSING.sub("", m.group(2) or ""))))
            prev_paragraph = False
            i += 1
            continue
        if prev_paragraph and _SETEXT.match(line):
            level = 1 if line.strip()[0] == "=" else 2
            headings.append(Heading(i, level, _clean(lines[i - 1])))
            prev_paragraph = False
            i += 1
            continue
        prev_paragraph = bool(line.strip()) and not line.startswith("    ") and not _NOT_PARAGRAPH.match(line)
        i += 1
    # An unclosed fence simply runs to the end of the file: everything after it
    # is code in the section where it opened, as a renderer would show it.
    return headings, in_fence, title


def _clean(title: str) -> str:
    return " ".join(_ANCHOR.sub("", title).split())
