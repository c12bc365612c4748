"""Prose -> the names it mentions; doc/upstream chunks -> ``Section``s of a ``Fragment``.

Only what is written is recorded (``Scene.destroy``, ``scene.destroy(e)``,
``:meth:`~pkg.Scene.destroy```); deciding which project symbol a name means is
``resolve``'s job, because it needs every file's definitions.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Callable, Sequence

from caas_tui.graph.model import Fragment, Mention, Section
from caas_tui.models import Chunk, SourceFile

_ROLE = re.compile(r":(?:py:)?(?:meth|func|class|attr|mod|data|exc|obj|const|property|method|function):`([^`]+)`")
_CODE = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[^\n]*\n(.*?)^ {0,3}\1[ \t]*$", re.DOTALL | re.MULTILINE)
_RST_BLOCK = re.compile(r"(?:^\.\. code-block::[^\n]*|::)[ \t]*\n((?:[ \t]*\n)*(?:(?:[ \t]+[^\n]*)?\n)+)", re.MULTILINE)
# ``::`` joins Rust paths (``Bin::put``): read as a dot, the separator every symbol uses.
_CHAIN = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?:(?:\.|::)[A-Za-z_]\w*)*(\s*\()?")
# Doc-comment cross-references: JSDoc/TSDoc/Javadoc/KDoc ``{@link Foo#bar}``, C# ``cref="Foo.Bar"``.
_LINK = re.compile(r"\{@link(?:code|plain)?\s+([A-Za-z_][\w.#:]*)|\bcref\s*=\s*\"(?:[A-Z]:)?([A-Za-z_][\w.]*)")
_DOTTED = re.compile(r"(?<![\w./-])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?![\w/-])")
_MAX_MENTIONS = 400  # per section: a generated API dump should not flood the graph


def docstring_mentions(text: str, first_line: int) -> tuple[Mention, ...]:
    return mentions(text, first_line)


def mentions(text: str, first_line: int) -> tuple[Mention, ...]:
    """The names ``text`` (starting at line ``first_line``) mentions, in order, de-duplicated.

    ``role``: a Sphinx cross-reference; ``code``: inside inline code or a code block;
    ``dotted``: a dotted name in running prose (``Scene.step``). Bare words in prose
    are never names: they are far too often plain English.
    """
    starts = [0]
    at = text.find("\n")
    while at >= 0:  # str.find: a per-character loop cost as much as the rest of this function
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    found: list[Mention] = []
    taken: list[tuple[int, int]] = []

    def line_of(offset: int) -> int:
        return first_line + bisect.bisect_right(starts, offset) - 1

    def add(name: str, offset: int, how: str) -> None:
        name = name.strip().lstrip("~!.").removesuffix("()").strip()
        if name and (name[0].isalpha() or name[0] == "_"):
            found.append(Mention(name, line_of(offset), how))

    for m in _LINK.finditer(text) if ("{@link" in text or "cref" in text) else ():
        add((m.group(1) or m.group(2)).replace("#", ".").replace("::", "."), m.start(), "role")
        taken.append(m.span())
    for m in _ROLE.finditer(text):
        target = m.group(1)
        if "<" in target and target.endswith(">"):
            target = target[target.rindex("<") + 1 : -1]  # :meth:`title <pkg.target>`
        add(target, m.start(), "role")
        taken.append(m.span())
    for pattern in (_FENCE, _RST_BLOCK):
        for m in pattern.finditer(text):
            if not _inside(m.start(), taken):
                _code_names(m.group(2) if pattern is _FENCE else m.group(1), m.start(2 if pattern is _FENCE else 1), add)
                taken.append(m.span())
    for m in _CODE.finditer(text):
        if not _inside(m.start(), taken):
            _code_names(m.group(2), m.start(2), add, inline=True)
            taken.append(m.span())
    for m in _DOTTED.finditer(text):
        if not _inside(m.start(), taken):
            add(m.group(0), m.start(), "dotted")
    seen: set[str] = set()
    out: list[Mention] = []
    for mention in sorted(found, key=lambda x: x.line):
        if mention.name not in seen:
            seen.add(mention.name)
            out.append(mention)
    return tuple(out[:_MAX_MENTIONS])


def _code_names(code: str, offset: int, add: Callable[[str, int, str], None], *, inline: bool = False) -> None:
    """Names in code: dotted chains, calls (``Scene(``) and class-like words.

    Inline code is usually exactly one name (```flush```), so every chain counts;
    in a block, a lone lower-case word is a variable or keyword far more often.
    """
    for m in _CHAIN.finditer(code):
        name = m.group(0).rstrip("( \t").replace("::", ".")
        if inline or "." in name or m.group(1) or (name[:1].isupper() and any(c.islower() for c in name)):
            add(name, offset + m.start(), "code")


def _inside(offset: int, spans: list[tuple[int, int]]) -> bool:
    return any(a <= offset < b for a, b in spans)


def section_node(path: str, symbol: str, occurrence: int) -> str:
    return f"{path}#{symbol}" if occurrence == 0 else f"{path}#{symbol}:{occurrence + 1}"


def doc_fragment(src: SourceFile, chunks: Sequence[Chunk]) -> Fragment:
    """One ``Section`` per doc/upstream chunk of the file (api chunks come from the AST)."""
    seen: Counter[str] = Counter()
    sections: list[Section] = []
    for chunk in sorted(chunks, key=lambda c: (c.start_line, c.end_line)):
        if chunk.kind not in ("doc", "upstream"):
            continue
        symbol = chunk.symbol or f"L{chunk.start_line}"
        node = section_node(src.path, symbol, seen[symbol])
        seen[symbol] += 1
        sections.append(Section(node, chunk.kind, symbol, chunk.start_line, chunk.end_line, mentions(chunk.text, chunk.start_line)))
    return Fragment(path=src.path, kind=src.kind, sha256=src.sha256, sections=tuple(sections))
