"""graph layer: a Python symbol graph across files, built at index time.

``extract_fragment(src, chunks)`` reads one file into a ``Fragment`` (its own,
unresolved facts); ``build_graph(fragments)`` resolves every fragment against
the others into a ``SymbolGraph``. The index stores fragments per file
(``save_fragments``/``load_fragments``) so a refresh re-reads only changed files.
"""

from __future__ import annotations

from collections.abc import Sequence

from caas_tui.graph.build import build_graph
from caas_tui.graph.docfacts import doc_fragment, mentions
from caas_tui.graph.graph import Neighbour, SymbolGraph
from caas_tui.graph.model import EDGE_KINDS, REVERSE_NAMES, Edge, Fragment, Node
from caas_tui.graph.persist import (
    GRAPH_FILE,
    GRAPH_SCHEMA,
    load_fragments,
    save_fragments,
)
from caas_tui.graph.pyfacts import python_fragment
from caas_tui.models import Chunk, SourceFile


def extract_fragment(src: SourceFile, chunks: Sequence[Chunk] = ()) -> Fragment:
    """What the graph needs from one file: Python definitions and uses for code and
    tests, sections and the names they mention for everything else (from ``chunks``)."""
    if src.language == "python" and src.kind in ("code", "test"):
        return python_fragment(src)
    return doc_fragment(src, chunks)


__all__ = [
    "EDGE_KINDS", "GRAPH_FILE", "GRAPH_SCHEMA", "REVERSE_NAMES", "Edge", "Fragment", "Neighbour", "Node",
    "SymbolGraph", "build_graph", "extract_fragment", "load_fragments", "mentions", "save_fragments",
]
