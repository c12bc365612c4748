"""The one Markdown structure scanner, shared by doc chunking and claim extraction.

It decides which lines are structure: YAML front matter, fenced code, HTML comments and
headings (ATX and setext). ``ingest.markdown`` cuts sections at its headings and
``review.claims.markdown`` builds claims between them, so a doc chunk and a claim on the
same line always name the same section. A line scanner, not a CommonMark parser: exact
line numbers and never failing on broken input (an unclosed fence runs to the end of the
file) matter more than every corner of the spec.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from caas_tui.ingest.sections import Heading

# text: anything else (paragraphs, lists, tables, indented code: the claim parser's business)
LineKind = Literal["text", "blank", "front", "comment", "fence", "code", "heading", "underline"]

# Any indentation: a fence inside a list item is indented past three spaces.
_FENCE = re.compile(r"^([ \t]*)(`{3,}|~{3,})(.*)$")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$")
_ATX_CLOSING = re.compile(r"(?:^|[ \t]+)#+$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_ANCHOR = re.compile(r"[ \t]*\{#[^}]*\}$")
# Lines that cannot be the text of a setext heading: list items, quotes, tables, indented code.
_NOT_PARAGRAPH = re.compile(r"^(?:\s*(?:[-*+][ \t]|\d{1,9}[.)][ \t]|>|\|)| {4}|\t)")
_FRONT_TITLE = re.compile(r"""^title:\s*["']?(.*?)["']?\s*$""")


@dataclass(frozen=True, slots=True)
class Fence:
    start: int  # 0-based index of the opening line
    end: int  # 0-based index of the closing line; of the first blank line (or ``n``) when never closed
    indent: int  # of the opening line: the body is dedented by as much
    info: str  # the info string's first word ("" when none)


@dataclass(frozen=True, slots=True)
class MarkdownScan:
    kinds: tuple[LineKind, ...]  # one per line
    headings: tuple[Heading, ...]  # ``line`` is 1-based: the heading's (setext: its text's) line
    fences: tuple[Fence, ...]
    title: str | None  # from front matter
    warnings: tuple[str, ...] = ()  # "line N: ..." for broken structure (an unclosed fence)

    def heading_at(self) -> dict[int, Heading]:
        """Headings by the 0-based index of their line."""
        return {h.line - 1: h for h in self.headings}

    def fence_at(self) -> dict[int, Fence]:
        """Fences by the 0-based index of their opening line."""
        return {f.start: f for f in self.fences}


def clean_title(title: str) -> str:
    return " ".join(_ANCHOR.sub("", title).split())


def _front_matter(lines: Sequence[str]) -> tuple[int, str | None]:
    """(lines of YAML front matter, its title): its closing ``---`` would otherwise read as
    a setext underline turning the last key into a heading."""
    if len(lines) < 2 or lines[0].rstrip() != "---":
        return 0, None
    for j in range(1, len(lines)):
        if lines[j].rstrip() in ("---", "..."):
            for k in range(1, j):
                m = _FRONT_TITLE.match(lines[k])
                if m and m.group(1):
                    return j + 1, m.group(1)
            return j + 1, None
    return 0, None


def scan_markdown(raw_lines: Sequence[str], *, unclosed: Literal["end", "blank"] = "end") -> MarkdownScan:
    """``unclosed``: where a fence that is never closed ends: at the end of the file
    (CommonMark; chunking keeps the text searchable either way) or at its first blank line
    (claims: the prose after a forgotten fence is still reviewed). Either way a warning."""
    lines = [line.removesuffix("\r") for line in raw_lines]
    n = len(lines)
    kinds: list[LineKind] = ["text"] * n
    headings: list[Heading] = []
    fences: list[Fence] = []
    warnings: list[str] = []
    start, title = _front_matter(lines)
    kinds[:start] = ["front"] * start

    def paragraph_line(j: int) -> bool:
        return j >= 0 and kinds[j] == "text" and bool(lines[j].strip()) and not _NOT_PARAGRAPH.match(lines[j])

    i = start
    while i < n:
        line = lines[i]
        m = _FENCE.match(line)
        if m and not (m.group(2)[0] == "`" and "`" in m.group(3)):
            marks = m.group(2)
            close = re.compile(rf"^[ \t]*{re.escape(marks[0])}{{{len(marks)},}}[ \t]*$")
            j = i + 1
            while j < n and not close.match(lines[j]):
                j += 1
            if j >= n:
                if unclosed == "blank":
                    # CommonMark runs it to the end of the file, which would hide every later
                    # claim in one code block: a reviewer takes it to end at its first blank line.
                    j = next((b for b in range(i + 1, n) if not lines[b].strip()), n)
                    warnings.append(f"line {i + 1}: code fence is never closed; taken to end at line {min(j, n - 1) + 1}")
                else:
                    warnings.append(f"line {i + 1}: code fence is never closed; it runs to the end of the file")
            info = m.group(3).split()
            fences.append(Fence(i, j, len(m.group(1)), info[0] if info else ""))
            kinds[i] = "fence"
            kinds[i + 1 : j] = ["code"] * (min(j, n) - i - 1)
            if j < n:
                kinds[j] = "fence" if lines[j].strip() else "blank"
            i = j + 1
            continue
        if line.lstrip().startswith("<!--"):
            j = i
            while j < n and "-->" not in lines[j]:
                j += 1
            kinds[i : j + 1] = ["comment"] * (min(j, n - 1) - i + 1)
            i = j + 1
            continue
        if not line.strip():
            kinds[i] = "blank"
        elif m := _ATX.match(line):
            headings.append(Heading(i + 1, len(m.group(1)), clean_title(_ATX_CLOSING.sub("", m.group(2) or ""))))
            kinds[i] = "heading"
        elif (
            _SETEXT.match(line)
            and paragraph_line(i - 1)
            # a one-line paragraph: a line continuing a list item or a longer paragraph is no title
            and (i - 2 < start or kinds[i - 2] in ("blank", "front", "comment", "fence", "heading", "underline"))
        ):
            headings.append(Heading(i, 1 if line.strip()[0] == "=" else 2, clean_title(lines[i - 1])))
            kinds[i - 1] = "heading"
            kinds[i] = "underline"
        i += 1
    return MarkdownScan(tuple(kinds), tuple(headings), tuple(fences), title, tuple(warnings))
