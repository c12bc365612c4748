"""Name lookup over indexed definitions: qualified, suffix and short names."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from caas_tui.models import Chunk

_DEF_KINDS = ("code", "test", "upstream")


class SymbolTable:
    """Maps names to the chunks that define them (code chunks; docs use heading paths)."""

    def __init__(self, chunks: Iterable[Chunk]) -> None:
        self._by_symbol: dict[str, list[Chunk]] = {}
        self._by_short: dict[str, list[Chunk]] = {}
        for chunk in chunks:
            if not chunk.symbol:
                continue
            self._by_symbol.setdefault(chunk.symbol, []).append(chunk)
            if chunk.language == "python":
                short = chunk.symbol.rsplit(".", 1)[-1]
                self._by_short.setdefault(short, []).append(chunk)
        for bucket in (*self._by_symbol.values(), *self._by_short.values()):
            bucket.sort(key=lambda c: (c.path, c.start_line))

    def find(self, name: str, kinds: Sequence[str] = _DEF_KINDS, *, exact_only: bool = False) -> list[Chunk]:
        """Chunks defining ``name``: an exact qualified name, a dotted suffix
        (``Scene.remove`` matches ``pkg.scene.Scene.remove``), or a bare short name.

        ``exact_only`` skips the short-name fallback for dotted names, so ``a.b``
        never matches an unrelated ``b``.
        """
        name = name.strip().strip("`").removesuffix("()")
        if not name:
            return []
        wanted = set(kinds)
        # Filter by kind before deciding to fall back: a doc heading named "Store" must
        # not hide the class `pkg.store.Store` when only code is wanted.
        found: list[Chunk] = [c for c in self._by_symbol.get(name, []) if c.kind in wanted]
        if not found:
            short = name.rsplit(".", 1)[-1]
            candidates = self._by_short.get(short, [])
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
