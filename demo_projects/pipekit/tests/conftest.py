"""Make ``pipekit`` importable from a source checkout and provide common fixtures."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

PIPEKIT_ROOT = Path(__file__).resolve().parents[1]
if str(PIPEKIT_ROOT) not in sys.path:
    sys.path.insert(0, str(PIPEKIT_ROOT))

from pipekit import IterableSource, ManualClock  # noqa: E402


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def numbers() -> IterableSource:
    return IterableSource({"n": i, "parity": i % 2} for i in range(10))
