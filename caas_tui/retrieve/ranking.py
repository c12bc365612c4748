"""How the channels' lists become one ranking: the fusion policy and its stages.

``RankPolicy`` names every choice (fusion, query-adaptive weights, priors, the claim
stage), so the engine runs one policy and the benchmarks compare several on one
built index (``engine.policy = RankPolicy(...)``; ``bench/dense.py --variants``).

Kept because they won on the tuning sets (stdlib docstring eval, the same eval with
the stdlib's own tests indexed, the two findings manifests; README "Benchmarks"):
min-max score fusion over RRF, the priors (tests 0.5 and after their subject,
module preambles 0.6), the claim stage, and (fourth pass) the token stage: the top 50
re-scored by norm-weighted late interaction over the static model's token vectors plus
name cover (``retrieve/tokenstage.py``; stdlib 0.360 -> 0.411, held out networkx 0.640 ->
0.703; identifier-like queries skip it). Tried and dropped: query-adaptive channel
weights (the eval's queries are sentences; reweighting sentences moved MRR@10 by
-0.02..+0.006), z-score fusion (below min-max), min-max plus RRF (+-0.003), scoring
the lexical finds the dense list missed by their own cosine (-0.02), dense
pseudo-relevance feedback (the query vector moved toward the top 1-5 fused chunks:
-0.006..-0.014), and a late-interaction second stage (MaxSim over the static model's
token vectors on the top 30: +0.007 over the default, inside the noise, and it needs
the encoder's token table). Re-tried after the dense channel got stronger (third pass,
README): channel weights 0.8-1 / 1-1.6, identifier-query weights, raw or top-scaled
cosine, min-max floors, a both-channels bonus, confidence-scaled weights, a symbol-name
bonus, file and class context, late interaction again: all within -0.03..+0.008. Fourth pass:
dense query construction (stop words dropped, distinct tokens pooled by norm^p: -0.008..+0.007);
late interaction or name cover alone is much weaker than the two together (README).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from caas_tui.models import Chunk, Kind
from caas_tui.retrieve.fusion import Fused, combsum, rrf
from caas_tui.retrieve.pinning import looks_like_identifier
from caas_tui.retrieve.priors import MODULE_FACTOR, TEST_FACTOR, apply_priors
from caas_tui.retrieve.tokenstage import CHARS as TOKEN_CHARS
from caas_tui.retrieve.tokenstage import DEPTH as TOKEN_DEPTH
from caas_tui.retrieve.tokenstage import MAXSIM_WEIGHT, NAME_WEIGHT, TokenCache, gives_token_vectors, token_rescore

_WORDS = re.compile(r"\S+")


@dataclass(frozen=True, slots=True)
class RankPolicy:
    """How the channels are fused and which ranking stages run after fusion."""

    fusion: Literal["rrf", "minmax", "zscore"] = "minmax"
    # Query-adaptive weights: (bm25, dense) for identifier-like queries and for sentences;
    # None keeps the configured weights for both.
    ident_weights: tuple[float, float] | None = None
    sentence_weights: tuple[float, float] | None = None
    priors: bool = True  # retrieve/priors.py
    claims: bool = True  # sentence queries naming symbols: retrieve/claimquery.py
    test_factor: float = TEST_FACTOR  # priors: the multiplier of a test's fused score
    module_factor: float = MODULE_FACTOR  # priors: the multiplier of a module preamble (no signature)
    tests_after_subjects: bool = True  # priors: a test ranks after the candidate definition it calls
    test_subjects: bool = True  # priors: a top test's subject the channels missed goes before it
    kinds_ask_for_tests: bool = True  # priors: a request whose kinds name ``test`` keeps tests at full weight
    claim_callees: int = 1  # claim stage: candidates a pinned definition calls, moved after the pins
    claim_constructors: bool = True  # claim stage: a called class brings its ``__init__``
    claim_calls: bool = True  # claim stage: keyword calls first, shown objects' repr, the test making the same call
    claim_defaults: bool = True  # claim stage: a claim stating a default gets its candidate's constructor
    # second stage (retrieve/tokenstage.py): the top ``token_depth`` re-scored by late interaction over
    # the static model's token vectors and by how much of each name the query's words spell
    token_stage: bool = False
    token_depth: int = TOKEN_DEPTH
    token_chars: int = TOKEN_CHARS
    token_maxsim: float = MAXSIM_WEIGHT
    token_names: float = NAME_WEIGHT


DEFAULT_POLICY = RankPolicy(fusion="minmax", priors=True, claims=True, token_stage=True)


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
    kinds: Sequence[Kind] | None = None,
    find: Callable[[str], Sequence[Chunk]] | None = None,
    tokens: object | None = None,
    text_of: Callable[[Chunk], str] | None = None,
    token_cache: TokenCache | None = None,
) -> list[Fused]:
    """One ranked list from the channels' ``(id, score)`` lists under ``policy``; ``kinds``: the
    request's kinds (None: all), which tell the priors whether tests were asked for; ``find``: code
    definitions by exact name (a top test's subject, ``RankPolicy.test_subjects``); ``tokens``: the
    encoder, used by the token stage when it gives token vectors; ``text_of``: a chunk's embedded text;
    ``token_cache``: the candidates' token ids kept between searches."""
    weights = channel_weights(query, policy, configured)
    if policy.fusion == "rrf":
        fused = rrf({c: [d for d, _ in pairs] for c, pairs in scored.items()}, k=rrf_k, weights=weights)
    else:
        fused = combsum(scored, weights=weights, norm=policy.fusion)
    # an identifier-like query is answered by the names it spells (exact pins, the symbol field):
    # token matching would tax every keystroke's search for one
    if (policy.token_stage and text_of is not None and not is_identifier_query(query)
            and gives_token_vectors(tokens)):
        fused = token_rescore(query, fused, chunk_of, tokens, text_of, cache=token_cache or TokenCache(),
                              depth=policy.token_depth, chars=policy.token_chars,
                              maxsim_weight=policy.token_maxsim, name_weight=policy.token_names)
    if policy.priors:
        # Tests are near misses for a query that describes behaviour; one that names code
        # (``remove_body``) or asks for tests by kind wants them ranked like anything else.
        asks = is_identifier_query(query) or (policy.kinds_ask_for_tests and kinds is not None and "test" in kinds)
        fused = apply_priors(query, fused, chunk_of, asks_for_tests=asks, subjects=policy.tests_after_subjects,
                             test_factor=policy.test_factor, module_factor=policy.module_factor,
                             find=find if policy.test_subjects else None)
    return fused
