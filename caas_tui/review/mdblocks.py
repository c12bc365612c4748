"""Markdown -> blocks (paragraphs, list items, table rows, code blocks) with heading paths.

A forgiving line scanner, not a CommonMark parser: what matters is exact line numbers
and never failing on broken input (an unclosed fence runs to the end of the file).
"""

from __future__ import annotations

import re

from caas_tui.review.blocks import Block, Line

_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([^`]*)$")
_ATX = re.compile(r"^\s{0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$")
_SETEXT = re.compile(r"^\s{0,3}(=+|-+)\s*$")
_LIST = re.compile(r"^(\s*)([-*+]|\d{1,9}[.)])(\s+)(.*)$")
_QUOTE = re.compile(r"^\s{0,3}>\s?")
_LINKREF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*\S+")
_HTML_START = re.compile(r"^\s{0,3}<(?:[A-Za-z][\w-]*|/[A-Za-z])[\s>/]?")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_HRULE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")


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
        self.blocks.append(Block("code", tuple(lines), self.section, "\n".join(l.text for l in lines), ctx))


def _dedent(lines: list[str], amount: int) -> list[str]:
    out = []
    for line in lines:
        strip = 0
        while strip < amount and strip < len(line) and line[strip] == " ":
            strip += 1
        out.append(line[strip:])
    return out


def markdown_blocks(text: str) -> list[Block]:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    st = _State()
    i, n = 0, len(lines)
    if n and lines[0].strip() == "---":  # YAML front matter
        for j in range(1, min(n, 200)):
            if lines[j].strip() in ("---", "..."):
                i = j + 1
                break
    in_list = False
    prev_blank = True
    while i < n:
        raw = lines[i]
        stripped = raw.strip()
        fence = _FENCE.match(raw)
        if fence:
            indent, marks, info = len(fence.group(1)), fence.group(2), fence.group(3).strip()
            close = re.compile(rf"^\s*{re.escape(marks[0])}{{{len(marks)},}}\s*$")
            j = i + 1
            while j < n and not close.match(lines[j]):
                j += 1
            body = _dedent(lines[i + 1 : j], indent)
            st.code([Line(i + 2 + k, t) for k, t in enumerate(body)], info.split()[0] if info else "")
            i, prev_blank, in_list = j + 1, False, False
            continue
        if not stripped:
            st.flush()
            i, prev_blank = i + 1, True
            continue
        if stripped.startswith("<!--"):
            st.flush()
            while i < n and "-->" not in lines[i]:
                i += 1
            i, prev_blank = i + 1, False
            continue
        atx = _ATX.match(raw)
        if atx:
            st.heading(len(atx.group(1)), atx.group(2) or "")
            i, prev_blank, in_list = i + 1, False, False
            continue
        setext = _SETEXT.match(raw)
        if setext and st.para and len(st.para) == 1 and not in_list:
            title = st.para[0].text
            st.para = []
            st.heading(1 if setext.group(1)[0] == "=" else 2, title)
            i, prev_blank = i + 1, False
            continue
        if _HRULE.match(raw) or _LINKREF.match(raw):
            st.flush()
            i, prev_blank = i + 1, False
            continue
        if prev_blank and _HTML_START.match(raw):
            st.flush()  # raw HTML block: skipped up to the next blank line
            while i < n and lines[i].strip():
                i += 1
            continue
        if stripped.startswith("|") or (i + 1 < n and "|" in stripped and _TABLE_SEP.match(lines[i + 1])):
            st.flush()
            if not _TABLE_SEP.match(raw):
                cells = [c.strip() for c in stripped.strip("|").split("|")]
                row = " | ".join(c for c in cells if c)
                if row:
                    st.blocks.append(Block("prose", (Line(i + 1, row),), st.section, None, row))
            i, prev_blank, in_list = i + 1, False, False
            continue
        if prev_blank and not in_list and not st.para and (raw.startswith("    ") or raw.startswith("\t")):
            j = i
            while j < n and (not lines[j].strip() or lines[j].startswith("    ") or lines[j].startswith("\t")):
                j += 1
            body = _dedent([l.replace("\t", "    ", 1) for l in lines[i:j]], 4)
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
