"""What a lexical query asks for, independent of the engine that answers it.

Both lexical backends (Whoosh in ``lexical.py``, tantivy in ``lexical_tantivy.py``)
turn free text into the same weighted term and phrase clauses, through the same
code-aware analyzer, and then translate them into their own query objects; the
ranking rules live here once.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

from caas_tui.index.analysis import TOKEN_RE, CodeAnalyzer, split_identifier

TEXT_FIELDS = ("symbol", "content", "path")
SYMBOL_BOOST = 3.0  # field boost: a name match beats a mention in a body
EXACT_BOOST = 4.0  # extra weight for a whole identifier / dotted name in ``symbol``
PHRASE_BOOST = 2.0  # adjacent query words adjacent in ``symbol`` ("remove body")
MAX_TERMS = 48  # distinct query terms kept: a pasted page must not become 1000 clauses
MAX_BIGRAMS = 8
COMMON_DF = 0.2  # see plan_queries
PRUNE_MIN_DOCS = 2000  # below this every query is cheap anyway
PREFIX_MIN = 3  # shorter prefixes expand to thousands of terms (field notes)
PREFIX_TOP = 16  # most frequent expansions kept per field
TIME_LIMIT = 1.0  # seconds; a query that runs longer returns what it has so far

DocFreq = Callable[[str, str], int]  # (field, term) -> documents containing it
PrefixTerms = Callable[[str, str], list[str]]  # (field, prefix) -> up to PREFIX_TOP most frequent terms


@dataclass(frozen=True, slots=True)
class Clause:
    """One optional clause: ``terms`` is one term, or two for an adjacent-words phrase.
    ``boost`` is the query-side weight; the field boost is the backend's to apply."""

    field: str
    terms: tuple[str, ...]
    boost: float = 1.0


def plan_queries(
    analyzer: CodeAnalyzer,
    text: str,
    doc_freq: DocFreq,
    n_docs: int,
    prefix_terms: PrefixTerms | None = None,
) -> list[list[Clause]]:
    """OR-queries over symbol/content/path from free text, to try in order; [] if none.

    Only ``TOKEN_RE`` words are read, so query-syntax characters never matter.
    Clauses for terms absent from a field are left out. On a large index a first,
    cheaper query also leaves out ``content`` terms found in over ``COMMON_DF`` of
    all documents: every posting of every clause is scored, and those near-zero-IDF
    terms were most of the cost of prose queries. The full query follows it, for the
    caller to run when the first one comes up short. With ``prefix_terms`` (the last
    word is still being typed), that word is also expanded as a prefix.
    """
    raws = TOKEN_RE.findall(text)
    parts: dict[str, None] = {}  # ordered sets
    wholes: dict[str, None] = {}
    sequence: list[str] = []  # word parts in query order, for adjacency bonuses
    for raw in raws:
        terms, _width = analyzer.expand(raw)
        for term, _offset, is_whole in terms:
            (wholes if is_whole else parts).setdefault(term, None)
            if not is_whole:
                sequence.append(term)
        if len(parts) + len(wholes) >= MAX_TERMS:
            break
    weighted = [(term, 1.0) for term in itertools.islice(parts, MAX_TERMS)]
    weighted += [(term, 1.0 + EXACT_BOOST) for term in itertools.islice(wholes, MAX_TERMS)]
    common = int(COMMON_DF * n_docs) if n_docs >= PRUNE_MIN_DOCS else n_docs
    clauses: list[Clause] = []
    frequent: list[Clause] = []
    for term, symbol_boost in weighted:
        for field in TEXT_FIELDS:
            df = doc_freq(field, term)
            if df:
                clause = Clause(field, (term,), symbol_boost if field == "symbol" else 1.0)
                (frequent if field == "content" and df > common else clauses).append(clause)
    # "remove body" names ``remove_body`` / ``RemoveBody``: reward that exact name.
    simple = [r.lower() for r in raws]
    if 2 <= len(simple) <= 4 and all(len(split_identifier(r)) == 1 for r in simple):
        for joined in ("_".join(simple), "".join(simple)):
            if doc_freq("symbol", joined):
                clauses.append(Clause("symbol", (joined,), EXACT_BOOST))
    bigrams = dict.fromkeys(itertools.pairwise(sequence))
    for a, b in itertools.islice(bigrams, MAX_BIGRAMS):
        if a != b and doc_freq("symbol", a) and doc_freq("symbol", b):
            clauses.append(Clause("symbol", (a, b), PHRASE_BOOST))
    if prefix_terms is not None and raws:
        clauses.extend(prefix_clauses(raws[-1], prefix_terms))
    plans = [clauses, clauses + frequent] if clauses and frequent else [clauses + frequent]
    return [p for p in plans if p]


def prefix_clauses(raw: str, prefix_terms: PrefixTerms) -> list[Clause]:
    """The most frequent terms starting with the word being typed, per field."""
    prefixes = {raw.lower(), *split_identifier(raw)[-1:]}  # "removeBo" -> also "bo..." parts
    return [
        Clause(field, (term,))
        for prefix in sorted(p for p in prefixes if len(p) >= PREFIX_MIN)
        for field in TEXT_FIELDS
        for term in prefix_terms(field, prefix)
    ]
