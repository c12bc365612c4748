"""Import statements -> ``Import``s: ES ``import`` / ``export ... from`` / ``require``, Java and
Kotlin ``import``, C# ``using``, Go import specs, Rust ``use``.

A re-export (``export { a as b } from "./x"``, ``export * from "./x"``) is an import of the
file it names as well: the graph resolves a name imported from a barrel file through it.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from caas_tui.ingest.treesitter.nodes import child_of, descendants, first_line, text_of
from caas_tui.ingest.treesitter.outline import Import
from caas_tui.ingest.treesitter.specs import LangSpec

_SPACE = re.compile(r"\s+")


def is_reexport(node: Node) -> bool:
    """``export ... from "./x"``: an ES export statement naming another module."""
    return node.type == "export_statement" and node.child_by_field_name("source") is not None


def imports_of(node: Node, spec: LangSpec, language: str) -> list[Import]:
    """The imports one statement makes (a Go ``import ( ... )`` block: one per spec)."""
    if node.type == "import_declaration" and language == "go":
        return [i for s in descendants(node, "import_spec") for i in imports_of(s, spec, language)]
    names: list[str] = []
    src = node.child_by_field_name("source") or node.child_by_field_name("path")
    if src is None:
        src = node.child_by_field_name("argument") or node.child_by_field_name("name")
    if src is None:
        named = [c for c in node.named_children if c.type not in spec.comments]
        src = named[0] if named else None
    if language in ("typescript", "javascript"):
        clause = child_of(node, "import_clause") or child_of(node, "export_clause")
        if clause is not None:
            names = [text_of(n) for n in descendants(clause, "identifier")]
    module = _SPACE.sub("", text_of(src)).strip("\"'`")
    if not module:
        return []
    return [Import(module, tuple(names), first_line(node), text_of(node))]


def require_of(declarator: Node, call: Node) -> Import | None:
    """``const { a } = require("./x")`` / ``const x = require("./x")``."""
    args = call.child_by_field_name("arguments")
    string = child_of(args, "string") if args is not None else None
    if string is None:
        return None
    target = declarator.child_by_field_name("name")
    names = [text_of(n) for n in descendants(target, "shorthand_property_identifier_pattern")] if target else []
    if target is not None and target.type == "identifier":
        names = [text_of(target)]
    return Import(text_of(string).strip("\"'`"), tuple(names), first_line(declarator), text_of(call))
