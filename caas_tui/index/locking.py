"""The one writer of an index at a time, across processes: an ``flock`` on ``index.lock``."""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from caas_tui.errors import IndexStoreError


@contextmanager
def writer_lock(caas_dir: Path, *, wait_s: float) -> Iterator[bool]:
    """An exclusive inter-process lock for writers, waited for up to ``wait_s``; yields whether it was taken."""
    try:
        caas_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(caas_dir / "index.lock", os.O_CREAT | os.O_RDWR, 0o644)
    except OSError as exc:
        raise IndexStoreError(f"{caas_dir}: cannot write the index here ({exc.strerror or exc})") from exc
    deadline = time.monotonic() + wait_s
    have = False
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                have = True
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    break
                time.sleep(0.1)
        yield have
    finally:
        if have:
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
