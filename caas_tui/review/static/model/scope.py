"""Which names a doc's earlier code blocks bound, as a later claim may see them.

A tutorial binds ``scene = Scene(...)`` once and uses ``scene`` in every later step: the
binding carries over. A guide whose sections each set up their own ``converter = ...`` has
made the name section-local: a section that uses ``converter`` without binding it means
whatever that section's prose says (a JSON converter), not the last section's object. So an
object bound in more than one section so far is seen only inside a section that binds it;
within a section, the latest binding wins. A name for a definition (``from pkg import
fields``: a module, class or function) is the same in every section that imports it, so it
carries over as long as every section bound it to the same definition. A name that can't be
seen is unknown (``None``), never judged.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

V = TypeVar("V")


def bound_names(tree: ast.Module) -> set[str]:
    """Names a block binds at its top level (assignments, loop and ``with`` targets, imports,
    definitions), not the locals of the functions, classes and comprehensions it defines."""
    out: set[str] = set()
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
            continue
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name.split(".")[0]) for a in node.names if a.name != "*")
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            out.add(node.id)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            out.add(node.name)
        todo.extend(ast.iter_child_nodes(node))
    return out


@dataclass(slots=True)
class _DocBindings(Generic[V]):
    values: dict[str, V | None] = field(default_factory=dict)
    sections: dict[str, set[str | None]] = field(default_factory=dict)  # sections that bound the name
    last: dict[str, str | None] = field(default_factory=dict)  # the section of the latest binding
    meanings: dict[str, set[Hashable | None]] = field(default_factory=dict)  # ``definition`` of each binding


class DocScopes(Generic[V]):
    """Per doc (or per docstring): the names its code blocks bound, by section."""

    def __init__(self, definition: Callable[[V], Hashable | None] = lambda v: None) -> None:
        # ``definition(v)``: the definition a value names (same in every section), None for an object.
        self._docs: dict[str, _DocBindings[V]] = {}
        self._definition = definition

    def clear(self) -> None:
        self._docs.clear()

    def visible(self, key: str, section: str | None) -> dict[str, V | None]:
        doc = self._docs.get(key)
        if doc is None:
            return {}
        return {name: val if self._seen(doc, name, section) else None for name, val in doc.values.items()}

    @staticmethod
    def _seen(doc: _DocBindings[V], name: str, section: str | None) -> bool:
        if doc.last[name] == section or len(doc.sections[name]) == 1:
            return True
        meanings = doc.meanings[name]
        return len(meanings) == 1 and None not in meanings

    def record(self, key: str, section: str | None, env: dict[str, V | None], bound: set[str] | None) -> None:
        """Store what a block left in ``env``; ``bound``: the names it bound itself (None: all of ``env``)."""
        if bound is None:
            seen = self.visible(key, section)
            bound = {n for n, v in env.items() if n not in seen or v is not seen[n]}
        doc = self._docs.setdefault(key, _DocBindings())
        for name in bound:
            doc.values[name] = env.get(name)
            doc.sections.setdefault(name, set()).add(section)
            doc.last[name] = section
            val = env.get(name)
            doc.meanings.setdefault(name, set()).add(None if val is None else self._definition(val))
