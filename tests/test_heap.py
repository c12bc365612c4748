"""index/heap.py: freed C-heap pages go back to the OS where glibc has malloc_trim."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from caas_tui.index.heap import give_back_free_memory


def _rss_anon_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("RssAnon:"):
            return int(line.split()[1])
    raise AssertionError("no RssAnon")


def test_is_safe_to_call_again_and_again() -> None:
    for _ in range(3):
        give_back_free_memory()


@pytest.mark.skipif(not sys.platform.startswith("linux") or not Path("/proc/self/status").exists(), reason="Linux")
def test_freed_holes_in_the_heap_leave_the_rss() -> None:
    give_back_free_memory()
    before = _rss_anon_kb()
    # 60 MB of texts the size of source files, each pinned below the top of the heap by a
    # small object allocated after it, as a build's chunk texts pin its freed file texts
    texts, pins = [], []
    for i in range(600):
        texts.append(bytes([i % 251]) * 100_000)
        pins.append(bytes([i % 251]) * 600)
    assert _rss_anon_kb() > before + 50_000
    texts.clear()
    give_back_free_memory()
    assert _rss_anon_kb() < before + 20_000, (before, _rss_anon_kb())  # the holes are not resident
    assert len(pins) == 600
