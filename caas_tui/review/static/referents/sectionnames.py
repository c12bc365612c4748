"""What a doc's section is about when a sentence names nothing itself: the project
classes and functions the section's heading, code blocks and inline code name before the
sentence ("If you leave the batch size out ..." after a block calling ``Pipeline(...)``),
and what their docstrings say each parameter is."""

from __future__ import annotations

import ast
import re
import weakref

from caas_tui.models import Claim
from caas_tui.review.claims.blocks import Line
from caas_tui.review.claims.docstrings import docstring_blocks, parse_field
from caas_tui.review.claims.mentions import code_block_names, code_spans
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.resolve import Def

_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+\S")
_RST_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+_.:])\1{2,}\s*$")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_RST_BLOCK = re.compile(r"^\s*\.\.\s+(?:code-block|code|sourcecode|testcode|doctest)::|::\s*$")
_DIRECTIVE = re.compile(r"^\s*\.\.\s+(?:py:)?(?:class|function|method|classmethod|staticmethod|attribute|data)::\s+([\w.]+)")
_CALLED = re.compile(r"\b([A-Za-z_][\w.]*)\s*\(")
_DOCS: weakref.WeakKeyDictionary[ReviewContext, dict[int, dict[str, str]]] = weakref.WeakKeyDictionary()


def section_start(lines: list[str], before: int) -> int:
    """Index of the first line after the heading the line ``before`` (0-based) sits under."""
    start, fence = 0, None
    for i in range(before):
        text = lines[i]
        m = _FENCE.match(text)
        if m:
            fence = None if fence and m.group(1)[0] == fence else (fence or m.group(1)[0])
            continue
        if fence:
            continue
        if _MD_HEADING.match(text):
            start = i + 1
        elif i > 0 and _RST_UNDERLINE.match(text) and lines[i - 1].strip() \
                and len(text.strip()) >= len(lines[i - 1].strip()):
            start = i  # so that the line before the start is the title, as in Markdown
    return start


def section_parts(lines: list[str]) -> list[tuple[str, str]]:
    """A stretch of Markdown or reST in order: ``("code", block)`` and ``("prose", line)``;
    the line introducing a reST block (``Example::``) is prose too."""
    parts: list[tuple[str, str]] = []
    i, n = 0, len(lines)
    while i < n:
        text = lines[i]
        m = _FENCE.match(text)
        if m:
            j = i + 1
            while j < n and not lines[j].lstrip().startswith(m.group(1)):
                j += 1
            parts.append(("code", "\n".join(lines[i + 1 : j])))
            i = j + 1
            continue
        if _RST_BLOCK.search(text):
            j = i + 1
            body: list[str] = []
            while j < n and (not lines[j].strip() or lines[j].startswith((" ", "\t"))):
                body.append(lines[j])
                j += 1
            if body:
                cut = min((len(b) - len(b.lstrip()) for b in body if b.strip()), default=0)
                parts += [("prose", text), ("code", "\n".join(b[cut:] for b in body))]
                i = j
                continue
        parts.append(("prose", text))
        i += 1
    return parts


def _code_and_prose(lines: list[str]) -> tuple[list[str], list[str]]:
    """(code blocks, prose lines) of a stretch of Markdown or reST."""
    parts = section_parts(lines)
    return [t for k, t in parts if k == "code"], [t for k, t in parts if k == "prose"]


def section_subjects(ctx: ReviewContext, claim: Claim) -> list[Def]:
    """Project classes and functions named in the claim's section before it, nearest last.
    Only for Markdown/reST docs: a docstring has its owner."""
    if claim.doc_path.endswith((".py", ".pyi")):
        return []
    lines = ctx.doc_lines(claim.doc_path)
    end = min(max(claim.start_line - 1, 0), len(lines))
    start = max(section_start(lines, end) - 1, 0)  # the heading line itself counts
    blocks, prose = _code_and_prose(lines[start:end])
    names: list[str] = []
    for code in blocks:
        names += code_block_names(code)
    for text in prose:
        directive = _DIRECTIVE.match(text)
        if directive:
            names.append(directive.group(1))
        for span in code_spans(text):
            names += [m.group(1) for m in _CALLED.finditer(span)] or [span.strip()]
    out: list[Def] = []
    seen: set[int] = set()
    for name in names:
        if not re.fullmatch(r"[A-Za-z_][\w.]*", name):
            continue
        res = ctx.resolve(name, claim)
        target = res.target if res.found and not res.ambiguous else None
        if target is None or not target.is_project or target.kind not in ("function", "class"):
            continue
        if id(target.node) not in seen:
            seen.add(id(target.node))
            out.append(target)
    return out


def _docstring_lines(node: ast.AST) -> list[Line]:
    text = ast.get_docstring(node) if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) else None
    return [Line(k + 1, t) for k, t in enumerate(text.split("\n"))] if text else []


def param_docs(ctx: ReviewContext, *defs: Def) -> dict[str, str]:
    """What the docstrings of ``defs`` (a class and its ``__init__``) say each parameter
    or attribute is: ``{"backoff": "delay before the first retry, in seconds."}``."""
    cache = _DOCS.setdefault(ctx, {})
    out: dict[str, str] = {}
    for d in defs:
        if d.node is None:
            continue
        key = id(d.node)
        if key not in cache:
            found: dict[str, str] = {}
            for block in docstring_blocks(_docstring_lines(d.node), d.qualname):
                fact = parse_field(block.text) if block.kind == "field" and block.text else None
                if fact is not None and fact.role in ("param", "attribute") and fact.name:
                    for name in fact.name.split(","):
                        found.setdefault(name.strip().lstrip("*"), fact.desc)
            cache[key] = found
        for name, desc in cache[key].items():
            out.setdefault(name, desc)
    return out
