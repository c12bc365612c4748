"""Merge docstring/code twins in a ranked list.

A function's docstring is indexed twice: inside its ``code`` chunk and alone as an
``api`` chunk. When both rank, showing both costs a slot that a chunk from another
file could use, and the code chunk is the better evidence (its lines hold the
docstring and the definition). So the pair becomes one entry: the code chunk, at the
better of the two positions and with the better score.

A per-file discount was tried too and dropped: on the stdlib docstring eval it cost
0.01-0.03 MRR@10 in every mode (bench/retrieval.py), because the answer is often
the second chunk of a file that also holds a near miss.
"""

from __future__ import annotations

from collections.abc import Callable

from caas_tui.models import Chunk
from caas_tui.retrieve.fusion import Fused

_TWINS = {"api", "code"}


def drop_twins(
    items: list[Fused], chunk_of: Callable[[str], Chunk | None], *, pinned: set[str] = frozenset()  # type: ignore[assignment]
) -> list[Fused]:
    """``items`` with each api/code pair for one symbol merged into its code chunk."""
    slot: dict[tuple[str, str], int] = {}  # (path, symbol) -> index in ``out``
    out: list[Fused] = []
    for item in items:
        chunk = chunk_of(item.id)
        if chunk is None:
            continue
        if chunk.kind not in _TWINS or not chunk.symbol:
            out.append(item)
            continue
        key = (chunk.path, chunk.symbol)
        if key not in slot:
            slot[key] = len(out)
            out.append(item)
            continue
        if item.id in pinned:
            out.append(item)
            continue
        earlier = out[slot[key]]
        earlier_chunk = chunk_of(earlier.id)
        if chunk.kind == "code" and earlier_chunk is not None and earlier_chunk.kind == "api" and earlier.id not in pinned:
            # The pair ranked where its better half did: report each channel's best rank.
            ranks = {c: min(r, earlier.ranks.get(c, r)) for c, r in item.ranks.items()}
            ranks.update({c: r for c, r in earlier.ranks.items() if c not in ranks})
            out[slot[key]] = Fused(item.id, earlier.score, ranks)
    return out
