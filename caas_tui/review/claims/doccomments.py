"""Doc comments of TS/JS, Java, Kotlin, C#, Go and Rust sources -> blocks, so a source
file can be reviewed as a doc: prose, and one ``field`` block per ``@param`` /
``@returns`` / ``@throws`` entry (C# ``<param name>`` / ``<returns>`` / ``<exception>``).

Field claims get the Sphinx canonical text Python docstrings use (``:param sku: ...``,
``:returns: ...``, ``:raises E: ...``), so ``parse_field`` and the assertion kinds read
them the same way. Each block's section is the qualified symbol of the declaration
the comment documents.
"""

from __future__ import annotations

import re

from caas_tui.ingest.treesitter import TREESITTER_LANGUAGES, DocComment, outline
from caas_tui.models import SourceFile
from caas_tui.review.claims.blocks import Block, Line
from caas_tui.review.claims.rst import parse_lines
from caas_tui.sources import language_of

# Comment markers stripped from the start / end of each line, per language.
_OPENERS = ("/**", "/*!", "///", "//!", "//", "/*", "*")
_CLOSER = re.compile(r"\s*\*+/\s*$")
# C# XML tags on one line -> the @tag vocabulary (the same one the ingest renders).
_XML = (
    (re.compile(r'<param\s+name\s*=\s*"([^"]*)"\s*>', re.I), r"@param \1 "),
    (re.compile(r'<typeparam\s+name\s*=\s*"([^"]*)"\s*>', re.I), r"@typeparam \1 "),
    (re.compile(r"<returns\s*>", re.I), "@returns "),
    (re.compile(r'<exception\s+cref\s*=\s*"([^"]*)"\s*>', re.I), r"@throws \1 "),
    (re.compile(r'<(?:see|seealso|paramref|typeparamref)\s+(?:cref|name|langword)\s*=\s*"([^"]*)"\s*/>', re.I), r"`\1`"),
    (re.compile(r"</?[A-Za-z][^>]*>"), ""),
)
_TAG = re.compile(r"^@(\w+)\b\s*(.*)$")
_JSDOC_NAME = re.compile(r"^(?:\{(?P<type>[^}]*)\}\s*)?(?P<name>\[[^\]]*\]|[\w$.]+)\s*(?:-\s*)?(?P<desc>.*)$")
_RETURN_TAGS = frozenset({"return", "returns"})
_THROW_TAGS = frozenset({"throws", "throw", "exception"})


def source_language(path: str) -> str | None:
    """The tree-sitter language of a source path, or None."""
    language = language_of(path)
    return language if language in TREESITTER_LANGUAGES else None


def _clean(raw_line: str, xml: bool) -> str:
    s = raw_line.strip()
    s = _CLOSER.sub("", s)
    for marker in _OPENERS:
        if s.startswith(marker):
            s = s[len(marker):]
            break
    s = s[1:] if s.startswith(" ") else s
    if xml:
        for pattern, repl in _XML:
            s = pattern.sub(repl, s)
    return re.sub(r"[ \t]+", " ", s).rstrip() if xml else s.rstrip()


def comment_lines(doc: DocComment, language: str) -> list[Line]:
    """The comment's cleaned lines, each with its source line number."""
    xml = language == "csharp"
    raw = doc.raw.split("\n")
    out = [Line(doc.start + i, _clean(r, xml)) for i, r in enumerate(raw)]
    if xml:
        out = [Line(ln.no, ln.text.strip()) for ln in out]
    while out and not out[-1].text.strip():
        out.pop()
    while out and not out[0].text.strip():
        out.pop(0)
    return out


def field_text(tag: str, rest: str) -> str | None:
    """``@param {number} price the price`` -> ``:param number price: the price``; None for other tags."""
    tag = tag.lower()
    rest = " ".join(rest.split())
    if tag == "param":
        m = _JSDOC_NAME.match(rest)
        if m is None:
            return None
        name = m.group("name").strip("[]").split("=", 1)[0]
        head = f"{m.group('type').strip()} {name}" if m.group("type") else name
        return f":param {head}: {m.group('desc').strip()}".rstrip()
    if tag in _RETURN_TAGS:
        return f":returns: {rest}".rstrip()
    if tag in _THROW_TAGS:
        exc, _, desc = rest.partition(" ")
        exc = exc.strip("{}")
        return f":raises {exc}: {desc.strip()}".rstrip() if exc else None
    return None


def comment_blocks(doc: DocComment, language: str, owner: str) -> list[Block]:
    lines = comment_lines(doc, language)
    blocks: list[Block] = []
    prose: list[Line] = []
    entry: list[Line] = []
    entry_tag = ""

    def close_entry() -> None:
        if entry:
            m = _TAG.match(entry[0].text.strip())
            text = field_text(entry_tag, " ".join([m.group(2) if m else "", *(ln.text for ln in entry[1:])]))
            if text is not None:
                blocks.append(Block("field", tuple(entry), owner, text, f"{owner}: {text}"))
            entry.clear()

    for line in lines:
        m = _TAG.match(line.text.strip())
        if m is not None:
            close_entry()
            entry_tag = m.group(1)
            entry.append(line)
        elif entry:
            if line.text.strip():
                entry.append(line)
            else:
                close_entry()
                entry_tag = ""
        elif not entry_tag:
            prose.append(line)
    close_entry()
    if prose:
        blocks[:0] = parse_lines(prose, owner)
    return blocks


def source_blocks(path: str, text: str) -> list[Block]:
    """Blocks of every doc comment in a TS/JS, Java, Kotlin, C#, Go or Rust source file."""
    language = source_language(path)
    if language is None:
        return []
    found = outline(SourceFile(path, "code", language, text, 0.0, "", len(text)))
    if found is None:
        return []
    blocks: list[Block] = []
    if found.module_doc is not None:
        blocks += comment_blocks(found.module_doc, language, found.scope or path)
    for decl in found.walk():
        if decl.doc is not None:
            blocks += comment_blocks(decl.doc, language, decl.symbol)
    return blocks
