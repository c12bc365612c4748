"""Kind and path priors: definitions before tests, examples and module preambles.

A query that describes behaviour is answered by the definition that implements it;
a test that exercises the same words, an example script that calls it, or a module
preamble that imports or re-exports it are near misses. A query that asks for tests
("test", "tests", "fixture", ...), a request whose kinds name ``test`` (a claim's
evidence search) and a query that names code rather than describing behaviour
(``remove_body``; ``ranking.is_identifier_query``) keep tests at full weight, and one
that asks for examples keeps examples. Two rules:

- factors that multiply the fused score: tests 0.5, examples 0.8, module-level chunks
  (preambles: imports, constants, ``__all__``; module docstrings) 0.6. They reorder,
  never remove: a test or a module that both channels rank far above everything
  else still shows first;
- a test ranks after its subject: a test that calls a definition which is also a
  candidate, ranked below it, moves to just after that definition. A test shares its
  subject's words (it calls it, and is often named after it), so it outranks it on
  both channels; behind its subject it still shows, and a test whose subject was not
  found keeps its place (it is then the best way to the subject).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache

from caas_tui.models import Chunk
from caas_tui.retrieve.fusion import Fused

TEST_FACTOR = 0.5
EXAMPLE_FACTOR = 0.8
MODULE_FACTOR = 0.6
_EXAMPLE_DIRS = frozenset({"examples", "example", "docs_src", "demo", "demos", "samples", "sample"})
_TEST_DIRS = frozenset({"test", "tests", "testing", "_tests"})
_WANTS_TESTS = re.compile(r"\b(tests?|tested|testing|fixtures?|pytest|unittest|asserts?)\b", re.IGNORECASE)
# "test" as a modifier of data ("the test set", "test samples", "a test statistic") describes
# behaviour, not a wish for tests: left out before looking for one.
_TEST_DATA = re.compile(r"\btest[ _-](?:sets?|data(?:sets?)?|samples?|splits?|size|scores?|folds?|ind(?:ices|ex)|"
                        r"points?|errors?|instances?|inputs?|features?|targets?|labels?|matri(?:x|ces)|arrays?|"
                        r"statistics?|values?|vectors?)\b", re.IGNORECASE)
_WANTS_EXAMPLES = re.compile(r"\b(examples?|demos?|samples?|usage)\b", re.IGNORECASE)
_CALLED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")


def is_test_chunk(chunk: Chunk) -> bool:
    """A test by kind or by where it lives (``tests/``, ``test_*.py``, ``*_test.py``, ``conftest.py``)."""
    return chunk.kind == "test" or _is_test_path(chunk.path)


# By path, cached: every search asks for each of its ~100 candidates, and their files recur.
@lru_cache(maxsize=16_384)
def _is_test_path(path: str) -> bool:
    parts = path.split("/")
    name = parts[-1]
    return (any(p in _TEST_DIRS for p in parts[:-1]) or name.startswith("test_") or name == "conftest.py"
            or name.rsplit(".", 1)[0].endswith("_test"))


def wants_tests(query: str) -> bool:
    """The query asks for tests by a word ("tests", "fixture", "pytest", ...; "test" of data, as
    in "the test set", does not count)."""
    return bool(_WANTS_TESTS.search(_TEST_DATA.sub(" ", query)))


@lru_cache(maxsize=16_384)
def _is_example_path(path: str) -> bool:
    return any(p in _EXAMPLE_DIRS for p in path.split("/")[:-1])


def prior_factor(chunk: Chunk, *, wants_tests: bool, wants_examples: bool, test_factor: float = TEST_FACTOR,
                 module_factor: float = MODULE_FACTOR) -> float:
    """The multiplier for ``chunk``'s fused score."""
    factors = _group_factors(wants_tests, wants_examples, test_factor, module_factor)
    return factors[_prior_group(chunk.kind, chunk.path, bool(chunk.signature))]


def _group_factors(wants_tests: bool, wants_examples: bool, test_factor: float, module_factor: float,
                   ) -> dict[str, float]:
    """The multiplier of each :func:`_prior_group`."""
    return {"test": 1.0 if wants_tests else test_factor, "example": 1.0 if wants_examples else EXAMPLE_FACTOR,
            "module": module_factor, "plain": 1.0}


# One cached call per candidate instead of three tests: a search asks for each of its ~100.
@lru_cache(maxsize=16_384)
def _prior_group(kind: str, path: str, signed: bool) -> str:
    if kind == "test" or _is_test_path(path):
        return "test"
    if _is_example_path(path):
        return "example"
    # A module's preamble (imports, constants, ``__all__``) or its docstring: no signature. A
    # function defined in ``__init__.py`` is a definition like any other (the stdlib has many).
    return "module" if kind in ("code", "api") and not signed else "plain"


@lru_cache(maxsize=4096)  # candidates recur across the queries of a session
def called_names(text: str) -> frozenset[str]:
    """The bare names ``text`` calls (``foo(``, ``obj.foo(``, ``Foo(``)."""
    return frozenset(_CALLED.findall(text))


def tests_after_subjects(fused: list[Fused], chunk_of: Callable[[str], Chunk | None]) -> list[Fused]:
    """``fused`` with each test that calls a lower-ranked candidate definition moved to just after
    the best-ranked such definition (its likeliest subject); everything else keeps its order."""
    first_def: dict[str, int] = {}  # short name -> position of the first non-test definition so named
    chunks = [chunk_of(f.id) for f in fused]
    if not any(c is not None and is_test_chunk(c) for c in chunks):
        return fused
    for i, chunk in enumerate(chunks):
        if chunk is not None and chunk.kind == "code" and chunk.signature and chunk.symbol and not is_test_chunk(chunk):
            first_def.setdefault(chunk.symbol.rsplit(".", 1)[-1], i)
    if not first_def:
        return fused
    keys: list[float] = []
    for i, chunk in enumerate(chunks):
        key = float(i)
        if chunk is not None and is_test_chunk(chunk):
            below = [j for name in called_names(chunk.text) if (j := first_def.get(name, -1)) > i]
            if below:
                key = min(below) + 0.5
        keys.append(key)
    order = sorted(range(len(fused)), key=lambda i: (keys[i], i))
    out: list[Fused] = []
    for i in order:
        item = fused[i]
        if keys[i] != i and out:  # moved down: keep the scores non-increasing
            item = Fused(item.id, min(item.score, out[-1].score), item.ranks)
        out.append(item)
    return out


SUBJECT_WINDOW = 3  # tests in the top this many bring a subject the channels missed
MIN_SUBJECT_CHARS = 4  # shorter called names (``fit``, ``get``) name too many things
MAX_SUBJECT_DEFS = 2  # a name defined more often than this is ambiguous: no subject


def _squash(name: str) -> str:
    return name.replace("_", "").lower()


def subject_of_test(chunk: Chunk, find: Callable[[str], Sequence[Chunk]]) -> Chunk | None:
    """The definition a test is about: the longest name it calls that its own name (or its class's)
    spells (``test_kmeans_fit_predict`` -> ``KMeans`` or ``fit_predict``), defined once or twice
    outside tests; None when no called name qualifies."""
    cls = chunk.parent.rsplit(".", 1)[-1] if chunk.parent else ""
    own = _squash(f"{cls}.{(chunk.symbol or '').rsplit('.', 1)[-1]}").replace("test", " ")
    names = sorted((n for n in called_names(chunk.text) if len(n) >= MIN_SUBJECT_CHARS and _squash(n) in own),
                   key=lambda n: (-len(n), n))
    for name in names:
        found = [c for c in find(name) if c.kind == "code" and c.signature and not is_test_chunk(c)]
        if 1 <= len(found) <= MAX_SUBJECT_DEFS:
            return found[0]
    return None


def subjects_before_tests(fused: list[Fused], chunk_of: Callable[[str], Chunk | None],
                          find: Callable[[str], Sequence[Chunk]], window: int = SUBJECT_WINDOW) -> list[Fused]:
    """``fused`` with each test in the top ``window`` preceded by its subject (:func:`subject_of_test`)
    when that ranks below it or was not found; the subject takes the test's score."""
    out = list(fused)
    i = 0
    while i < min(window, len(out)):
        chunk = chunk_of(out[i].id)
        subject = subject_of_test(chunk, find) if chunk is not None and is_test_chunk(chunk) else None
        if subject is None:
            i += 1
            continue
        at = next((j for j, f in enumerate(out) if f.id == subject.id), None)
        if at is None or at > i:
            moved = out.pop(at) if at is not None else Fused(subject.id, out[i].score, {})
            out.insert(i, Fused(moved.id, out[i].score, moved.ranks))
            i += 1  # past the subject, onto the test
        i += 1
    return out


def apply_priors(
    query: str,
    fused: list[Fused],
    chunk_of: Callable[[str], Chunk | None],
    *,
    asks_for_tests: bool = False,
    subjects: bool = True,
    test_factor: float = TEST_FACTOR,
    module_factor: float = MODULE_FACTOR,
    find: Callable[[str], Sequence[Chunk]] | None = None,
) -> list[Fused]:
    """``fused`` with each score multiplied by its prior, re-sorted (stable for equal scores), then
    (``subjects``) tests after their subjects, and (``find``: code definitions by name) a top test's
    subject the channels missed before it. ``asks_for_tests``: the request asked for tests by
    kind, so they are ranked like any other chunk."""
    tests_wanted = asks_for_tests or wants_tests(query)
    wants_examples = bool(_WANTS_EXAMPLES.search(query))
    looked = {item.id: chunk_of(item.id) for item in fused}  # one read per candidate
    factors = _group_factors(tests_wanted, wants_examples, test_factor, module_factor)  # prior_factor's, once
    out: list[Fused] = []
    any_test = False
    for item in fused:
        chunk = looked[item.id]
        if chunk is None:
            out.append(item)
            continue
        group = _prior_group(chunk.kind, chunk.path, bool(chunk.signature))
        any_test = any_test or group == "test"
        factor = factors[group]
        out.append(item if factor == 1.0 else Fused(item.id, item.score * factor, item.ranks))
    # stable for equal scores: fusion's ids are distinct, so an item's position is its id's
    out = [out[i] for i in sorted(range(len(out)), key=lambda i: (-out[i].score, i))]
    # both moves start from a test among the candidates: without one they leave the list as it is
    if subjects and not tests_wanted and any_test:
        out = tests_after_subjects(out, looked.get)
        if find is not None:
            out = subjects_before_tests(out, lambda cid: looked[cid] if cid in looked else chunk_of(cid), find)
    return out
