"""Loading tree-sitter grammars, one pinned wheel per language, checked at load.

A grammar that cannot load (missing wheel, ABI the binding does not speak) turns
that language off with one warning; the files are then chunked as windows.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable

import tree_sitter

log = logging.getLogger(__name__)


def _loader(module: str, attr: str = "language") -> Callable[[], object]:
    def load() -> object:
        return getattr(importlib.import_module(module), attr)()

    return load


# Grammar name -> capsule factory. Tests swap an entry to simulate a broken wheel.
LOADERS: dict[str, Callable[[], object]] = {
    "typescript": _loader("tree_sitter_typescript", "language_typescript"),
    "tsx": _loader("tree_sitter_typescript", "language_tsx"),
    "javascript": _loader("tree_sitter_javascript"),
    "java": _loader("tree_sitter_java"),
    "kotlin": _loader("tree_sitter_kotlin"),
    "csharp": _loader("tree_sitter_c_sharp"),
    "go": _loader("tree_sitter_go"),
    "rust": _loader("tree_sitter_rust"),
}

_cache: dict[str, tree_sitter.Language | None] = {}


def grammar_for(language: str, path: str) -> str:
    """TSX needs its own grammar; every other language has one."""
    return "tsx" if language == "typescript" and path.lower().endswith(".tsx") else language


def load(grammar: str) -> tree_sitter.Language | None:
    """The grammar, or None (logged once) when it cannot be used."""
    if grammar in _cache:
        return _cache[grammar]
    lang: tree_sitter.Language | None = None
    try:
        lang = tree_sitter.Language(LOADERS[grammar]())
        abi = lang.abi_version
        if not tree_sitter.MIN_COMPATIBLE_LANGUAGE_VERSION <= abi <= tree_sitter.LANGUAGE_VERSION:
            raise ValueError(
                f"grammar ABI {abi}, binding supports {tree_sitter.MIN_COMPATIBLE_LANGUAGE_VERSION}"
                f"-{tree_sitter.LANGUAGE_VERSION}"
            )
    except Exception as exc:  # noqa: BLE001 - any failure of a third-party grammar means "not available"
        log.warning("tree-sitter grammar %r unavailable (%s); its files are indexed as text windows", grammar, exc)
        lang = None
    _cache[grammar] = lang
    return lang


def parser(grammar: str) -> tree_sitter.Parser | None:
    lang = load(grammar)
    return tree_sitter.Parser(lang) if lang is not None else None


def reset() -> None:
    """Forget loaded grammars (tests that swap ``LOADERS`` call this)."""
    _cache.clear()
