"""What the tree-sitter extractors know about one file, in a form later layers can use.

The chunker turns an ``Outline`` into pieces; the graph and the reviewer can read the
same declarations (names, qualified symbols, parameters, doc comments, imports)
without parsing again. Line numbers are 1-based and inclusive.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

DeclKind = Literal[
    "class", "interface", "enum", "struct", "record", "trait", "impl", "object", "type",
    "function", "method", "constructor", "property", "module",
]
TYPE_KINDS: frozenset[str] = frozenset(
    {"class", "interface", "enum", "struct", "record", "trait", "impl", "object", "type", "module"}
)


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type: str | None = None
    default: str | None = None
    variadic: bool = False
    optional: bool = False  # a default value, or TS ``b?: T``: a call may leave it out


@dataclass(frozen=True, slots=True)
class DocComment:
    """A doc comment attached to a declaration (or, for ``//!``, to its module)."""

    text: str  # cleaned: comment markers removed, C# XML tags rendered as @param/@returns
    raw: str  # the comment lines as written
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Import:
    module: str  # ``./money``, ``java.util.Map``, ``System.Collections.Generic``, ``std::collections::HashMap``
    names: tuple[str, ...]  # names bound locally when the syntax says so (TS/JS named imports)
    line: int
    text: str


@dataclass(frozen=True, slots=True)
class Decl:
    kind: DeclKind
    name: str
    symbol: str  # qualified: ``pkg.Type.member`` (package/namespace/module, then enclosing types)
    parent: str | None  # qualified symbol of the enclosing type, if any
    start: int  # first line, counting doc comment, annotations, decorators and ``export``
    end: int
    decl_start: int  # first line of the declaration proper (after doc comment and attributes)
    signature: str
    params: tuple[Param, ...] = ()
    returns: str | None = None
    bases: tuple[str, ...] = ()  # extends / implements / trait implemented, as written
    doc: DocComment | None = None
    is_test: bool = False  # Rust ``#[test]`` (and everything in a ``#[cfg(test)]`` module)
    members: tuple[Decl, ...] = ()


@dataclass(frozen=True, slots=True)
class Outline:
    path: str
    language: str
    scope: str  # package / namespace / module path prefixing top-level symbols ("" when none)
    imports: tuple[Import, ...]
    decls: tuple[Decl, ...]
    module_doc: DocComment | None = None  # Go package comment, Rust ``//!``
    error_lines: int = 0  # lines inside ERROR / MISSING nodes
    import_spans: tuple[tuple[int, int], ...] = ()  # lines of import / re-export statements

    def walk(self) -> list[Decl]:
        """Every declaration, parents before their members, in source order."""
        out: list[Decl] = []
        stack = list(reversed(self.decls))
        while stack:
            d = stack.pop()
            out.append(d)
            stack.extend(reversed(d.members))
        return out
