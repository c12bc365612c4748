"""Results tied to a condition, judged by the condition's sense (issue 14, mutation audit):
"returns ``False`` if `key` is not registered" against the guards on the way to each
``return``. Each defect has a correct twin; a condition no guard decides leaves the result
unchecked (the type alone does not make the claim green).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import review_written, verdict_containing

CODE = '''
"""A registry and a queue."""

REGISTRY: dict[str, int] = {}


def has(code: str) -> bool:
    """Look a code up."""
    return code in REGISTRY


def remove(code: str) -> bool:
    """Remove a code."""
    if code not in REGISTRY:
        return False
    del REGISTRY[code]
    return True


def mean(values: list[float]) -> float | None:
    """The mean."""
    if not values:
        return None
    return sum(values) / len(values)


def clamp_rate(rate: float) -> float:
    """Clamp a rate."""
    if rate < 0:
        return 0.0
    return rate


def label(name: str | None = None) -> str:
    """A label."""
    if name is None:
        return "anonymous"
    return name.title()


def fresh(code: str) -> bool:
    """Whether a code is fresh."""
    if code in REGISTRY and _stale(code):
        return False
    return code in REGISTRY


def _stale(code: str) -> bool:
    return REGISTRY[code] > 3


def find(code: str) -> int | None:
    """Find a code."""
    for key, value in REGISTRY.items():
        if key == code:
            return value
    return None


class Queue:
    """A queue."""

    def __init__(self) -> None:
        self._closed = False
        self._items: list[int] = []

    def close(self) -> None:
        """Close it."""
        self._closed = True

    def offer(self, item: int) -> bool:
        """Offer an item."""
        if self._closed:
            return False
        self._items.append(item)
        return True
'''

DOC_OK = """# Reference

`has(code)` returns ``True`` if `code` is in the registry, ``False`` otherwise.

`remove(code)` returns ``False`` if `code` is not in the registry.

`mean(values)` returns ``None`` when `values` is empty.

`label(name)` returns ``"anonymous"`` when `name` is ``None``.

`Queue.offer(item)` returns ``False`` if the queue is closed.

`clamp_rate(rate)` returns ``0.0`` if `rate` is negative.
"""

DOC_BAD = """# Reference

`has(code)` returns ``False`` if `code` is in the registry.

`remove(code)` returns ``True`` if `code` is not in the registry.

`mean(values)` returns ``0`` when `values` is empty.

`label(name)` returns ``None`` when `name` is ``None``.

`Queue.offer(item)` returns ``True`` if the queue is closed.

`clamp_rate(rate)` returns ``1.0`` if `rate` is negative.
"""

DOC_OPEN = """# Reference

`fresh(code)` returns ``True`` if `code` is in the registry.

`remove(code)` returns ``True`` if the code was deleted.

`find(code)` returns ``None`` if `code` is in the registry.
"""


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list]:
    root: Path = tmp_path_factory.mktemp("cases")
    files = {"reg/__init__.py": CODE, "docs/ok.md": DOC_OK, "docs/bad.md": DOC_BAD, "docs/open.md": DOC_OPEN}
    pairs = review_written(root, files, ["docs/ok.md", "docs/bad.md", "docs/open.md"])
    return {"pairs": pairs}


@pytest.mark.parametrize("part", ["`has(code)`", "`remove(code)`", "`mean(values)`", "`label(name)`",
                                  "`Queue.offer(item)`", "`clamp_rate(rate)`"])
def test_defect_contradicted_and_twin_not(reviewed: dict[str, list], part: str) -> None:
    ok_pairs = [p for p in reviewed["pairs"] if p[0].doc_path.endswith("ok.md")]
    bad_pairs = [p for p in reviewed["pairs"] if p[0].doc_path.endswith("bad.md")]
    good = verdict_containing(ok_pairs, part)
    wrong = verdict_containing(bad_pairs, part)
    assert good.verdict not in ("contradicted", "incomplete"), good.rationale
    assert wrong.verdict == "contradicted", wrong.rationale
    print(part, good.verdict, "|", good.rationale, "||", wrong.rationale)


DOC_PART = """# Reference

`admit(ttl, maxsize)` returns ``True`` if `ttl` is not negative.

`admit(ttl, maxsize)` returns ``False`` if `ttl` is negative.
"""

CODE_PART = '''
"""Admission."""


def admit(ttl: float, maxsize: int) -> bool:
    """Admit."""
    if ttl < 0:
        return False
    if maxsize < 1:
        return False
    return True
'''


def test_condition_that_leaves_out_a_test_is_incomplete(tmp_path: Path) -> None:
    pairs = review_written(tmp_path, {"adm/__init__.py": CODE_PART, "docs/part.md": DOC_PART}, ["docs/part.md"])
    partial = verdict_containing(pairs, "``True`` if `ttl` is not negative")
    assert partial.verdict == "incomplete", partial.rationale
    assert "also depends on `maxsize` < 1" in partial.rationale
    whole = verdict_containing(pairs, "``False`` if `ttl` is negative")
    assert whole.verdict not in ("contradicted", "incomplete"), whole.rationale


GIVEN_CODE = '''
"""Fluent objects."""

from dataclasses import dataclass, replace


@dataclass
class Point:
    """A point."""

    x: float = 0.0

    def moved(self, dx: float) -> "Point":
        """Move."""
        self.x += dx
        return self

    def shifted(self, dx: float) -> "Point":
        """Shift."""
        return replace(self, x=self.x + dx)


class Scheduler:
    """Systems."""

    def __init__(self) -> None:
        self._systems: list[object] = []

    def add(self, system: object) -> object:
        """Add a system."""
        self._systems.append(system)
        return system

    def attach(self, system: object) -> "Scheduler":
        """Attach a system."""
        self._systems.append(system)
        return self


def register(handler: object) -> object:
    """Register a handler."""
    return handler


def wrap(handler: object) -> object:
    """Wrap a handler."""
    if handler is None:
        return None
    return handler
'''

GIVEN_OK = """# Fluent

`Point.moved(dx)` moves the point in place and returns itself.

`Scheduler.add(system)` returns the system it was given.

`register(handler)` returns `handler` unchanged, so it works as a decorator.
"""

GIVEN_BAD = """# Fluent

`Point.shifted(dx)` returns itself, so calls chain.

`Scheduler.attach(system)` returns the system it was given.

`wrap(handler)` returns `handler` unchanged.
"""


@pytest.fixture(scope="module")
def given(tmp_path_factory: pytest.TempPathFactory) -> list:
    root: Path = tmp_path_factory.mktemp("given")
    files = {"flu/__init__.py": GIVEN_CODE, "docs/ok.md": GIVEN_OK, "docs/bad.md": GIVEN_BAD}
    return review_written(root, files, ["docs/ok.md", "docs/bad.md"])


@pytest.mark.parametrize(("good_part", "bad_part", "why"), [
    ("`Point.moved(dx)`", "`Point.shifted(dx)`", "hands back a new object, not itself (line 19"),
    ("`Scheduler.add(system)`", "`Scheduler.attach(system)`", "hands back `self` instead (line "),
    ("`register(handler)`", "`wrap(handler)`", "hands back a literal (line 47: `return None`)"),
])
def test_given_back_against_the_returns(given: list, good_part: str, bad_part: str, why: str) -> None:
    good = verdict_containing([p for p in given if p[0].doc_path.endswith("ok.md")], good_part)
    assert good.verdict not in ("contradicted", "incomplete"), good.rationale
    assert any("returns itself" in c or "returns its argument" in c for c in good.checks), good.checks
    wrong = verdict_containing([p for p in given if p[0].doc_path.endswith("bad.md")], bad_part)
    assert wrong.verdict == "contradicted" and why in wrong.rationale, wrong.rationale
