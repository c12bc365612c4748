"""How the channels' lists become one ranking: the fusion policy and its stages.

``RankPolicy`` names every choice (fusion, query-adaptive weights, priors, the claim
stage), so the engine runs one policy and the benchmarks compare several on one
built index (``engine.policy = RankPolicy(...)``; ``bench/dense.py --variants``).

Kept because they won on the tuning sets (stdlib docstring eval, the two findings
manifests; README "Benchmarks"): min-max score fusion over RRF, the priors, the
claim stage. Tried and dropped: query-adaptive channel weights (the eval's queries
are sentences; reweighting sentences moved MRR@10 by -0.02..-0.01), z-score fusion
(below min-max), and a late-interaction second stage (MaxSim over the static
model's token vectors on the top 30: MRR@10 -0.004 and -0.014 over RRF, +0.015 over
min-max, inside the noise, and it needs the encoder's token table).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from caas_tui.models import Chunk
from caas_tui.retrieve.fusion import Fused, combsum, rrf
from caas_tui.retrieve.pinning import looks_like_identifier
from caas_tui.retrieve.priors import apply_priors

_WORDS = re.compile(r"\S+")


@dataclass(frozen=True, slots=True)
class RankPolicy:
    fusion: Literal["rrf", "minmax", "zscore"] = "minmax"
    # Query-adaptive weights: (bm25, dense) for identifier-like queries and for sentences;
    # None keeps the configured weights for both.
    ident_weights: tuple[float, float] | None = None
    sentence_weights: tuple[float, float] | None = None
    priors: bool = True  # retrieve/priors.py
    claims: bool = True  # sentence queries naming symbols: retrieve/claimquery.py


DEFAULT_POLICY = RankPolicy(fusion="minmax", priors=True, claims=True)


def is_identifier_query(query: str) -> bool:
    """A few tokens, at least one shaped like code (``snake_case``, ``Dotted.name``, ``camelCase``)."""
    words = _WORDS.findall(query)
    return len(words) <= 3 and any(looks_like_identifier(w.strip("`()")) for w in words)


def channel_weights(query: str, policy: RankPolicy, configured: Mapping[str, float]) -> dict[str, float]:
    chosen = policy.ident_weights if is_identifier_query(query) else policy.sentence_weights
    if chosen is None:
        return dict(configured)
    return {"bm25": chosen[0], "dense": chosen[1]}


def fuse(
    query: str,
    scored: Mapping[str, Sequence[tuple[str, float]]],
    policy: RankPolicy,
    *,
    configured: Mapping[str, float],
    rrf_k: float,
    chunk_of: Callable[[str], Chunk | None],
) -> list[Fused]:
    """One ranked list from the channels' ``(id, score)`` lists under ``policy``."""
    weights = channel_weights(query, policy, configured)
    if policy.fusion == "rrf":
        fused = rrf({c: [d for d, _ in pairs] for c, pairs in scored.items()}, k=rrf_k, weights=weights)
    else:
        fused = combsum(scored, weights=weights, norm=policy.fusion)
    if policy.priors:
        fused = apply_priors(query, fused, chunk_of)
    return fused
