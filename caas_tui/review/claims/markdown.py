"""Markdown -> blocks (paragraphs, list items, table rows, code blocks) with heading paths.

Front matter, fenced code, HTML comments and headings come from ``caas_tui.ingest.mdscan``,
the scanner doc chunking uses, so a claim and the chunk covering it name the same
section. The rest is a forgiving line parser, not CommonMark: what matters is exact line
numbers and never failing on broken input (an unclosed fence runs to the end of the file).
"""

from __future__ import annotations

import re

from caas_tui.ingest.mdscan import scan_markdown
from caas_tui.review.claims.blocks import Block, Line
from caas_tui.review.claims.tense import SURVIVES

_LIST = re.compile(r"^(\s*)([-*+]|\d{1,9}[.)])(\s+)(.*)$")
_QUOTE = re.compile(r"^\s{0,3}>\s?")
_LINKREF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*\S+")
_HTML_START = re.compile(r"^\s{0,3}<(?:[A-Za-z][\w-]*|/[A-Za-z])[\s>/]?")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_HRULE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")
# A migration table's column headers: "1.x | 2.0", "v1 | v2", "Old name | New name", "Before | After".
_VERSION_HEAD = re.compile(r"^(?:[\w.-]+\s+)?v?(\d+(?:\.(?:\d+|x|\*))*)$", re.IGNORECASE)
_OLD_HEAD = re.compile(r"^(?:old|before|previous(?:ly)?|formerly|was|deprecated|removed|legacy|from)\b", re.IGNORECASE)
_NEW_HEAD = re.compile(r"^(?:new|after|now|current|replacement|use\b|instead|to\b|is\b)", re.IGNORECASE)


class _State:
    def __init__(self) -> None:
        self.headings: list[tuple[int, str]] = []
        self.para: list[Line] = []
        self.blocks: list[Block] = []
        self.last_para = ""

    @property
    def section(self) -> str | None:
        return " > ".join(t for _, t in self.headings) or None

    def flush(self) -> None:
        if self.para:
            text = " ".join(line.text.strip() for line in self.para)
            self.blocks.append(Block("prose", tuple(self.para), self.section, None, text))
            self.last_para = text
            self.para = []

    def heading(self, level: int, title: str) -> None:
        self.flush()
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        self.headings.append((level, title.strip() or "#"))
        self.last_para = ""

    def code(self, lines: list[Line], info: str) -> None:
        self.flush()
        if not any(line.text.strip() for line in lines):
            return
        while lines and not lines[-1].text.strip():
            lines = lines[:-1]
        while lines and not lines[0].text.strip():
            lines = lines[1:]
        ctx = f"code block ({info})" if info else "code block"
        if self.last_para:
            ctx += f" after: {self.last_para}"
        self.blocks.append(Block("code", tuple(lines), self.section, "\n".join(ln.text for ln in lines), ctx))


def _dedent(lines: list[str], amount: int) -> list[str]:
    out = []
    for line in lines:
        strip = 0
        while strip < amount and strip < len(line) and line[strip] == " ":
            strip += 1
        out.append(line[strip:])
    return out


def _cells(row: str) -> list[str]:
    """A table row's cells; a ``|`` inside backticks is no separator."""
    body = row.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    cells: list[str] = []
    cur: list[str] = []
    ticks = False
    for ch in body:
        if ch == "`":
            ticks = not ticks
        if ch == "|" and not ticks:
            cells.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    cells.append("".join(cur).strip())
    return cells


def _version_key(text: str) -> tuple[int, ...]:
    return tuple(int(p) if p.isdigit() else 10**6 for p in text.split("."))


def past_columns(header: list[str]) -> frozenset[int]:
    """The columns of a migration table that name the API as it was: the older of two version
    columns ("1.x | 2.0"), or an "old"/"before" column next to a "new"/"after" one. A row
    there says "this became that"; the old names need not exist now, the new ones must."""
    heads = [c.strip("`*_ ").strip() for c in header]
    versions = {i: _version_key(m.group(1)) for i, h in enumerate(heads) if (m := _VERSION_HEAD.match(h))}
    if len(set(versions.values())) >= 2:
        newest = max(versions.values())
        return frozenset(i for i, v in versions.items() if v < newest)
    old = frozenset(i for i, h in enumerate(heads) if _OLD_HEAD.match(h))
    if old and any(_NEW_HEAD.match(h) for i, h in enumerate(heads) if i not in old):
        return old
    return frozenset()


def markdown_blocks(text: str) -> list[Block]:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    scan = scan_markdown(lines, unclosed="blank")  # the prose after a forgotten fence is still reviewed
    kinds, headings, fences = scan.kinds, scan.heading_at(), scan.fence_at()

    def plain(j: int) -> bool:  # a line the scanner left to this parser
        return kinds[j] in ("text", "blank")

    st = _State()
    i, n = 0, len(lines)
    in_list = False
    prev_blank = True
    table_row, header = -2, None
    past: frozenset[int] = frozenset()
    while i < n:
        raw = lines[i]
        stripped = raw.strip()
        kind = kinds[i]
        if kind in ("front", "comment"):
            st.flush()
            i, prev_blank = i + 1, False
            continue
        if kind == "fence":  # an opening one: closing lines are skipped with their fence
            fence = fences[i]
            body = _dedent(lines[i + 1 : fence.end], fence.indent)
            st.code([Line(i + 2 + k, t) for k, t in enumerate(body)], fence.info)
            i, prev_blank, in_list = fence.end + 1, False, False
            continue
        if kind == "heading":
            st.heading(headings[i].level, headings[i].title)
            i += 2 if kinds[i + 1 : i + 2] == ("underline",) else 1
            prev_blank, in_list = False, False
            continue
        if not stripped:
            st.flush()
            i, prev_blank = i + 1, True
            continue
        if _HRULE.match(raw) or _LINKREF.match(raw):
            st.flush()
            i, prev_blank = i + 1, False
            continue
        if prev_blank and _HTML_START.match(raw):
            st.flush()  # raw HTML block: skipped up to the next blank line
            while i < n and lines[i].strip() and plain(i):
                i += 1
            continue
        if stripped.startswith("|") or (i + 1 < n and "|" in stripped and _TABLE_SEP.match(lines[i + 1])):
            st.flush()
            if table_row != i - 1:
                header, past = None, frozenset()  # a new table
            table_row = i
            if not _TABLE_SEP.match(raw):
                cells = _cells(stripped)
                if i + 1 < n and _TABLE_SEP.match(lines[i + 1]):
                    header, past = cells, past_columns(cells)
                # A migration table's old column is what the row replaces: context, not a claim,
                # unless the row says the old name lives on ("still imports", "kept as an alias").
                newer = [c for k, c in enumerate(cells) if k not in past]
                kept = cells if header is cells or SURVIVES.search(" ".join(newer)) else newer
                row = " | ".join(c for c in kept if c)
                if row:
                    # The header goes with each row, and the cells keep their columns (an empty
                    # one included), so that a row can be read as "this option defaults to that".
                    ctx = f"table ({' | '.join(header)}): {' | '.join(cells)}" if header and header is not cells else row
                    st.blocks.append(Block("prose", (Line(i + 1, row),), st.section, None, ctx))
            i, prev_blank, in_list = i + 1, False, False
            continue
        if prev_blank and not in_list and not st.para and (raw.startswith("    ") or raw.startswith("\t")):
            j = i
            while j < n and plain(j) and (not lines[j].strip() or lines[j].startswith("    ") or lines[j].startswith("\t")):
                j += 1
            body = _dedent([line.replace("\t", "    ", 1) for line in lines[i:j]], 4)
            st.code([Line(i + 1 + k, t) for k, t in enumerate(body)], "")
            i, prev_blank = j, True
            continue
        quote = _QUOTE.match(raw)
        content = raw[quote.end():] if quote else raw
        item = _LIST.match(content)
        if item:
            st.flush()
            in_list = True
            st.para.append(Line(i + 1, item.group(4)))
        else:
            if in_list and prev_blank and not raw.startswith((" ", "\t")):
                in_list = False
            if prev_blank:
                st.flush()
            st.para.append(Line(i + 1, content.strip()))
        i, prev_blank = i + 1, False
    st.flush()
    return st.blocks
