"""ingest layer: ``SourceFile`` -> symbol-level ``Chunk``s.

Each language's chunker is imported when a file of it is first chunked (and the other
names here on first use, PEP 562): a command that opens a clean index chunks nothing and
loads none of them, tree-sitter included (issue 20).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from caas_tui.lazy import lazy_exports
from caas_tui.models import Chunk, SourceFile

if TYPE_CHECKING:
    from caas_tui.ingest.ids import Piece, chunk_id
    from caas_tui.ingest.python import class_signature, function_signature, module_name

# language -> (module, function) of its chunker; any other language goes to tree-sitter
# when it is one of its languages, else is chunked as text
_HOMES = {
    "python": ("caas_tui.ingest.python", "chunk_python"),
    "markdown": ("caas_tui.ingest.markdown", "chunk_markdown"),
    "rst": ("caas_tui.ingest.rst", "chunk_rst"),
    "text": ("caas_tui.ingest.text", "chunk_text"),
}
_TREESITTER = ("caas_tui.ingest.treesitter", "chunk_treesitter")
_CHUNKERS: dict[str, Callable[[SourceFile], list[Piece]]] = {}


def _chunker(language: str) -> Callable[[SourceFile], list[Piece]]:
    found = _CHUNKERS.get(language)
    if found is None:
        home = _HOMES.get(language)
        if home is None:
            from caas_tui.ingest.treesitter import TREESITTER_LANGUAGES

            home = _TREESITTER if language in TREESITTER_LANGUAGES else _HOMES["text"]
        found = _CHUNKERS[language] = getattr(importlib.import_module(home[0]), home[1])
    return found


def chunk_file(src: SourceFile) -> list[Chunk]:
    """Chunks of one file in line order; an unknown language is chunked as text."""
    from caas_tui.ingest.ids import finish  # not at import: the lexical writers import ingest.gcpause

    return finish(src, _chunker(src.language)(src))


__getattr__ = lazy_exports(
    __name__, {**dict.fromkeys(("class_signature", "function_signature", "module_name"), "caas_tui.ingest.python"),
               "chunk_id": "caas_tui.ingest.ids"},
    globals())


__all__ = ["chunk_file", "chunk_id", "class_signature", "function_signature", "module_name"]
