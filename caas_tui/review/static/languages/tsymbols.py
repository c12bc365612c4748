"""The declarations of the project's tree-sitter languages, as the reviewer looks them up:
by name through ``Engine.find_symbol``, with the file's ``Outline`` for parameters, return
types, bases and doc comments. Outlines are cached by file content hash."""

from __future__ import annotations

import os
import re
import threading
from dataclasses import dataclass

from caas_tui.errors import CaasError
from caas_tui.ingest.treesitter import TREESITTER_LANGUAGES, TYPE_KINDS, Decl, Outline, outline
from caas_tui.models import EvidenceSpan
from caas_tui.retrieve.engine import Engine
from caas_tui.sources import Skipped, load_path

# TS and JS call each other's code; every other language stands alone.
_FAMILY = {"javascript": "typescript"}
CALLABLE_KINDS = frozenset({"function", "method", "constructor"})
# Members every value of the language has without the project declaring them.
UNIVERSAL: dict[str, frozenset[str]] = {
    "typescript": frozenset({"toString", "valueOf", "hasOwnProperty", "constructor", "toJSON"}),
    "java": frozenset({"toString", "equals", "hashCode", "getClass", "clone", "compareTo", "name", "ordinal", "values",
                       "valueOf"}),
    "kotlin": frozenset({"toString", "equals", "hashCode", "copy", "let", "also", "apply", "run", "takeIf", "takeUnless",
                         "name", "ordinal", "values", "valueOf", "entries"}),
    "csharp": frozenset({"ToString", "Equals", "GetHashCode", "GetType"}),
    "go": frozenset(),
    "rust": frozenset({"clone", "clone_from", "fmt", "eq", "ne", "cmp", "partial_cmp", "hash", "default", "into",
                       "from", "to_string", "as_ref", "borrow", "to_owned", "iter", "into_iter"}),
}
_COMPONENT = re.compile(r"component\d+$")
_TYPE_NAME = re.compile(r"[A-Za-z_]\w*")
_GO_EMBEDDED = re.compile(r"^\s*\*?[A-Za-z_][\w.]*(?:\[[^\]]*\])?\s*(?:`[^`]*`)?\s*(?://.*)?$")


def family(language: str) -> str:
    return _FAMILY.get(language, language)


@dataclass(frozen=True, slots=True)
class Found:
    decl: Decl
    path: str
    language: str

    def evidence(self) -> EvidenceSpan:
        return EvidenceSpan(self.path, self.decl.start, self.decl.end, self.decl.symbol)


_LOCK = threading.Lock()
_OUTLINES: dict[tuple[str, str, str], Outline | None] = {}
_MAX_OUTLINES = 2048


def outline_of(engine: Engine, path: str) -> Outline | None:
    """The file's outline, parsed once per version of the file (size and mtime)."""
    try:
        st = os.stat(engine.resolve_path(path))
    except (OSError, CaasError):
        return None
    key = (str(engine.root), path, f"{st.st_size}:{st.st_mtime_ns}")
    with _LOCK:
        if key in _OUTLINES:
            return _OUTLINES[key]
    src = load_path(engine.cfg, path)
    found = None if isinstance(src, Skipped) or src.language not in TREESITTER_LANGUAGES else outline(src)
    with _LOCK:
        if len(_OUTLINES) >= _MAX_OUTLINES:
            _OUTLINES.clear()
        _OUTLINES[key] = found
    return found


class Symbols:
    """Lookups for one review run (answers cached: the index does not change during it)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._find: dict[tuple[str, str | None], list[Found]] = {}

    def find(self, name: str, language: str | None = None) -> list[Found]:
        """Every declaration (overloads included) whose qualified symbol is or ends with ``name``."""
        key = (name, language)
        if key in self._find:
            return self._find[key]
        out: list[Found] = []
        seen: set[tuple[str, str]] = set()
        for chunk in self.engine.find_symbol(name):
            if chunk.language not in TREESITTER_LANGUAGES or chunk.symbol is None:
                continue
            if language is not None and family(chunk.language) != family(language):
                continue
            if (chunk.path, chunk.symbol) in seen:
                continue
            seen.add((chunk.path, chunk.symbol))
            tree = outline_of(self.engine, chunk.path)
            if tree is None:
                continue
            for d in tree.walk():
                if d.symbol == chunk.symbol:
                    out.append(Found(d, chunk.path, tree.language))
        # A long type is split into several chunks with one symbol: keep each declaration once.
        uniq = list({(f.path, f.decl.symbol, f.decl.start): f for f in out}.values())
        self._find[key] = uniq
        return uniq

    def types(self, name: str, language: str | None) -> list[Found]:
        return [f for f in self.find(name, language) if f.decl.kind in TYPE_KINDS and f.decl.kind != "module"]

    def callables(self, name: str, language: str | None) -> list[Found]:
        return [f for f in self.find(name, language) if f.decl.kind in CALLABLE_KINDS]

    def type_members(self, owner: Found) -> list[Found]:
        """Members of a type: in its own body, Rust ``impl`` blocks and Kotlin extensions (same symbol prefix)."""
        prefix = owner.decl.symbol + "."
        out: list[Found] = []
        paths = {owner.path} | {f.path for f in self.find(owner.decl.name, owner.language)}
        for path in sorted(paths):
            tree = outline_of(self.engine, path)
            if tree is None:
                continue
            for d in tree.walk():
                if d.symbol.startswith(prefix) and "." not in d.symbol[len(prefix):]:
                    out.append(Found(d, path, tree.language))
        return out

    def member(self, owner: Found, name: str, depth: int = 0) -> tuple[list[Found], bool]:
        """(declarations of ``owner.name``, whether the answer is certain). Uncertain when a
        base type is outside the project (it may declare the member)."""
        found = [m for m in self.type_members(owner) if m.decl.name == name]
        if not found:  # a Kotlin extension or a Rust ``impl`` in another file
            found = [f for f in self.find(f"{owner.decl.name}.{name}", owner.language) if f.decl.parent == owner.decl.symbol
                     or f.decl.symbol.endswith(f"{owner.decl.name}.{name}")]
        if found:
            return found, True
        certain = not self._embeds(owner)
        for base in owner.decl.bases:
            m = _TYPE_NAME.search(base.split("<")[0].split("(")[0].strip().rsplit(".", 1)[-1])
            if m is None:
                continue
            bases = self.types(m.group(0), owner.language)
            if not bases or depth > 3:
                certain = False
                continue
            for b in bases:
                inner, sure = self.member(b, name, depth + 1)
                if inner:
                    return inner, True
                certain = certain and sure
        return [], certain

    def _embeds(self, owner: Found) -> bool:
        """A Go struct with an embedded field: the embedded type's methods are promoted to it."""
        if owner.language != "go" or owner.decl.kind != "struct":
            return False
        try:
            text = self.engine.read_span(owner.path, owner.decl.decl_start, owner.decl.end)
        except CaasError:
            return True
        body = text.split("{", 1)[-1].rsplit("}", 1)[0]
        return any(_GO_EMBEDDED.match(line) for line in re.split(r"[;\n]", body))

    def member_names(self, owner: Found) -> set[str]:
        return {m.decl.name for m in self.type_members(owner)}

    def return_type(self, fn: Found) -> list[Found]:
        """The project type a function returns (``*Stock`` -> Stock; Rust ``Self`` -> its impl type)."""
        ret = (fn.decl.returns or "").strip()
        if ret in ("Self", "this") or fn.decl.kind == "constructor":
            parent = fn.decl.parent
            return self.types(parent, fn.language) if parent else []
        m = _TYPE_NAME.search(ret.lstrip("*&(").removeprefix("mut "))
        if m is None:
            return []
        return self.types(m.group(0), fn.language)


def universal(language: str, name: str) -> bool:
    return name in UNIVERSAL.get(family(language), frozenset()) or bool(_COMPONENT.fullmatch(name))
