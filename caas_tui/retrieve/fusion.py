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
    """One chunk id after fusion: its fused score and its rank in each channel."""

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


def combsum(
    scored: Mapping[str, Sequence[tuple[str, float]]],
    *,
    weights: Mapping[str, float] | None = None,
    norm: str = "minmax",
) -> list[Fused]:
    """Score-aware fusion: each channel's scores normalised over its own list, then summed.

    ``norm`` is ``minmax`` (best 1, worst 0) or ``zscore``. A document a channel did
    not return adds nothing for that channel. Same tie-breaks as :func:`rrf`.
    """
    scores: dict[str, float] = {}
    ranks: dict[str, dict[str, int]] = {}
    for channel, pairs in scored.items():
        weight = 1.0 if weights is None else float(weights.get(channel, 1.0))
        best: dict[str, float] = {}  # each id's first (best-ranked) score, in rank order
        for doc_id, s in pairs:
            if doc_id not in best:
                best[doc_id] = float(s)
        if not best:
            continue
        values = list(best.values())
        lo, hi = min(values), max(values)
        if norm == "zscore":
            mean = sum(values) / len(values)
            sd = (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5
            normed = [(v - mean) / sd if sd > 0 else 0.0 for v in values]
        else:
            normed = [(v - lo) / (hi - lo) for v in values] if hi > lo else [1.0] * len(values)
        for position, (doc_id, x) in enumerate(zip(best, normed, strict=True), 1):
            scores[doc_id] = scores.get(doc_id, 0.0) + weight * x
            ranks.setdefault(doc_id, {})[channel] = position
    ordered = sorted(scores, key=lambda d: (-scores[d], min(ranks[d].values()), d))
    # each ``ranks`` entry is this call's own dict: handed over, not copied
    return [Fused(d, scores[d], ranks[d]) for d in ordered]
