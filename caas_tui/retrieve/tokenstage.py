"""A cheap second stage over the top fused candidates: token-level matching, no transformer.

Both channels see a candidate as a whole: BM25 as a bag of stemmed terms, the dense
channel as one mean vector. Two finer signals re-score the top ``depth`` candidates:

- late interaction over the static model's token vectors: each query token's best cosine
  against the tokens of the candidate's first ``chars`` characters of embedded text (its
  header, signature and first lines: the rest of a body mostly diluted it), averaged with the query tokens' own vector norms as
  weights (the static model's rows are longer for words that carry meaning, shorter for
  "the" and "of"), so a chunk that has a close match for every content word wins over one
  that is merely near the query's average;
- name cover: the share of the candidate's short name spelled by query words or their
  stems (``emptyline`` by "an empty line", ``getacl`` by "Get the ACLs"). BM25 cannot see
  into a compound name the identifier split leaves whole.

Each signal is min-max scaled over the candidates and added, weighted, to the candidate's
fused score divided by the best fused score; candidates past ``depth`` keep that scaled
score, which is below every re-scored one, so the stage only reorders the top.
Tuned on the stdlib docstring eval, hybrid MRR@10 0.360 -> 0.411; untouched networkx 0.640 ->
0.703, scikit-learn 0.356 -> 0.404, date-fns 0.778 -> 0.824 (README "Benchmarks";
``RankPolicy.token_stage``). Either signal alone gains far less.
"""

from __future__ import annotations

import re
import threading
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol, TypeGuard, runtime_checkable

import numpy as np
from whoosh.lang.porter import stem as porter_stem

from caas_tui.index.tokenids import CHARS
from caas_tui.models import Chunk
from caas_tui.retrieve.fusion import Fused

DEPTH = 50  # candidates re-scored
MAXSIM_WEIGHT = 1.5
NAME_WEIGHT = 0.6
_WORD = re.compile(r"[A-Za-z]+")


@runtime_checkable
class TokenVectors(Protocol):
    """An encoder that can give a text's tokens (a static model: rows of its table)."""

    def token_ids(self, texts: Sequence[str]) -> list[np.ndarray] | None:
        """Per text, the distinct ids of the tokens it embeds; None when the model cannot say."""
        ...

    def token_rows(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The rows for ``ids`` as unit vectors (ids x dims, float32) and their raw norms."""
        ...


def gives_token_vectors(obj: object) -> TypeGuard[TokenVectors]:
    """``isinstance(obj, TokenVectors)``, as the runtime protocol check decides it (each member present
    and not None), without its machinery: that took ~40-90 us, once per search."""
    return getattr(obj, "token_ids", None) is not None and getattr(obj, "token_rows", None) is not None


class TokenCache:
    """Candidates' token ids by chunk id and text hash: a long-lived engine tokenizes a chunk once.

    ``stored``: the ids the index keeps per chunk (``ChunkMap.token_ids``, made at build time by
    ``index/tokenids.py`` from the chunk's embedded text): for the default ``chars`` they are read
    instead of tokenized, so a one-shot search loads no tokenizer for its candidates.
    """

    def __init__(self, size: int = 20_000, stored: Callable[[Sequence[str]], Mapping[str, np.ndarray]] | None = None,
                 ) -> None:
        self._ids: OrderedDict[tuple[str, str, int], np.ndarray] = OrderedDict()
        self._size = size
        self._stored = stored
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._ids)

    def __bool__(self) -> bool:
        # an empty cache is still the caller's cache: ``cache or TokenCache()`` (ranking.fuse) must
        # keep it, or a long-lived engine would tokenize its candidates on every search
        return True

    def ids_of(self, chunks: Sequence[Chunk], tokens: TokenVectors, text_of: Callable[[Chunk], str], chars: int,
               ) -> list[np.ndarray] | None:
        """The token ids of each chunk's first ``chars`` characters of ``text_of`` (stored ones are of
        ``embed_text``: pass that); None when ``tokens`` cannot say."""
        keys = [(c.id, c.sha256, chars) for c in chunks]
        with self._lock:
            found = [self._ids.get(key) for key in keys]
            missing = [i for i, ids in enumerate(found) if ids is None]
            if missing and self._stored is not None and chars == CHARS:
                kept = self._stored([chunks[i].id for i in missing])
                for i in missing:
                    ids = kept.get(chunks[i].id)
                    if ids is not None:
                        found[i] = self._ids[keys[i]] = ids
                missing = [i for i in missing if found[i] is None]
            if missing:
                made = tokens.token_ids([text_of(chunks[i])[:chars] for i in missing])
                if made is None:
                    return None
                for i, ids in zip(missing, made, strict=True):
                    found[i] = self._ids[keys[i]] = ids
            for key in keys:
                self._ids.move_to_end(key)
            while len(self._ids) > self._size:
                self._ids.popitem(last=False)
            return found  # type: ignore[return-value]


def query_vocabulary(query: str) -> frozenset[str]:
    """Lower-cased query words of two letters or more, and their Porter stems of three or more."""
    words = {w.lower() for w in _WORD.findall(query)}
    stems = {porter_stem(w) for w in words}
    return frozenset({w for w in words if len(w) >= 2} | {s for s in stems if len(s) >= 3})


def name_cover(name: str, vocabulary: frozenset[str]) -> float:
    """The share of ``name``'s letters and digits covered by non-overlapping vocabulary words
    read left to right (the best such cover; separators count as uncovered)."""
    text = name.lower()
    # most candidates' names hold none of the query's words, most of the rest one
    found = [word for word in vocabulary if word in text]
    if not found:
        return 0.0
    letters = text.replace("_", "")  # most names are words and underscores: counted without a loop
    alnum = len(letters) if letters.isalnum() else sum(ch.isalnum() for ch in text)
    if not alnum:
        return 0.0
    if len(found) == 1:  # one word: its most non-overlapping copies, which str.count finds left to right
        return len(found[0]) * text.count(found[0]) / alnum
    # the best cover over the words' occurrences only (not every character): best[j] covers text[starts[j]:]
    spans: list[tuple[int, int]] = []
    for word in found:
        at = text.find(word)
        while at >= 0:
            spans.append((at, len(word)))
            at = text.find(word, at + 1)
    spans.sort()
    starts = [start for start, _ in spans]
    best = [0] * (len(spans) + 1)
    for j in range(len(spans) - 1, -1, -1):
        start, size = spans[j]
        best[j] = max(best[j + 1], size + best[bisect_left(starts, start + size, j + 1)])
    return best[0] / alnum


def _scaled(values: Sequence[float]) -> np.ndarray:
    x = np.asarray(values, dtype=np.float64)
    lo, hi = float(x.min()), float(x.max())
    return (x - lo) / (hi - lo) if hi > lo else np.zeros_like(x)


def token_rescore(
    query: str,
    fused: list[Fused],
    chunk_of: Callable[[str], Chunk | None],
    tokens: TokenVectors,
    text_of: Callable[[Chunk], str],
    *,
    cache: TokenCache,
    depth: int = DEPTH,
    chars: int = CHARS,
    maxsim_weight: float = MAXSIM_WEIGHT,
    name_weight: float = NAME_WEIGHT,
) -> list[Fused]:
    """``fused`` (best first) with its top ``depth`` re-scored as the module docstring says."""
    if not fused or depth < 2:
        return fused
    top = max(f.score for f in fused)
    if top <= 0:
        return fused
    head = fused[:depth]
    looked = [chunk_of(f.id) for f in head]
    known = [i for i, c in enumerate(looked) if c is not None]
    chunks = [c for c in looked if c is not None]
    query_ids = tokens.token_ids([query])
    doc_ids = cache.ids_of(chunks, tokens, text_of, chars) if query_ids is not None else None
    if len(known) < 2 or query_ids is None or doc_ids is None or not len(query_ids[0]):
        return fused
    # one matrix for the query against every distinct token of the candidates, then each
    # candidate's best cosine per query token is a column pick from it
    union, inverse = np.unique(np.concatenate([query_ids[0], *doc_ids]), return_inverse=True)
    units, norms = tokens.token_rows(union)
    q = inverse[: len(query_ids[0])]
    weights = norms[q]
    sims = units[q] @ units.T  # query tokens x distinct tokens
    offsets = np.cumsum([len(query_ids[0])] + [len(ids) for ids in doc_ids])
    total = float(weights.sum())
    # each candidate's best cosine per query token: one gather and one segmented max for all of them
    lengths = np.diff(offsets)
    filled = np.flatnonzero(lengths)
    best = np.zeros((len(doc_ids), len(q)))
    if len(filled):
        segment_max = np.maximum.reduceat(sims[:, inverse[offsets[0]:]], offsets[filled] - offsets[0], axis=1)
        best[filled] = segment_max.T
    # row by row the same sums as one reduction over the rows (float64, each row's own order)
    sums = (best * weights).sum(axis=1) / total if total > 0 else np.zeros(len(doc_ids))
    maxsims = np.where(lengths > 0, sums, 0.0).tolist()
    vocabulary = query_vocabulary(query)
    names = [name_cover(c.short_symbol or "", vocabulary) for c in chunks]
    bonus = [0.0] * len(head)
    for i, extra in zip(known, (maxsim_weight * _scaled(maxsims) + name_weight * _scaled(names)).tolist(), strict=True):
        bonus[i] = extra
    scores = [f.score / top + extra for f, extra in zip(head, bonus, strict=True)]
    scores += [f.score / top for f in fused[depth:]]
    # best first, ties in their fused order (fusion's ids are distinct, so the position is the id's)
    order = sorted(range(len(fused)), key=lambda i: (-scores[i], i))
    return [Fused(fused[i].id, scores[i], fused[i].ranks) for i in order]
