"""Kind and path priors: definitions before tests, examples and package re-exports.

A query that describes behaviour is answered by the definition that implements it;
a test that exercises the same words, an example script that calls it, or a package
``__init__`` that re-exports it are near misses. A query that asks for tests
("test", "tests", "fixture", ...) keeps tests at full weight, and one that asks
for examples keeps examples. The factors multiply the fused score, so they reorder
close calls and never hide a hit.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from caas_tui.models import Chunk
from caas_tui.retrieve.fusion import Fused

TEST_FACTOR = 0.8
EXAMPLE_FACTOR = 0.8
INIT_FACTOR = 0.8
_EXAMPLE_DIRS = frozenset({"examples", "example", "docs_src", "demo", "demos", "samples", "sample"})
_TEST_DIRS = frozenset({"test", "tests", "testing", "_tests"})
_WANTS_TESTS = re.compile(r"\b(tests?|tested|testing|fixtures?|pytest|unittest|asserts?)\b", re.IGNORECASE)
_WANTS_EXAMPLES = re.compile(r"\b(examples?|demos?|samples?|usage)\b", re.IGNORECASE)


def is_test_chunk(chunk: Chunk) -> bool:
    """A test by kind or by where it lives (``tests/``, ``test_*.py``, ``*_test.py``, ``conftest.py``)."""
    if chunk.kind == "test":
        return True
    parts = chunk.path.split("/")
    name = parts[-1]
    return (any(p in _TEST_DIRS for p in parts[:-1]) or name.startswith("test_") or name == "conftest.py"
            or name.rsplit(".", 1)[0].endswith("_test"))


def _is_example(chunk: Chunk) -> bool:
    return any(p in _EXAMPLE_DIRS for p in chunk.path.split("/")[:-1])


def _is_reexport(chunk: Chunk) -> bool:
    # Only a package's module-level chunk (imports, ``__all__``): a function defined in
    # ``__init__.py`` is a definition like any other (the stdlib has many).
    return chunk.path.rsplit("/", 1)[-1] == "__init__.py" and not chunk.signature


def prior_factor(chunk: Chunk, *, wants_tests: bool, wants_examples: bool) -> float:
    """The multiplier for ``chunk``'s fused score."""
    if is_test_chunk(chunk):
        return 1.0 if wants_tests else TEST_FACTOR
    if _is_example(chunk):
        return 1.0 if wants_examples else EXAMPLE_FACTOR
    if _is_reexport(chunk):
        return INIT_FACTOR
    return 1.0


def apply_priors(query: str, fused: list[Fused], chunk_of: Callable[[str], Chunk | None]) -> list[Fused]:
    """``fused`` with each score multiplied by its prior, re-sorted (stable for equal scores)."""
    wants_tests = bool(_WANTS_TESTS.search(query))
    wants_examples = bool(_WANTS_EXAMPLES.search(query))
    out: list[Fused] = []
    for item in fused:
        chunk = chunk_of(item.id)
        factor = 1.0 if chunk is None else prior_factor(chunk, wants_tests=wants_tests, wants_examples=wants_examples)
        out.append(item if factor == 1.0 else Fused(item.id, item.score * factor, item.ranks))
    order = {f.id: i for i, f in enumerate(fused)}
    out.sort(key=lambda f: (-f.score, order[f.id]))
    return out
