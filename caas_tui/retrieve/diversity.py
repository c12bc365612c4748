"""Drop docstring/code twins from a ranked list.

A function's docstring is indexed twice: inside its ``code`` chunk and alone as an
``api`` chunk. When both rank, the lower one adds no evidence (its lines lie inside
the other) and costs a slot that a chunk from another file could use.

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
    """``items`` without the lower-ranked of each api/code pair for one symbol."""
    seen: set[tuple[str, str]] = set()
    out: list[Fused] = []
    for item in items:
        chunk = chunk_of(item.id)
        if chunk is None:
            continue
        if chunk.kind in _TWINS and chunk.symbol:
            key = (chunk.path, chunk.symbol)
            if key in seen and item.id not in pinned:
                continue
            seen.add(key)
        out.append(item)
    return out
