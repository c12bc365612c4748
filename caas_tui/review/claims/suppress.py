"""Inline ``caas: ignore`` markers: which claims a doc's author silenced, and why.

Markdown ``<!-- caas: ignore [reason] -->``, a reST comment ``.. caas: ignore [reason]``
and a docstring line holding ``caas: ignore [reason]`` each silence one claim: the
claim whose lines hold the marker, else the next claim after it. In Python only
markers inside docstrings count (a ``# caas: ignore`` code comment says nothing about
the docs). Suppressed claims are still reviewed and reported, marked as suppressed.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from caas_tui.models import Claim
from caas_tui.review.claims.extract import doc_language
from caas_tui.review.textutil import split_lines

_MARKDOWN = re.compile(r"<!--\s*caas:\s*ignore\b\s*(?P<reason>.*?)\s*-->", re.IGNORECASE)
_RST = re.compile(r"^\s*\.\.\s+caas:\s*ignore\b\s*(?P<reason>.*?)\s*$", re.IGNORECASE)
_DOCSTRING = re.compile(r"\bcaas:\s*ignore\b\s*(?P<reason>.*?)\s*(?:\"\"\"|'''|$)", re.IGNORECASE)


def _docstring_lines(text: str) -> set[int]:
    """1-based lines lying inside a module, class or function docstring."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return set()
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                lines.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return lines


def _is_marker(text: str) -> bool:
    stripped = text.strip()
    return any(p.fullmatch(stripped) for p in (_MARKDOWN, _RST)) or bool(
        _DOCSTRING.match(stripped) and stripped.lower().startswith("caas:"))


def markers(path: str, text: str) -> list[tuple[int, str]]:
    """``(line, reason)`` for every ``caas: ignore`` marker of the file, in line order."""
    language = doc_language(path)
    found: list[tuple[int, str]] = []
    if language == "python":
        inside = _docstring_lines(text)
        for number, line in enumerate(split_lines(text), start=1):
            if number in inside and (m := _DOCSTRING.search(line)):
                found.append((number, m.group("reason")))
        return found
    pattern = _RST if language == "rst" else _MARKDOWN
    for number, line in enumerate(split_lines(text), start=1):
        if m := pattern.search(line):
            found.append((number, m.group("reason")))
    return found


def suppressions(path: str, text: str, claims: Sequence[Claim]) -> dict[str, str]:
    """Claim id -> why it is suppressed, for the claims the file's markers silence."""
    # A marker trailing a sentence can come out as a "claim" of its own: it is the marker, not its target.
    ordered = sorted((c for c in claims if not _is_marker(c.text)), key=lambda c: (c.start_line, c.end_line))
    out: dict[str, str] = {}
    for line, reason in markers(path, text):
        target = next((c for c in ordered if c.start_line <= line <= c.end_line), None)
        if target is None:
            target = next((c for c in ordered if c.start_line > line), None)
        if target is not None and target.id not in out:
            out[target.id] = f"caas: ignore at line {line}" + (f": {reason}" if reason else "")
    return out


__all__ = ["markers", "suppressions"]
