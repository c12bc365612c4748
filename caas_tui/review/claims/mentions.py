"""Which identifiers a piece of doc text mentions, and how it mentions them.

The origin matters to the reviewers: a backticked, role-marked or called name is an
assertion about the API; a dotted word in running prose is weaker evidence.
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass

from caas_tui.review.claims.nonpython import FILE_EXTS

# :role:`target` and :domain:role:`target`
_ROLE = re.compile(r"(?<![\w`]):(?:[\w-]+:)?([\w-]+):`([^`]+)`")
# Markdown/reST code spans: a run of N backticks closed by a run of exactly N.
_TICKS = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
_URL = re.compile(r"(?:[a-z][a-z0-9+.-]*://|www\.)\S+|\]\([^)]*\)|<[^>\s]+>", re.IGNORECASE)
_DOTTED = re.compile(r"(?<![\w./:@-])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(\(\))?(?![\w/-])")
_CALL = re.compile(r"(?<![\w.])([A-Za-z_][\w.]*)\(\)")
_SNAKE = re.compile(r"(?<![\w.`-])([a-z_][a-z0-9]*_[a-z0-9_]*[a-z0-9])(?![\w`(-])")
_IDENT_PATH = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")

# Roles whose target is a Python object (anything else: :ref:, :doc:, :file: ...).
SYMBOL_ROLES = frozenset(
    {"class", "meth", "func", "attr", "mod", "exc", "data", "obj", "const", "type", "any", "method", "function"}
)
_NOT_NAMES = frozenset({"e.g", "i.e", "a.k.a", "et.al", "vs", "cf", "etc"})


@dataclass(frozen=True, slots=True)
class Mention:
    name: str  # dotted name, without ``()`` or role markup
    origin: str  # role | code | call | dotted | ident
    raw: str  # the span as written (role content, backticked text, ...)
    called: bool = False
    start: int = -1  # offset in the text


def role_target(content: str) -> str:
    """``~pkg.mod.Name`` -> ``pkg.mod.Name``; ``Title <pkg.x>`` -> ``pkg.x``; drops ``()``."""
    content = content.strip()
    m = re.search(r"<([^<>]+)>\s*$", content)
    if m:
        content = m.group(1).strip()
    return content.lstrip("~!.").removesuffix("()").strip()


def _is_name(text: str) -> bool:
    return bool(_IDENT_PATH.fullmatch(text)) and text not in _NOT_NAMES


# A signature's bare ``*`` or ``/`` marker: ``f(a, *, b=1)`` states names and defaults as a call does.
_BARE_MARKER = re.compile(r"(?<=[(,])\s*[*/]\s*(?:,|(?=\)))")


def parse_inline(text: str) -> ast.expr | None:
    """An inline code span as an expression; a signature with ``*`` or ``/`` markers reads as the
    call it describes (``f(a, *, b=1)`` -> ``f(a, b=1)``). A bare name after ``*`` is keyword-only
    with no default shown: it reads as ``b=...`` (``f(a, *, b)`` -> ``f(a, b=...)``), never as a
    positional argument."""
    parsed = _plain_parse(text)
    if parsed is not None:
        return parsed
    star = next((m for m in _BARE_MARKER.finditer(text) if "*" in m.group()), None)
    stripped = _BARE_MARKER.sub("", text)
    parsed = _plain_parse(stripped)
    if star is None or not isinstance(parsed, ast.Call) or "\n" in text:
        return parsed
    cut = len(_BARE_MARKER.sub("", text[:star.start()]))  # where the keyword-only part starts in ``stripped``
    keep = [a for a in parsed.args if a.col_offset < cut]
    moved = [ast.keyword(arg=a.id, value=ast.Constant(...)) for a in parsed.args
             if a.col_offset >= cut and isinstance(a, ast.Name)]
    if len(keep) + len(moved) != len(parsed.args):
        return parsed  # ``f(a, *, g(x))`` is no signature: leave it as written
    parsed.args = keep
    parsed.keywords = [*moved, *parsed.keywords]
    return parsed


def is_signature(text: str) -> bool:
    """``f(a, *, b=1)``: a span that reads as a call only without its ``*`` or ``/`` markers."""
    return "(" in text and parse_inline(text) is not None and _BARE_MARKER.search(text) is not None \
        and _plain_parse(text) is None


def _plain_parse(text: str) -> ast.expr | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None


def _code_names(code: str) -> list[tuple[str, bool]]:
    """Dotted names an inline code span refers to: ``Scene.spawn(x)`` -> Scene.spawn (called)."""
    text = code.strip()
    if text.startswith("@") and "\n" not in text:  # ``@pre_load(pass_many=True)``: a decorator is a name or a call
        text = text[1:]
    if text.endswith("()") and _is_name(text[:-2]):
        return [(text[:-2], True)]
    if _is_name(text):
        return [(text, False)]
    tree = parse_inline(text)
    if tree is None:
        return []
    out: list[tuple[str, bool]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = dotted(node.func)
            if name:
                out.append((name, True))
    return out


def dotted(node: ast.AST) -> str | None:
    """``a.b.c`` for a Name/Attribute chain, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def find_mentions(text: str) -> list[Mention]:
    """Every name mention in order of kind (roles, code spans, then prose)."""
    found: list[Mention] = []
    rest = text

    def blank(m: re.Match[str]) -> str:
        return " " * len(m.group(0))

    for m in _ROLE.finditer(rest):
        role, content = m.group(1), m.group(2)
        if role in SYMBOL_ROLES:
            target = role_target(content)
            if _is_name(target):
                found.append(Mention(target, "role", content, content.strip().endswith("()"), m.start()))
    rest = _ROLE.sub(blank, rest)
    for m in _TICKS.finditer(rest):
        for name, called in _code_names(m.group(2)):
            found.append(Mention(name, "code", m.group(2), called, m.start()))
    rest = _TICKS.sub(blank, rest)
    rest = _URL.sub(blank, rest)
    for m in _CALL.finditer(rest):
        if _is_name(m.group(1)):
            found.append(Mention(m.group(1), "call", m.group(0), True, m.start(1)))
    for m in _DOTTED.finditer(rest):
        name = m.group(1)
        last = name.rsplit(".", 1)[-1]
        if last.lower() in FILE_EXTS or name.lower() in _NOT_NAMES or all(len(p) <= 1 for p in name.split(".")):
            continue
        if m.group(2) is None:
            found.append(Mention(name, "dotted", m.group(0), False, m.start(1)))
    for m in _SNAKE.finditer(rest):
        found.append(Mention(m.group(1), "ident", m.group(1), False, m.start(1)))
    return found


def code_spans(text: str) -> list[str]:
    """Backticked texts and role contents, as written."""
    spans = [m.group(2) for m in _ROLE.finditer(text)]
    rest = _ROLE.sub(lambda m: " " * len(m.group(0)), text)
    spans.extend(m.group(2) for m in _TICKS.finditer(rest))
    return spans


def parse_block(code: str) -> ast.Module | None:
    """A code block's Python (doctest prompts stripped, lines kept), or None if it does not parse."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(doctest_source(code))
    except (SyntaxError, ValueError, RecursionError):
        return None


def code_block_names(code: str) -> list[str]:
    """Imported modules/names, called and referenced dotted names of a code block."""
    tree = parse_block(code)
    if tree is None:
        return []
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.extend(f"{node.module}.{a.name}" for a in node.names if a.name != "*")
        elif isinstance(node, ast.Import):
            names.extend(a.name for a in node.names)
        elif isinstance(node, ast.Call):
            name = dotted(node.func)
            if name:
                names.append(name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            name = dotted(node)
            if name:
                names.append(name)
    return unique(names)


def doctest_source(code: str) -> str:
    """The Python in a block: doctest prompts stripped and output lines dropped.

    Lines keep their positions (dropped lines become blank) so ast line numbers map
    back onto the block.
    """
    lines = code.split("\n")
    if not any(line.lstrip().startswith(">>>") for line in lines):
        return code
    out: list[str] = []
    for line in lines:
        stripped = line.lstrip()
        if stripped.startswith(">>> ") or stripped == ">>>" or stripped.startswith("... ") or stripped == "...":
            out.append(stripped[4:])
        else:
            out.append("")
    return "\n".join(out)


def unique(items: list[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for item in items:
        if item and item not in seen:
            seen.add(item)
            out.append(item)
    return out


def symbols_and_spans(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return tuple(unique([m.name for m in find_mentions(text)])), tuple(code_spans(text))
