"""Make ``toolbelt`` importable from a source checkout and share fixtures."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from toolbelt import Context, Flag, FlagClient, FlagStore  # noqa: E402


class FakeClock:
    """A hand-driven time source for cache and refresher tests."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store() -> FlagStore:
    return FlagStore([Flag("beta"), Flag("dark-mode", rollout=100.0)])


@pytest.fixture
def client(store: FlagStore, clock: FakeClock) -> FlagClient:
    return FlagClient(store, clock=clock)


@pytest.fixture
def alice() -> Context:
    return Context("alice", {"country": "FR", "plan": "pro", "age": 34})
