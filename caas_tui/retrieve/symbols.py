"""Name lookup over indexed definitions: qualified, suffix and short names."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal, Protocol

from caas_tui.models import Chunk
from caas_tui.sources.entries import CODE_LANGUAGES

_DEF_KINDS = ("code", "test", "upstream")


class DefinitionSource(Protocol):
    """Definitions looked up where they are stored (the index's chunk store), ordered by
    path and line: ``symbol`` the whole name, ``short`` its last dotted segment (code only)."""

    def defined(self, column: Literal["symbol", "short"], name: str) -> Sequence[Chunk]: ...


class SymbolTable:
    """Maps names to the chunks that define them (code chunks; docs use heading paths).

    Built from ``chunks`` in memory, or over a ``source`` that answers each lookup (the
    index: a one-shot search then reads a few rows instead of every chunk).
    """

    def __init__(self, chunks: Iterable[Chunk] = (), *, source: DefinitionSource | None = None) -> None:
        self._source = source
        self._by_symbol: dict[str, list[Chunk]] = {}
        self._by_short: dict[str, list[Chunk]] = {}
        self._keys_by_path: dict[str, set[tuple[str, str | None]]] = {}  # path -> (symbol, short) it filled
        self._add(chunks)

    def _lookup(self, column: Literal["symbol", "short"], name: str) -> Sequence[Chunk]:
        if self._source is not None:
            return self._source.defined(column, name)
        return (self._by_symbol if column == "symbol" else self._by_short).get(name, [])

    def _add(self, chunks: Iterable[Chunk]) -> None:
        touched: set[tuple[str, str | None]] = set()
        for chunk in chunks:
            if not chunk.symbol:
                continue
            short = chunk.symbol.rsplit(".", 1)[-1] if chunk.language in CODE_LANGUAGES else None
            self._by_symbol.setdefault(chunk.symbol, []).append(chunk)
            if short is not None:
                self._by_short.setdefault(short, []).append(chunk)
            key = (chunk.symbol, short)
            self._keys_by_path.setdefault(chunk.path, set()).add(key)
            touched.add(key)
        for symbol, short in touched:
            self._by_symbol[symbol].sort(key=_order)
            if short is not None:
                self._by_short[short].sort(key=_order)

    def replace_paths(self, paths: Iterable[str], chunks: Iterable[Chunk]) -> None:
        """Forget every definition from ``paths`` and add ``chunks`` (their new content).

        A refresh touches a few files; rebuilding the whole table cost ~0.25 s per
        save at stdlib scale, the largest part of a one-file refresh. Over a ``source``
        there is nothing to do: it is the store the refresh already changed.
        """
        if self._source is not None:
            return
        gone = set(paths)
        for path in gone:
            for symbol, short in self._keys_by_path.pop(path, set()):
                for table, name in ((self._by_symbol, symbol), (self._by_short, short)):
                    if name is None or name not in table:
                        continue
                    kept = [c for c in table[name] if c.path != path]
                    if kept:
                        table[name] = kept
                    else:
                        del table[name]
        self._add(c for c in chunks if c.path in gone)

    def find(self, name: str, kinds: Sequence[str] = _DEF_KINDS, *, exact_only: bool = False) -> list[Chunk]:
        """Chunks defining ``name``: an exact qualified name, a dotted suffix
        (``Scene.remove`` matches ``pkg.scene.Scene.remove``), or a bare short name.

        ``exact_only`` skips the short-name fallback for dotted names, so ``a.b``
        never matches an unrelated ``b``.
        """
        name = name.strip().strip("`").removesuffix("()")
        if "::" in name:  # Rust paths (``Bin::put``): symbols are dotted in every language
            name = name.replace("::", ".")
        if not name:
            return []
        wanted = set(kinds)
        # Filter by kind before deciding to fall back: a doc heading named "Store" must
        # not hide the class `pkg.store.Store` when only code is wanted.
        found: list[Chunk] = [c for c in self._lookup("symbol", name) if c.kind in wanted]
        if not found:
            short = name.rsplit(".", 1)[-1]
            candidates = self._lookup("short", short)
            if "." in name:
                suffix = "." + name
                found = [c for c in candidates if c.symbol and c.symbol.endswith(suffix)]
            elif not exact_only or short == name:
                found = list(candidates)
        seen: set[str] = set()
        out: list[Chunk] = []
        for chunk in found:
            if chunk.kind in wanted and chunk.id not in seen:
                seen.add(chunk.id)
                out.append(chunk)
        return out


def _order(chunk: Chunk) -> tuple[str, int]:
    return (chunk.path, chunk.start_line)
