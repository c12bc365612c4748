"""Make ``xrkit`` importable from a source checkout and provide common fixtures."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

SAMPLE_ROOT = Path(__file__).resolve().parents[1]
if str(SAMPLE_ROOT) not in sys.path:
    sys.path.insert(0, str(SAMPLE_ROOT))

from xrkit import Scene  # noqa: E402


@pytest.fixture
def scene() -> Scene:
    return Scene("test")


@pytest.fixture
def asset_root() -> Path:
    return SAMPLE_ROOT / "examples" / "assets"
