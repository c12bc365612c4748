"""bench/scale.py's per-phase build times: each phase runs from its own start to the next one's."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import REPO

_spec = importlib.util.spec_from_file_location("bench_scale", REPO / "bench" / "scale.py")
assert _spec is not None and _spec.loader is not None
scale = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(scale)


def test_phases_run_from_their_start_to_the_next_start_in_the_order_they_began() -> None:
    clock = {"built": (9.0, 7.0, 12.0), "open": (0.0, 0.5, 0.0), "lexical": (8.0, 6.0, 11.0),
             "chunking": (1.0, 1.0, 0.0)}
    assert scale._phase_times(clock) == {
        "open": {"wall_s": 1.0, "cpu_main_s": 0.5, "cpu_children_s": 0.0},
        "chunking": {"wall_s": 7.0, "cpu_main_s": 5.0, "cpu_children_s": 11.0},
        "lexical": {"wall_s": 1.0, "cpu_main_s": 1.0, "cpu_children_s": 1.0},
    }


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads children's CPU from /proc")
def test_a_running_childs_cpu_is_counted_before_it_is_waited_for() -> None:
    before = scale._clock(time.perf_counter())[2]
    child = subprocess.Popen([sys.executable, "-c", "import time\nend = time.process_time() + 0.5\n"
                              "while time.process_time() < end: pass\ntime.sleep(30)"])
    try:
        deadline = time.monotonic() + 20
        while scale._live_children_cpu() < 0.4 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert scale._clock(time.perf_counter())[2] - before >= 0.4
    finally:
        child.kill()
        child.wait()
