"""``find_symbol``: definitions with their signature and docstring."""

from __future__ import annotations

import ast
import textwrap

from caas_tui.mcp_server.results import Definition
from caas_tui.models import Chunk
from caas_tui.retrieve.engine import Engine

DEF_KINDS = ("code", "test", "upstream")


def definitions(engine: Engine, name: str) -> list[Definition]:
    """One entry per defined symbol, in the engine's order (exact matches first).

    A long function is indexed as overlapping windows sharing one symbol; they are
    merged back into a single definition spanning them all.
    """
    groups: dict[tuple[str, str], list[Chunk]] = {}
    for chunk in engine.find_symbol(name, kinds=DEF_KINDS):
        if chunk.symbol:
            groups.setdefault((chunk.path, chunk.symbol), []).append(chunk)
    out: list[Definition] = []
    for (path, symbol), chunks in groups.items():
        chunks.sort(key=lambda c: c.start_line)
        first = chunks[0]
        out.append(
            Definition(
                symbol=symbol,
                kind=first.kind,
                path=path,
                start_line=first.start_line,
                end_line=max(c.end_line for c in chunks),
                signature=first.signature,
                docstring=docstring(engine, first),
                parent=first.parent,
            )
        )
    return out


def docstring(engine: Engine, chunk: Chunk) -> str | None:
    """The ``api`` chunk's docstring for the same symbol, else one parsed from the def text."""
    assert chunk.symbol is not None
    for api in engine.find_symbol(chunk.symbol, kinds=("api",)):
        if api.path == chunk.path and api.symbol == chunk.symbol:
            return _strip_signature(api)
    return _parse_docstring(chunk.text)


def _strip_signature(api: Chunk) -> str:
    # The ingester stores ``signature\ndocstring`` so the signature is searchable too.
    text = api.text
    if api.signature and text.startswith(api.signature + "\n"):
        return text[len(api.signature) + 1 :]
    return text


def _parse_docstring(text: str) -> str | None:
    """The docstring of the first def/class in ``text``; None when there is none or the
    text does not parse (a window cut from the middle of a long function)."""
    try:
        tree = ast.parse(textwrap.dedent(text))
    except (SyntaxError, ValueError):
        return None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return ast.get_docstring(node, clean=True)
    return None
