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


CLASS_CODE = '''
"""A client."""


class ClientError(Exception):
    """Client problems."""


class ClosedError(ClientError):
    """The client is closed."""


class RetryError(ClientError):
    """Out of attempts."""


class Base:
    """Shared sending."""

    def _check(self, closed: bool) -> None:
        if closed:
            raise ClosedError("closed")


class Client(Base):
    """A client."""

    def __init__(self) -> None:
        self.closed = False

    def send(self, data: bytes) -> int:
        """Send."""
        self._check(self.closed)
        return len(data)
'''

CLASS_DOC = """# Errors

`Client` raises `ClosedError` when you send after closing it.

`Client` raises `RetryError` when the server keeps refusing.
"""


def test_class_raises_against_every_method(tmp_path: Path) -> None:
    pairs = review_written(tmp_path, {"cli/__init__.py": CLASS_CODE, "docs/errors.md": CLASS_DOC}, ["docs/errors.md"])
    inherited = verdict_containing(pairs, "`ClosedError`")
    assert inherited.verdict not in ("contradicted", "incomplete"), inherited.rationale
    never = verdict_containing(pairs, "`RetryError`")
    assert never.verdict == "contradicted", never.rationale
    assert "no method of `Client`" in never.rationale


@pytest.mark.parametrize("part", ["`fresh(code)`", "`remove(code)` returns ``True`` if the code was deleted", "`find(code)`"])
def test_a_condition_no_guard_decides_is_not_green(reviewed: dict[str, list], part: str) -> None:
    """The type (``bool``, ``None``) matches; the condition was not checked, so not consistent."""
    pairs = [p for p in reviewed["pairs"] if p[0].doc_path.endswith("open.md")]
    verdict = verdict_containing(pairs, part)
    assert verdict.verdict == "unverified", verdict.rationale
    assert "the return behaviour was not" in verdict.rationale


def test_stated_cases_reads_each_literal_and_its_condition() -> None:
    from caas_tui.review.static.wording.condreturns import stated_cases

    both = stated_cases("Returns ``True`` if the key was removed, ``False`` otherwise.")
    assert [(c.value, c.condition, c.otherwise) for c in both] == [
        (True, "the key was removed", False), (False, "the key was removed", True)]
    before = stated_cases("If the queue is closed, `get` returns ``None``.")
    assert [(c.value, c.condition) for c in before] == [(None, "the queue is closed")]
    summary = stated_cases("The mean of ``values``; ``None`` if ``values`` is empty.")
    assert [(c.value, c.condition) for c in summary] == [(None, "``values`` is empty")]
    assert stated_cases("returns the value if it exists") == []  # no literal: nothing to compare


def test_return_cases_split_a_truth_test_and_read_early_exits() -> None:
    import ast

    from caas_tui.review.static.codefacts.returnpaths import return_cases

    fn = ast.parse("def f(key, d):\n    if key not in d:\n        return None\n    x = d[key]\n"
                   "    return x > 0\n").body[0]
    assert isinstance(fn, ast.FunctionDef)
    cases = return_cases(fn, frozenset({"key", "d"}))
    assert cases is not None
    early, true, false = cases
    assert early.value is None and [(g.subject, g.form) for g in early.paths[0]] == [("key", "notin")]
    # the truth value of ``x > 0`` is about a local, not a parameter: read as an unread mark
    assert true.value is True and ("key", "in") in [(g.subject, g.form) for g in true.paths[0]]
    assert any(g.form == "unread" for g in true.paths[0]) and false.value is False
    stub = ast.parse("def g(x):\n    raise NotImplementedError\n").body[0]
    assert isinstance(stub, ast.FunctionDef) and return_cases(stub, frozenset({"x"})) is None


CALLABLE_CODE = '''
"""Hooks."""

from typing import Callable


def subscribe(handler: object):
    """Subscribe."""
    def unsubscribe() -> None:
        pass
    return unsubscribe


def route(path: str) -> Callable[[object], object]:
    """Route."""
    return lambda f: f


def handlers(name: str):
    """Handlers."""
    return [name]
'''

CALLABLE_DOC = """# Hooks

`subscribe(handler)` returns a function that unsubscribes the handler.

`route(path)` returns a decorator.

`handlers(name)` returns a function that runs every handler.
"""


def test_a_stated_function_result_against_what_comes_back(tmp_path: Path) -> None:
    pairs = review_written(tmp_path, {"hooks/__init__.py": CALLABLE_CODE, "docs/hooks.md": CALLABLE_DOC},
                           ["docs/hooks.md"])
    for part in ("`subscribe(handler)`", "`route(path)`"):
        verdict = verdict_containing(pairs, part)
        # callable, as stated; what calling it does was not checked, so not green either
        assert verdict.verdict == "unverified", verdict.rationale
        assert any("returns callable" in c for c in verdict.checks), verdict.checks
    wrong = verdict_containing(pairs, "`handlers(name)`")
    assert wrong.verdict == "contradicted" and "returns list, not callable" in wrong.rationale, wrong.rationale


EXIT_CODE = '''
"""A registry."""

REGISTRY: dict[str, int] = {}


class RegistryError(Exception):
    """Registry problems."""


def register(code: str, value: int, replace: bool = False) -> None:
    """Register a code."""
    if replace:
        REGISTRY[code] = value
        return
    if code in REGISTRY:
        raise RegistryError(code)
    REGISTRY[code] = value
'''

EXIT_DOC = """# Registry

`register(code, value, replace)` raises `RegistryError` if `replace` is true and the code is taken.
"""


def test_an_early_exit_before_a_raise_rules_its_condition_out(tmp_path: Path) -> None:
    pairs = review_written(tmp_path, {"regi/__init__.py": EXIT_CODE, "docs/reg.md": EXIT_DOC}, ["docs/reg.md"])
    verdict = verdict_containing(pairs, "`RegistryError`")
    assert verdict.verdict == "contradicted", verdict.rationale
    assert "never when `replace` is true" in verdict.rationale
