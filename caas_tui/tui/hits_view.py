"""The evidence table's rows, in words a writer can read, and which columns fit a width.

Pure: hits in, cells out. Engine scores (an RRF value, or 1/(60+rank) in a single-channel
mode) mean nothing to a reader, so the table shows a relevance relative to the top hit,
where each channel placed the hit among the hits shown (no gaps), and why a hit is
there when the engine pinned or added it. The legend (``LEGEND``) says the same in full.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text

from caas_tui.models import Hit

KIND_STYLE = {"code": "#87d7ff", "test": "#d7af5f", "doc": "#afd787", "upstream": "#d787d7", "api": "#87d7d7"}
PINNED = "exact symbol"  # the engine's ``via`` for a hit pinned because the query names its symbol

# Display order; ``plan`` says which go first when the pane is narrow (location never goes).
COLUMNS = ("#", "rel", "location", "why", "kind", "agree", "symbol")
CELL_PAD = 2  # DataTable pads each cell by one on either side
WHY_CHARS = 22
WHY_MIN = 10
SYMBOL_MIN = 8

LEGEND: tuple[tuple[str, str], ...] = (
    ("#", "Position in the list. Pinned and graph-added hits come first where the engine put them."),
    ("rel", "Relevance 0-100 relative to the top search hit (100 = as relevant as the best one). "
            "'pin' and 'link' rows were not ranked by score: see why."),
    ("location", "path:first-last line of the chunk. A long path is shortened from the left (…/file.py)."),
    ("why", "Why the hit is here: 'both' (the keyword and the meaning search found it), 'words' (keyword search, "
            "bm25), 'meaning' (semantic search, dense), 'exact name' (pinned: the query names its symbol), "
            "'named in the claim' (added: the claim names its symbol) or 'via calls <- X' (added from the code "
            "graph: X calls it)."),
    ("kind", "code, test, doc, upstream (a dependency's source) or api (a module's docstrings)."),
    ("agree", "Where each search placed it among these hits: words · meaning (2·5 = 2nd by keywords, "
              "5th by meaning; - = that search did not find it)."),
    ("symbol", "The function, class or section the chunk belongs to."),
)


@dataclass(frozen=True, slots=True)
class HitRow:
    rank: str
    rel: str
    path: str
    lines: str
    why: str
    kind: str
    agree: str
    symbol: str


def _positions(hits: Sequence[Hit], channel: str) -> dict[str, int]:
    """1-based place of each hit among the shown hits by one channel's rank: no gaps."""
    ranked = sorted((r, h.chunk.id) for h in hits if (r := getattr(h, channel)) is not None)
    return {cid: i for i, (_, cid) in enumerate(ranked, 1)}


def why(hit: Hit) -> str:
    if hit.via == PINNED:
        return "exact name"
    if hit.via:
        # A graph edge reads "via calls <- X"; the engine's other reasons ("named in the claim") as they are.
        return f"via {hit.via}" if "<-" in hit.via or "->" in hit.via else hit.via
    if hit.bm25_rank is not None and hit.dense_rank is not None:
        return "both"
    return "words" if hit.bm25_rank is not None else "meaning" if hit.dense_rank is not None else "search"


def _rel(hit: Hit, top: float) -> str:
    if hit.via:
        return "pin" if hit.via == PINNED else "link"
    if not top:
        return "-"
    return str(max(1, round(100 * hit.score / top))) if hit.score > 0 else "0"  # found at all: never "0"


def hit_rows(hits: Sequence[Hit]) -> list[HitRow]:
    searched = [h.score for h in hits if not h.via and h.score > 0]
    top = max(searched, default=0.0)
    words, meaning = _positions(hits, "bm25_rank"), _positions(hits, "dense_rank")
    rows = []
    for hit in hits:
        c = hit.chunk
        rel = _rel(hit, top)
        agree = f"{words.get(c.id, '-')}·{meaning.get(c.id, '-')}"
        rows.append(HitRow(str(hit.rank), rel, c.path, f"{c.start_line}-{c.end_line}", why(hit), c.kind, agree,
                           c.symbol or "-"))
    return rows


def location(path: str, lines: str, width: int) -> str:
    """``path:lines`` in ``width`` cells: the path shortened from the left, never the file name or lines."""
    full = f"{path}:{lines}"
    if len(full) <= width:
        return full
    name = path.rsplit("/", 1)[-1]
    if len(name) + len(lines) + 2 > width:
        return f"{name}:{lines}"  # no room even for "…/": the file name and lines still show whole
    keep = width - len(lines) - 2  # room for "…" and ":"
    return "…" + path[-keep:] + ":" + lines


def _cell(row: HitRow, column: str) -> str:
    return {"#": row.rank, "rel": row.rel, "why": row.why, "kind": row.kind, "agree": row.agree,
            "symbol": row.symbol}[column]


def plan(rows: Sequence[HitRow], width: int) -> list[tuple[str, int]]:
    """Columns that fit ``width`` cells, in display order, with their widths. The location
    always shows (shortened from the left, never below its file name and lines); then the
    rank and the relevance; then the location grows to whole paths; then why, kind, agree,
    and the symbol last, cut to what is left."""
    natural = {col: max([len(col)] + [len(_cell(r, col)) for r in rows]) for col in COLUMNS if col != "location"}
    natural["why"] = min(natural["why"], WHY_CHARS)
    loc_full = max([len("location")] + [len(r.path) + 1 + len(r.lines) for r in rows])
    loc_min = max([len("location")] + [len(r.path.rsplit("/", 1)[-1]) + 1 + len(r.lines) for r in rows])
    loc = loc_min
    left = width - loc - CELL_PAD
    chosen = {"location": loc}

    def take(col: str, want: int) -> None:
        nonlocal left
        if want + CELL_PAD <= left:
            chosen[col] = want
            left -= want + CELL_PAD

    take("#", natural["#"])
    take("rel", natural["rel"])
    grow = max(0, min(loc_full - loc, left))
    chosen["location"] += grow
    left -= grow
    if left - CELL_PAD >= WHY_MIN:  # cut rather than dropped: it is what explains pinned and added rows
        take("why", min(natural["why"], left - CELL_PAD))
    for col in ("kind", "agree"):
        take(col, natural[col])
    if left - CELL_PAD >= SYMBOL_MIN:
        take("symbol", min(natural["symbol"], left - CELL_PAD))
    return [(col, chosen[col]) for col in COLUMNS if col in chosen]


def cells(row: HitRow, columns: Sequence[tuple[str, int]]) -> tuple[Text, ...]:
    out = []
    for col, width in columns:
        if col == "location":
            out.append(Text(location(row.path, row.lines, width), no_wrap=True))
            continue
        value = _cell(row, col)
        if len(value) > width:
            value = value[: max(0, width - 1)] + "…"
        style = KIND_STYLE.get(value, "") if col == "kind" else ("dim" if col in ("agree", "why") else "")
        right = col in ("#", "rel")
        if col == "why" and row.rel in ("pin", "link"):
            style = "bold"  # the engine moved this hit: say so where the eye is
        out.append(Text(value, style=style, justify="right" if right else "left", no_wrap=True))
    return tuple(out)
