"""Issue 20 (warm hybrid p95): the ranking stages' faster forms give exactly what their plain
forms gave. Each test holds the plain form (the code before the change) as the reference and
compares on random inputs built to hit the corner cases (repeated and overlapping words, ties)."""

from __future__ import annotations

import random

from caas_tui.models import Chunk, Kind
from caas_tui.retrieve.fusion import Fused, combsum
from caas_tui.retrieve.priors import apply_priors, prior_factor
from caas_tui.retrieve.tokenstage import TokenVectors, gives_token_vectors, name_cover


def _reference_cover(name: str, vocabulary: frozenset[str]) -> float:
    """The character-by-character best cover the token stage used before."""
    text = name.lower()
    by_first: dict[str, list[str]] = {}
    for word in vocabulary:
        if word in text:
            by_first.setdefault(word[0], []).append(word)
    alnum = sum(ch.isalnum() for ch in text)
    if not alnum or not by_first:
        return 0.0
    best = [0] * (len(text) + 1)
    for i in range(len(text) - 1, -1, -1):
        b = best[i + 1]
        for word in by_first.get(text[i], ()):
            if text.startswith(word, i):
                b = max(b, len(word) + best[i + len(word)])
        best[i] = b
    return best[0] / alnum


def test_name_cover_equals_the_per_character_cover_on_random_names() -> None:
    rng = random.Random(20)
    letters = "abcab_1"  # few letters: words overlap, repeat and share prefixes
    for _ in range(20_000):
        name = "".join(rng.choice(letters + "ABC") for _ in range(rng.randint(0, 14)))
        vocabulary = frozenset("".join(rng.choice("abc1") for _ in range(rng.randint(1, 4)))
                               for _ in range(rng.randint(0, 5)))
        assert name_cover(name, vocabulary) == _reference_cover(name, vocabulary), (name, vocabulary)


def test_name_cover_of_one_repeated_word_counts_its_separate_copies() -> None:
    assert name_cover("aaaa", frozenset({"aa"})) == 1.0  # two copies side by side
    assert name_cover("aaa", frozenset({"aa"})) == 2 / 3  # overlapping copies count once
    assert name_cover("get_get", frozenset({"get"})) == 1.0


def _reference_combsum(scored: dict[str, list[tuple[str, float]]], weights: dict[str, float] | None,
                       norm: str) -> list[Fused]:
    """combsum as it was: mean and deviation computed for both norms, ranks copied per item."""
    scores: dict[str, float] = {}
    ranks: dict[str, dict[str, int]] = {}
    for channel, pairs in scored.items():
        weight = 1.0 if weights is None else float(weights.get(channel, 1.0))
        best: dict[str, float] = {}
        order: list[str] = []
        for doc_id, s in pairs:
            if doc_id not in best:
                best[doc_id] = float(s)
                order.append(doc_id)
        if not order:
            continue
        values = [best[d] for d in order]
        lo, hi = min(values), max(values)
        mean = sum(values) / len(values)
        sd = (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5
        for position, doc_id in enumerate(order, 1):
            v = best[doc_id]
            zscore = (v - mean) / sd if sd > 0 else 0.0
            x = zscore if norm == "zscore" else ((v - lo) / (hi - lo) if hi > lo else 1.0)
            scores[doc_id] = scores.get(doc_id, 0.0) + weight * x
            ranks.setdefault(doc_id, {})[channel] = position
    ordered = sorted(scores, key=lambda d: (-scores[d], min(ranks[d].values()), d))
    return [Fused(d, scores[d], dict(ranks[d])) for d in ordered]


def test_combsum_equals_its_plain_form_on_random_lists_with_ties_and_repeats() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        scored = {channel: [(f"c{rng.randint(0, 12)}", float(rng.choice([0.5, 1.0, 2.0, rng.random()])))
                            for _ in range(rng.randint(0, 10))] for channel in ("bm25", "dense")}
        weights = rng.choice([None, {"bm25": 1.0, "dense": 1.3}])
        for norm in ("minmax", "zscore"):
            assert combsum(scored, weights=weights, norm=norm) == _reference_combsum(scored, weights, norm)


def _chunk(cid: str, path: str, kind: Kind = "code", signature: str | None = "def f():") -> Chunk:
    return Chunk(id=cid, kind=kind, path=path, start_line=1, end_line=2, symbol=f"m.{cid}", text=f"{cid}()\n",
                 mtime=0.0, sha256=cid, language="python", signature=signature)


def test_priors_keep_equal_scores_in_their_fused_order() -> None:
    # a test at 1.0 halves to 0.5 and a preamble at 0.5 falls to 0.3: each tie keeps the fused order
    chunks = {c.id: c for c in (_chunk("t", "tests/test_a.py", "test"), _chunk("a", "pkg/a.py"),
                                _chunk("m", "pkg/m.py", signature=None), _chunk("e", "examples/e.py"),
                                _chunk("b", "pkg/b.py"))}
    fused = [Fused("t", 1.0, {}), Fused("a", 0.5, {}), Fused("m", 0.5, {}), Fused("e", 0.5, {}), Fused("b", 0.3, {})]
    out = apply_priors("parse the header", fused, chunks.get, subjects=False)
    assert [(f.id, f.score) for f in out] == [("t", 0.5), ("a", 0.5), ("e", 0.4), ("m", 0.3), ("b", 0.3)]
    assert prior_factor(chunks["e"], wants_tests=False, wants_examples=True) == 1.0
    assert prior_factor(chunks["t"], wants_tests=True, wants_examples=False) == 1.0


class _Both:
    def token_ids(self, texts: object) -> None:
        return None

    def token_rows(self, ids: object) -> None:
        return None


class _IdsOnly:
    def token_ids(self, texts: object) -> None:
        return None


class _RowsNone(_Both):
    token_rows = None  # type: ignore[assignment]


class _Plain:
    token_ids = 3
    token_rows = "rows"


def test_gives_token_vectors_decides_as_the_protocol_check_does() -> None:
    for obj in (_Both(), _IdsOnly(), _RowsNone(), _Plain(), None, object(), "text"):
        assert gives_token_vectors(obj) == isinstance(obj, TokenVectors), type(obj).__name__
