"""Import Whoosh without compiling its English morphology tables (issue 20).

``whoosh.query`` imports ``whoosh.query.terms``, which imports ``variations`` from
``whoosh.lang.morph_en``; that module compiles six very large regular expressions at
import: the biggest single import cost of a one-shot ``caas-tui search`` (about a third of
Whoosh's import). Only Whoosh's ``Variations`` query (word-form expansion) calls it and
this program never builds one. :func:`install` puts a stand-in for that module in
``sys.modules`` before Whoosh is imported; the stand-in loads the real module the first
time anything in it is used, so behaviour is unchanged, only deferred.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
import types
from typing import Any

_NAME = "whoosh.lang.morph_en"


def _real() -> types.ModuleType:
    current = sys.modules.get(_NAME)
    if current is not None and not getattr(current, "_caas_stand_in", False):
        return current
    import whoosh.lang

    spec = importlib.machinery.PathFinder.find_spec(_NAME, list(whoosh.lang.__path__))
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot find {_NAME}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[_NAME] = module
    return module


def _variations(word: str) -> Any:
    return _real().variations(word)


def _getattr(name: str) -> Any:
    if name.startswith("__"):
        # the import system probes ``__path__`` and friends: a plain module has none
        raise AttributeError(name)
    return getattr(_real(), name)


def install() -> None:
    """Idempotent; does nothing once the real module (or the stand-in) is loaded."""
    if _NAME in sys.modules:
        return
    stand_in = types.ModuleType(_NAME, "stand-in for whoosh.lang.morph_en, loaded on first use (caas_tui)")
    stand_in._caas_stand_in = True  # type: ignore[attr-defined]
    stand_in.variations = _variations  # type: ignore[attr-defined]
    stand_in.__getattr__ = _getattr  # type: ignore[method-assign]  # PEP 562: any other name loads the real one
    sys.modules[_NAME] = stand_in
