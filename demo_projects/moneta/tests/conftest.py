"""Make ``moneta`` importable from a source checkout and provide common fixtures."""

from __future__ import annotations

import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

MONETA_ROOT = Path(__file__).resolve().parents[1]
if str(MONETA_ROOT) not in sys.path:
    sys.path.insert(0, str(MONETA_ROOT))

from moneta import RateBook  # noqa: E402


class FrozenClock:
    """A clock tests can move by hand."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))


@pytest.fixture
def book(clock: FrozenClock) -> RateBook:
    return RateBook(clock=clock)
