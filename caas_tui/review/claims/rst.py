"""reST -> blocks. Also parses docstring prose (which is reST) via ``parse_lines``.

Directives are read by name: code directives become code blocks, admonitions and
version notes are prose, a hand-written Python object description (``.. class::``,
``.. method::``) gives its signature as an inline-code claim (nested members qualified by
their class) and its body as prose, an autodoc directive (``autoclass``) its target as a role
and its content as prose, everything else (``toctree``,
``literalinclude``, ``image`` ...) is skipped with its options and content. Comments,
targets and substitution definitions are skipped. Unknown constructs degrade to
paragraphs; nothing raises.
"""

from __future__ import annotations

import dataclasses
import re

from caas_tui.review.claims.blocks import Block, Line
from caas_tui.review.claims.tense import speaks_of_past

_ADORN = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}\s*$")
_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+([A-Za-z][\w:.+-]*)::(?:\s+(.*))?$")
_COMMENT = re.compile(r"^(\s*)\.\.(?:\s|$)")
_OPTION = re.compile(r"^\s*:[\w][\w -]*:(\s|$)")
_BULLET = re.compile(r"^(\s*)([-*+•]|\d+[.)]|#[.)]|\(\d+\)|[a-zA-Z][.)])(\s+)(\S.*)$")
_TABLE_RULE = re.compile(r"^\s*(\+[-=+]+\+|=+(\s+=+)+|-+(\s+-+)+)\s*$")

CODE_DIRECTIVES = frozenset({"code-block", "code", "sourcecode", "ipython", "doctest", "testcode", "jupyter-execute"})
# Directives whose body is always Python: their argument is a test group or an option, not a language.
_PYTHON_DIRECTIVES = {"testcode": "python", "testsetup": "python", "doctest": "doctest", "jupyter-execute": "python"}
PROSE_DIRECTIVES = frozenset(
    {"note", "warning", "tip", "important", "hint", "attention", "caution", "danger", "error", "seealso",
     "admonition", "versionadded", "versionchanged", "deprecated", "versionremoved", "topic", "sidebar",
     "container", "only", "rubric"}
)
_ARG_IS_PROSE = frozenset(
    {"note", "warning", "tip", "important", "hint", "attention", "caution", "danger", "error", "seealso"}
)
_VERSION_NOTES = frozenset({"versionadded", "versionchanged", "deprecated", "versionremoved"})
# Python-domain object descriptions written by hand (``.. class:: Pipeline(source, sink=None)``):
# the signature is a claim about the API and the body is prose about that object.
_OBJECT_DIRECTIVES = frozenset(
    {"class", "function", "method", "attribute", "exception", "data", "decorator", "staticmethod", "classmethod",
     "property"}
)


# autodoc directives and the role each target is, read as a cross-reference
_AUTODOC = {"autoclass": "class", "autoexception": "exc", "autofunction": "func", "autodecorator": "func",
            "automethod": "meth", "autoattribute": "attr", "autoproperty": "attr", "autodata": "data",
            "automodule": "mod"}


_NOT_THERE = re.compile(r"\bnot\s+(?:yet\s+)?(?:implemented|available|supported)\b", re.IGNORECASE)


def _absent(body: list[Line]) -> bool:
    """An object description whose first paragraph says the object is not there (yet, or any
    more): "Not implemented yet!", "Removed in 2.0." -- its signature claims nothing about the code."""
    first: list[str] = []
    for ln in body:
        if not ln.text.strip():
            if first:
                break
            continue
        first.append(ln.text.strip())
    text = " ".join(first)
    return bool(_NOT_THERE.search(text)) or speaks_of_past(text)


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" \t"))


def _dedent(lines: list[Line]) -> list[Line]:
    widths = [_indent(ln.text) for ln in lines if ln.text.strip()]
    cut = min(widths) if widths else 0
    return [Line(ln.no, ln.text[cut:] if ln.text.strip() else "") for ln in lines]


class _Parser:
    def __init__(self, section_root: str | None) -> None:
        self.section_root = section_root
        self.styles: list[str] = []
        self.headings: list[tuple[int, str]] = []
        self.blocks: list[Block] = []
        self.last_para = ""
        self.owners: list[str] = []  # the ``.. class::`` descriptions a member description sits in

    @property
    def section(self) -> str | None:
        parts = ([self.section_root] if self.section_root else []) + [t for _, t in self.headings]
        return " > ".join(parts) or None

    def heading(self, style: str, title: str) -> None:
        if style not in self.styles:
            self.styles.append(style)
        level = self.styles.index(style)
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        self.headings.append((level, title.strip()))
        self.last_para = ""

    def para(self, lines: list[Line]) -> None:
        lines = [ln for ln in lines if ln.text.strip()]
        if not lines:
            return
        text = " ".join(ln.text.strip() for ln in lines)
        self.blocks.append(Block("prose", tuple(Line(ln.no, ln.text.strip()) for ln in lines), self.section, None, text))
        self.last_para = text

    def code(self, lines: list[Line], what: str) -> None:
        lines = _dedent(lines)
        while lines and not lines[-1].text.strip():
            lines.pop()
        while lines and not lines[0].text.strip():
            lines.pop(0)
        if not lines:
            return
        ctx = what + (f" after: {self.last_para}" if self.last_para else "")
        self.blocks.append(Block("code", tuple(lines), self.section, "\n".join(ln.text for ln in lines), ctx))

    # -- the scan ----------------------------------------------------------------------
    def run(self, lines: list[Line]) -> None:
        i, n = 0, len(lines)
        literal_next, literal_indent = False, 0
        while i < n:
            text = lines[i].text
            if not text.strip():
                i += 1
                continue
            ind = _indent(text)
            if literal_next and ind > literal_indent:
                j = self._block_end(lines, i, literal_indent)
                self.code(lines[i:j], "literal block")
                literal_next, i = False, j
                continue
            literal_next = False
            # Section title, with or without an overline.
            if _ADORN.match(text) and i + 2 < n and lines[i + 1].text.strip() and lines[i + 2].text.strip() == text.strip():
                self.heading("over" + text.strip()[0], lines[i + 1].text)
                i += 3
                continue
            if ind == 0 and i + 1 < n and _ADORN.match(lines[i + 1].text) and not _ADORN.match(text):
                under = lines[i + 1].text.strip()
                if len(under) >= min(len(text.strip()), 4) and not _TABLE_RULE.match(text):
                    self.heading(under[0], text)
                    i += 2
                    continue
            if _ADORN.match(text) or _TABLE_RULE.match(text):
                i += 1  # transition or table border
                continue
            directive = _DIRECTIVE.match(text)
            if directive:
                i = self._directive(lines, i, directive)
                continue
            if _COMMENT.match(text):
                i = self._block_end(lines, i + 1, ind)
                continue
            if text.lstrip().startswith(">>>"):
                j = i
                while j < n and lines[j].text.strip():
                    j += 1
                self.code(lines[i:j], "doctest")
                i = j
                continue
            literal_indent = ind
            i, literal_next = self._paragraph(lines, i)

    def _block_end(self, lines: list[Line], i: int, parent_indent: int) -> int:
        """First index at or after ``i`` of a non-blank line indented <= ``parent_indent``."""
        while i < len(lines) and (not lines[i].text.strip() or _indent(lines[i].text) > parent_indent):
            i += 1
        return i

    def _paragraph(self, lines: list[Line], i: int) -> tuple[int, bool]:
        first = lines[i]
        ind = _indent(first.text)
        bullet = _BULLET.match(first.text)
        body_indent = ind
        buf = [Line(first.no, bullet.group(4) if bullet else first.text)]
        if bullet:
            body_indent = ind + len(bullet.group(2)) + len(bullet.group(3))
        j = i + 1
        while j < len(lines):
            t = lines[j].text
            if not t.strip() or _DIRECTIVE.match(t) or _COMMENT.match(t) or _ADORN.match(t):
                break
            if _BULLET.match(t) and _indent(t) <= body_indent:
                break
            if _indent(t) < ind:
                break
            if j + 1 < len(lines) and _ADORN.match(lines[j + 1].text) and _indent(t) == 0:
                break  # the next line is a section title
            buf.append(lines[j])
            j += 1
        literal = buf[-1].text.rstrip().endswith("::")
        self.para(buf)
        return j, literal

    def _directive(self, lines: list[Line], i: int, m: re.Match[str]) -> int:
        ind = len(m.group(1))
        name = m.group(2).lower().split(":")[-1]
        arg = (m.group(3) or "").strip()
        end = self._block_end(lines, i + 1, ind)
        j = i + 1
        while j < end and lines[j].text.strip() and _OPTION.match(lines[j].text):
            j += 1  # options: never claims
        body = lines[j:end]
        domain = m.group(2).lower().rsplit(":", 1)[0] if ":" in m.group(2) else "py"
        if name in _OBJECT_DIRECTIVES and domain == "py" and arg:
            target = arg.split("(", 1)[0].strip()
            if self.owners and "." not in target:
                target, arg = f"{self.owners[-1]}.{target}", f"{self.owners[-1]}.{arg}"
            if "`" not in arg and not _absent(body):
                self.para([Line(lines[i].no, f"``{arg}``")])
            self.owners.append(target)
            self.run(_dedent(body))
            self.owners.pop()
        elif name in _AUTODOC and domain == "py" and arg:
            # ``.. autoclass:: Pool`` imports ``Pool`` to document it: the target is a cross-reference
            # (a claim that it exists, looked up like a role), the content is prose about it.
            target = arg.split("(", 1)[0].strip()
            if self.owners and "." not in target and name != "automodule":
                target = f"{self.owners[-1]}.{target}"
            if re.fullmatch(r"[A-Za-z_][\w.]*", target) and not _absent(body):
                self.para([Line(lines[i].no, f":{_AUTODOC[name]}:`{target}`")])
            self.owners.append(target)
            self.run(_dedent(body))
            self.owners.pop()
        elif name in CODE_DIRECTIVES:
            self.code(body, f"code block ({_PYTHON_DIRECTIVES.get(name) or arg or name})")
        elif name in PROSE_DIRECTIVES:
            first_block = len(self.blocks)
            arg_lines: list[Line] = []
            if arg and name in _ARG_IS_PROSE:
                arg_lines = [Line(lines[i].no, arg)]
            elif arg and name in _VERSION_NOTES and len(arg.split(None, 1)) == 2:
                arg_lines = [Line(lines[i].no, arg.split(None, 1)[1])]
            if arg_lines:
                cont = [ln for ln in body if ln.text.strip()]
                # An argument that runs on into the body is one paragraph.
                if cont and body and body[0].text.strip():
                    k = 0
                    while k < len(body) and body[k].text.strip():
                        k += 1
                    self.para(arg_lines + body[:k])
                    body = body[k:]
                else:
                    self.para(arg_lines)
            self.run(_dedent(body))
            if name in _VERSION_NOTES:
                # "deprecated:: 1.2" content talks about an API's past or future.
                self.blocks[first_block:] = [
                    dataclasses.replace(b, context=f"{name} {arg}: {b.context}") for b in self.blocks[first_block:]
                ]
        return end


def parse_lines(lines: list[Line], section_root: str | None = None) -> list[Block]:
    parser = _Parser(section_root)
    parser.run(lines)
    return parser.blocks


def rst_blocks(text: str) -> list[Block]:
    raw = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return parse_lines([Line(k + 1, t.replace("\t", "        ")) for k, t in enumerate(raw)])
