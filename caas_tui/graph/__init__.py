"""graph layer: a symbol graph across files (Python and the tree-sitter languages), built at index time.

``extract_fragment(src, chunks)`` reads one file into a ``Fragment`` (its own,
unresolved facts); ``build_graph(fragments)`` resolves every fragment against
the others into a ``SymbolGraph``. The index stores fragments per file
(``save_fragments``/``load_fragments``) so a refresh re-reads only changed files.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from caas_tui.lazy import lazy_exports
from caas_tui.models import Chunk, SourceFile

if TYPE_CHECKING:
    from caas_tui.graph.build import build_graph
    from caas_tui.graph.docfacts import mentions
    from caas_tui.graph.edges import EDGE_KINDS, EDGES, REVERSE_NAMES, WALK_NAMES, EdgeName, relation, relation_label
    from caas_tui.graph.graph import Neighbour, SymbolGraph
    from caas_tui.graph.model import Edge, Fragment, Node
    from caas_tui.graph.persist import (
        GRAPH_FILE,
        GRAPH_SCHEMA,
        FragmentLines,
        StoredFragments,
        load_fragments,
        parse_fragments,
        save_fragments,
    )

# Names are imported on first use (PEP 562): opening an index for a search reads only
# ``persist`` (and a type or two); the fact extractors, which import the chunkers and
# compile their patterns, load when a file is read or the graph is built (issue 20).
_HOMES = {
    "build_graph": "caas_tui.graph.build",
    "mentions": "caas_tui.graph.docfacts",
    **dict.fromkeys(("EDGE_KINDS", "EDGES", "REVERSE_NAMES", "WALK_NAMES", "EdgeName", "relation", "relation_label"),
                    "caas_tui.graph.edges"),
    "Neighbour": "caas_tui.graph.graph",
    "SymbolGraph": "caas_tui.graph.graph",
    **dict.fromkeys(("Edge", "Fragment", "Node"), "caas_tui.graph.model"),
    **dict.fromkeys(("GRAPH_FILE", "GRAPH_SCHEMA", "FragmentLines", "StoredFragments", "load_fragments",
                     "parse_fragments", "save_fragments"), "caas_tui.graph.persist"),
}


__getattr__ = lazy_exports(__name__, _HOMES, globals())


def extract_fragment(src: SourceFile, chunks: Sequence[Chunk] = ()) -> Fragment:
    """What the graph needs from one file: definitions and uses for code and tests (Python
    through ``ast``, the tree-sitter languages through their outline), sections and the
    names they mention for everything else (from ``chunks``)."""
    from caas_tui.graph.docfacts import doc_fragment

    if src.kind in ("code", "test"):
        if src.language == "python":
            from caas_tui.graph.pyfacts import python_fragment

            return python_fragment(src)
        from caas_tui.ingest.treesitter import TREESITTER_LANGUAGES

        if src.language in TREESITTER_LANGUAGES:
            from caas_tui.graph.tsfacts import treesitter_fragment

            found = treesitter_fragment(src)
            if found is not None:
                return found
    return doc_fragment(src, chunks)


__all__ = [
    "EDGES", "EDGE_KINDS", "GRAPH_FILE", "GRAPH_SCHEMA", "REVERSE_NAMES", "WALK_NAMES", "Edge", "EdgeName", "Fragment",
    "FragmentLines", "Neighbour", "Node", "SymbolGraph", "build_graph", "StoredFragments", "extract_fragment",
    "load_fragments", "parse_fragments", "mentions", "relation",
    "relation_label", "save_fragments",
]
