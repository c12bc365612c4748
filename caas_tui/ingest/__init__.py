"""ingest layer: ``SourceFile`` -> symbol-level ``Chunk``s."""

from __future__ import annotations

from collections.abc import Callable

from caas_tui.ingest.ids import Piece, chunk_id, finish
from caas_tui.ingest.markdown import chunk_markdown
from caas_tui.ingest.python import chunk_python, class_signature, function_signature, module_name
from caas_tui.ingest.rst import chunk_rst
from caas_tui.ingest.text import chunk_text
from caas_tui.ingest.treesitter import TREESITTER_LANGUAGES, chunk_treesitter
from caas_tui.models import Chunk, SourceFile

_CHUNKERS: dict[str, Callable[[SourceFile], list[Piece]]] = {
    "python": chunk_python,
    "markdown": chunk_markdown,
    "rst": chunk_rst,
    "text": chunk_text,
    **dict.fromkeys(TREESITTER_LANGUAGES, chunk_treesitter),
}


def chunk_file(src: SourceFile) -> list[Chunk]:
    """Chunks of one file in line order; an unknown language is chunked as text."""
    return finish(src, _CHUNKERS.get(src.language, chunk_text)(src))


__all__ = ["chunk_file", "chunk_id", "class_signature", "function_signature", "module_name"]
