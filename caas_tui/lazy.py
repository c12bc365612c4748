"""Names a package re-exports but imports only on first use (PEP 562).

A one-shot command pays for every module it imports; a package ``__init__`` that imported
all its parts up front made ``search`` load chunkers, graph resolution and CI renderers it
never calls. Such a package lists where each name lives and sets
``__getattr__ = lazy_exports(__name__, HOMES, globals())``.
"""

from __future__ import annotations

import gc
import importlib
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any


def lazy_exports(package: str, homes: Mapping[str, str], namespace: dict[str, Any]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports ``homes[name]`` on first use and keeps the value in
    ``namespace``, so later lookups never come back here."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        namespace[name] = value
        return value

    return __getattr__


def import_uncollected(name: str) -> ModuleType:
    """``importlib.import_module(name)`` with the cycle collector paused.

    A module imported on first use (after ``cli.main`` has settled the command's own imports)
    makes thousands of objects that live as long as the process, and the collector walked
    them pass after pass while they were made, freeing nothing: importing the Whoosh backend
    in a one-shot search set off eleven collections. The caller's collector state is restored.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return importlib.import_module(name)
    finally:
        if was_enabled:
            gc.enable()
