"""Make ``mapgrid`` importable from a source checkout and provide common fixtures."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from mapgrid import LatLon  # noqa: E402


@pytest.fixture
def london() -> LatLon:
    return LatLon(51.5074, -0.1278)


@pytest.fixture
def paris() -> LatLon:
    return LatLon(48.8566, 2.3522)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
