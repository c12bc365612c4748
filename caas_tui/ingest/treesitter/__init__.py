"""Source files of tree-sitter languages (TS/JS, Java, Kotlin, C#, Go, Rust) -> symbol-level pieces.

``outline`` gives what later layers need per file (declarations, doc comments, imports);
``chunk_treesitter`` turns it into pieces. A grammar that cannot load, or a file the
extractor cannot handle, falls back to line windows with a warning, never an error.
"""

from __future__ import annotations

import logging

import tree_sitter

from caas_tui.ingest.ids import Piece, span_text, split_lines, trim, windows
from caas_tui.ingest.python import API_KINDS, SYNTAX_OVERLAP, SYNTAX_WINDOW
from caas_tui.ingest.treesitter import grammars
from caas_tui.ingest.treesitter.chunk import Builder
from caas_tui.ingest.treesitter.extract import Extractor
from caas_tui.ingest.treesitter.outline import TYPE_KINDS, Decl, DeclKind, DocComment, Import, Outline, Param
from caas_tui.ingest.treesitter.specs import SPECS
from caas_tui.ingest.treesitter.uses import Binding, FileUses, Use, collect
from caas_tui.models import SourceFile

log = logging.getLogger(__name__)

TREESITTER_LANGUAGES: frozenset[str] = frozenset(SPECS)


def outline(src: SourceFile) -> Outline | None:
    """The file's declarations, or None when its grammar is unavailable or extraction failed."""
    found = _parse(src, with_uses=False)
    return found[0] if found is not None else None


def analyse(src: SourceFile) -> tuple[Outline, FileUses] | None:
    """The file's declarations and its call sites / typed names (one parse), for the graph."""
    return _parse(src, with_uses=True)


# The last file parsed: indexing chunks a file, then reads its graph facts from the same
# ``SourceFile``, so the second reader reuses the tree and outline instead of parsing again.
_last: list[tuple[SourceFile, tree_sitter.Tree, tree_sitter.Language, Outline]] = []


def _parse(src: SourceFile, *, with_uses: bool) -> tuple[Outline, FileUses] | None:
    spec = SPECS.get(src.language)
    if spec is None:
        return None
    try:
        entry = _last[0] if _last else None  # read once: another thread may replace it
        if entry is not None and entry[0] is src:
            _src, tree, language, found = entry
        else:
            parser = grammars.parser(grammars.grammar_for(src.language, src.path))
            if parser is None or parser.language is None:
                return None
            tree = parser.parse(src.text.encode("utf-8", "surrogatepass"))
            language = parser.language
            found = Extractor(spec, src.language, src.path).outline(tree.root_node)
            _last[:] = [(src, tree, language, found)]
        return found, collect(tree.root_node, language) if with_uses else FileUses()
    except (RecursionError, ValueError, TypeError, AttributeError, IndexError, KeyError) as exc:
        # A construct the tables did not foresee costs this file its symbols, not the index.
        log.warning("%s: %s extraction failed (%s); indexed as text windows", src.path, src.language, exc)
        return None


def chunk_treesitter(src: SourceFile) -> list[Piece]:
    lines, n = split_lines(src.text)
    if n == 0:
        return []
    out = outline(src)
    if out is None:
        return [
            Piece(src.kind, s, e, None, span_text(lines, s, e))
            for s, e in windows(1, n, SYNTAX_WINDOW, SYNTAX_OVERLAP)
            if trim(lines, s, e) is not None
        ]
    return Builder(lines=lines, kind=src.kind, api=src.kind in API_KINDS, skip=out.import_spans).file(out, n)


__all__ = [
    "TREESITTER_LANGUAGES", "TYPE_KINDS", "Binding", "Decl", "DeclKind", "DocComment", "FileUses", "Import",
    "Outline", "Param", "Use", "analyse", "chunk_treesitter", "outline",
]
