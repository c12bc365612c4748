"""Which lexical backend an index uses: ``[index] lexical`` in caas.toml or ``--lexical``.

Each backend is imported only when chosen, so an index of one kind never loads the
other engine. The manifest records the backend; a change rebuilds the index.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from caas_tui.config import LEXICAL_BACKENDS
from caas_tui.errors import ConfigError
from caas_tui.index.protocols import LexicalBackend
from caas_tui.lazy import import_uncollected

__all__ = ["LEXICAL_BACKENDS", "create_lexical", "open_lexical"]


def _backend(name: str) -> Any:  # the backend class; both have create/open classmethods
    if name not in LEXICAL_BACKENDS:
        raise ConfigError(f"lexical backend must be one of {', '.join(LEXICAL_BACKENDS)} (got {name!r})")
    if name == "tantivy":
        try:
            from caas_tui.index.lexical_tantivy import TantivyLexical
        except ImportError as exc:
            raise ConfigError("the tantivy lexical backend needs the tantivy package (pip install tantivy)") from exc
        return TantivyLexical
    # imported here, on first use, without collector passes over Whoosh's objects as they are made
    return import_uncollected("caas_tui.index.lexical").WhooshLexical


def create_lexical(name: str, directory: Path) -> LexicalBackend:
    """A new, empty lexical index of backend ``name`` in ``directory``."""
    backend: LexicalBackend = _backend(name).create(directory)
    return backend


def open_lexical(name: str, directory: Path) -> LexicalBackend:
    """The lexical index of backend ``name`` in ``directory``; IndexStoreError if unusable."""
    backend: LexicalBackend = _backend(name).open(directory)
    return backend
