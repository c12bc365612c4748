"""How docs are grouped and filtered wherever they are listed (the Docs pane, the doc picker):
guides and tutorials first, API modules (listed for their docstrings) apart; a fuzzy filter."""

from __future__ import annotations

from collections.abc import Sequence

from caas_tui.tui.state import DocEntry

GUIDES, MODULES = "Guides and tutorials", "API modules (docstrings)"


def fuzzy_score(query: str, path: str) -> tuple[int, int, int] | None:
    """``None`` unless every character of ``query`` appears in ``path`` in order (any case).
    Lower sorts first: a plain substring, then matches in the file name, then shorter gaps."""
    q, p = query.lower().replace(" ", ""), path.lower()
    if not q:
        return (0, 0, 0)
    if q in p:
        return (0, 0 if q in p.rsplit("/", 1)[-1] else 1, p.index(q))
    pos, gaps, last = 0, 0, -1
    for ch in q:
        found = p.find(ch, pos)
        if found < 0:
            return None
        if last >= 0:
            gaps += found - last - 1
        last, pos = found, found + 1
    return (1, 0 if last > p.rfind("/") else 1, gaps)


def ordered(docs: Sequence[DocEntry], query: str) -> tuple[list[DocEntry], list[DocEntry]]:
    """(guides, API modules) matching ``query``, best match first (listed order when empty)."""
    scored = [(s, i, d) for i, d in enumerate(docs) if (s := fuzzy_score(query, d.path)) is not None]
    scored.sort(key=lambda t: (t[0], t[1]) if query else (t[1],))
    guides = [d for _, _, d in scored if d.language != "python"]
    modules = [d for _, _, d in scored if d.language == "python"]
    return guides, modules


def doc_groups(docs: Sequence[DocEntry], query: str = "") -> list[tuple[str, list[DocEntry]]]:
    """The non-empty groups of ``ordered``, each with its title."""
    return [(title, group) for title, group in zip((GUIDES, MODULES), ordered(docs, query), strict=True) if group]
