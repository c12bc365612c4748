"""Reciprocal Rank Fusion.

RRF scores a document by ``sum_c w_c / (k + rank_c)`` over the channels ``c`` that
returned it (ranks 1-based). It needs no score calibration between BM25 and cosine,
which is why it is the default way to combine the two channels.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Fused:
    id: str
    score: float
    ranks: Mapping[str, int]  # channel name -> 1-based rank in that channel


def rrf(
    rankings: Mapping[str, Sequence[str]],
    *,
    k: float = 60.0,
    weights: Mapping[str, float] | None = None,
) -> list[Fused]:
    """Fuse ranked id lists (best first) into one list, best first.

    Ties break on the best single-channel rank, then on the id, so output order is
    deterministic whatever order the channels were given in.
    """
    if k < 0:
        raise ValueError("RRF k must be >= 0")
    scores: dict[str, float] = {}
    ranks: dict[str, dict[str, int]] = {}
    for channel, ids in rankings.items():
        weight = 1.0 if weights is None else float(weights.get(channel, 1.0))
        seen: set[str] = set()
        position = 0
        for doc_id in ids:
            if doc_id in seen:  # a channel may repeat an id; only its best rank counts
                continue
            seen.add(doc_id)
            position += 1
            scores[doc_id] = scores.get(doc_id, 0.0) + weight / (k + position)
            ranks.setdefault(doc_id, {})[channel] = position
    ordered = sorted(scores, key=lambda d: (-scores[d], min(ranks[d].values()), d))
    return [Fused(d, scores[d], dict(ranks[d])) for d in ordered]
