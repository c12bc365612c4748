"""Raise conditions judged by their sense, not only their words (issue 14, mutation audit):
"raises X if `replace` is false" against ``if code in REG and not replace: raise X``.

Each defect has a correct twin: the twin must not be flagged, the defect must be
``contradicted``; a condition whose sense no guard decides stays unchecked (not green).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import review_written, verdict_containing

CODE = '''
"""Registry and client."""

REGISTRY: dict[str, int] = {}


class RegistryError(Exception):
    """Registry problems."""


class ClosedError(Exception):
    """The client is closed."""


def register(code: str, value: int, replace: bool = False) -> None:
    """Register a code."""
    if code in REGISTRY and not replace:
        raise RegistryError(code)
    REGISTRY[code] = value


def lookup(code: str) -> int:
    """Look a code up."""
    if code not in REGISTRY:
        raise RegistryError(code)
    return REGISTRY[code]


def expire(ttl: float) -> float:
    """Expire after ``ttl``."""
    if ttl < 0:
        raise ValueError("ttl")
    return ttl * 2


def total(items: list[int], start: int | None = None) -> int:
    """Sum items."""
    if not items:
        raise ValueError("no items")
    return sum(items) + (start or 0)


def pick(label: str | None = None) -> str:
    """Pick a label."""
    if label is None:
        raise RegistryError("label")
    return label


def scale(factor: float) -> float:
    """Scale."""
    if factor > 10:
        raise ValueError("too big")
    else:
        return factor


class Job:
    """A job."""

    def __init__(self, name: str) -> None:
        self.name = name


class Board:
    """Jobs by name."""

    def __init__(self) -> None:
        self._jobs: dict[str, Job] = {}

    def add(self, job: Job) -> None:
        """Add a job."""
        if job.name in self._jobs:
            raise RegistryError(job.name)
        self._jobs[job.name] = job


def bounds(points: list[float]) -> tuple[float, float]:
    """Bounds."""
    pts = list(points)
    if not pts:
        raise ValueError("no points")
    return min(pts), max(pts)


class Line:
    """Systems in order."""

    def __init__(self) -> None:
        self._items: list[object] = []

    def push(self, item: object) -> None:
        """Add an item."""
        if any(s is item for s in self._items):
            raise RegistryError("twice")
        self._items.append(item)

    def drop(self, item: object) -> None:
        """Remove an item."""
        for i, s in enumerate(self._items):
            if s is item:
                del self._items[i]
                break
        else:
            raise RegistryError("absent")

    def weigh(self, weights: list[int]) -> int:
        """Weigh."""
        total = sum(weights)
        if total == 0:
            raise ValueError("zero")
        return total


class Client:
    """A client."""

    def __init__(self) -> None:
        self._closed = False

    def close(self) -> None:
        """Close it."""
        self._closed = True

    def send(self, data: bytes) -> int:
        """Send data."""
        if self._closed:
            raise ClosedError("closed")
        return len(data)
'''

CASES = [
    # (defect, twin)
    ("`register` raises `RegistryError` if the code is already registered and `replace` is true.",
     "`register` raises `RegistryError` if the code is already registered and `replace` is false."),
    ("`lookup` raises `RegistryError` when the code is registered.",
     "`lookup` raises `RegistryError` when the code is not registered."),
    ("`expire` raises `ValueError` if `ttl` is positive.",
     "`expire` raises `ValueError` if `ttl` is negative."),
    ("`total` raises `ValueError` when `items` is not empty.",
     "`total` raises `ValueError` when `items` is empty."),
    ("`pick` raises `RegistryError` if `label` is given.",
     "`pick` raises `RegistryError` if `label` is omitted."),
    ("`scale` raises `ValueError` if `factor` is less than 5.",
     "`scale` raises `ValueError` if `factor` is greater than 10."),
    ("`Client.send` raises `ClosedError` if the client is open.",
     "`Client.send` raises `ClosedError` if the client is closed."),
    ("`Board.add` raises `RegistryError` when the name is not taken.",
     "`Board.add` raises `RegistryError` when the name is taken."),
    ("`bounds` raises `ValueError` if `points` is not empty.",
     "`bounds` raises `ValueError` if `points` is empty."),
    ("`Line.push` raises `RegistryError` if the item is not registered.",
     "`Line.push` raises `RegistryError` if the item is already registered."),
    ("`Line.drop` raises `RegistryError` if the item is registered.",
     "`Line.drop` raises `RegistryError` if the item is not registered."),
    ("`Client.send` raises `ClosedError` unless the client is closed.",
     "`Client.send` raises `ClosedError` unless the client is open."),
]


@pytest.fixture(scope="module")
def pairs(tmp_path_factory: pytest.TempPathFactory) -> list:
    root: Path = tmp_path_factory.mktemp("polarity")
    lines = ["# Guide", ""]
    for defect, twin in CASES:
        lines += [defect, "", twin, ""]
    lines += ["`Line.weigh` raises `ValueError` if `weights` is empty.", ""]
    files = {"pkg/__init__.py": '"""Pkg."""\nfrom pkg.core import *  # noqa\n', "pkg/core.py": CODE,
             "docs/guide.md": "\n".join(lines)}
    return review_written(root, files, ["docs/guide.md"])


@pytest.mark.parametrize("defect", [d for d, _ in CASES])
def test_defect_is_contradicted(pairs: list, defect: str) -> None:
    v = verdict_containing(pairs, defect)
    assert v.verdict == "contradicted", (defect, v.rationale)
    assert "only when" in v.rationale


@pytest.mark.parametrize("twin", [t for _, t in CASES])
def test_twin_is_not_flagged(pairs: list, twin: str) -> None:
    v = verdict_containing(pairs, twin)
    assert v.verdict in ("consistent", "unverified"), (twin, v.rationale)


def test_a_condition_no_guard_reads_is_not_green(pairs: list) -> None:
    """"all weights are zero" over ``total = sum(weights); if total == 0``: the guard tests a
    local this does not tie to ``weights``, so the stated sense was not checked."""
    text = "`Line.weigh` raises `ValueError` if `weights` is empty."
    v = verdict_containing(pairs, text)
    assert v.verdict == "unverified", v.rationale


def test_twins_whose_sense_was_read_are_green(pairs: list) -> None:
    for text in ("if the code is already registered and `replace` is false.", "when `items` is empty.",
                 "if the client is closed.", "`Line.drop` raises `RegistryError` if the item is not registered."):
        v = verdict_containing(pairs, text)
        assert v.verdict == "consistent", (text, v.rationale)


def test_condition_literals_read_from_prose() -> None:
    from caas_tui.review.static.wording.condatoms import stated_alternatives

    def read(text: str, params: tuple[str, ...] = ("key", "ttl", "job.name")) -> list[list[tuple[str, str]]]:
        return [[(s.subject, s.meaning) for s in conj] for conj in stated_alternatives(text, params)]

    assert read("if no such key exists") == [[("key", "notin")]]
    assert read("if the key exists") == [[("key", "in")]]
    assert read("when `ttl` is not `None`") == [[("ttl", "given")]]
    assert read("for a negative `ttl`") == [[("ttl", "cmp")]]
    assert read("if the name is already taken") == [[("job.name", "in")]]
    assert read("if `ttl` is negative or the key is unknown") == [[("ttl", "cmp")], [("key", "notin")]]
    assert read("unless `ttl` is given") == [[("ttl", "none")]]
    assert read("if the text is not JSON") == []  # no subject this reads: nothing said


def test_guard_paths_read_from_code() -> None:
    import ast

    from caas_tui.review.static.codefacts.guardatoms import raise_paths

    fn = ast.parse(
        "def f(key, ttl, items):\n"
        "    pts = list(items)\n"
        "    if not pts:\n        raise E()\n"
        "    if ttl is None or ttl < 0:\n        raise E()\n"
        "    if key in D:\n        pass\n    else:\n        raise E()\n"
    ).body[0]
    assert isinstance(fn, ast.FunctionDef)
    paths = raise_paths(fn, {"E"}, frozenset({"key", "ttl", "items"}))
    forms = [[[(g.subject, g.form) for g in p] for p in ps] for _, ps in paths]
    assert forms == [[[("items", "falsy")]], [[("ttl", "none")], [("ttl", "cmp")]], [[("key", "notin")]]]
