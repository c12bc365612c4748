"""Checkpoints: how far each job got, so a restarted run can resume."""

from __future__ import annotations

import json
import os
from os import PathLike
from pathlib import Path

from pipekit.config import CHECKPOINT_EVERY
from pipekit.errors import CheckpointError


class CheckpointStore:
    """Offsets of finished work, one per job name, kept in a single JSON file.

    Writes are atomic: the new content goes to a temporary file next to the old one,
    which :func:`os.replace` then moves over it, so a crash never leaves a
    half-written checkpoint behind.
    """

    def __init__(self, path: str | PathLike[str]) -> None:
        self.path = Path(path)

    def _read(self) -> dict[str, int]:
        if not self.path.exists():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise CheckpointError(f"{self.path}: {exc}") from exc
        return {str(k): int(v) for k, v in data.items()}

    def load(self, job: str, default: int = 0) -> int:
        """Return the saved offset of ``job``.

        Args:
            job: The job name.
            default: Returned when ``job`` has no checkpoint yet.

        Raises:
            CheckpointError: If the file exists but is not valid JSON.
        """
        return self._read().get(job, default)

    def save(self, job: str, offset: int) -> None:
        """Record that ``job`` has finished every record before ``offset``."""
        data = self._read()
        data[job] = offset
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(data, sort_keys=True), encoding="utf-8")
        os.replace(tmp, self.path)

    def clear(self, job: str) -> bool:
        """Forget ``job``'s checkpoint; return whether it had one."""
        data = self._read()
        if job not in data:
            return False
        del data[job]
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(data, sort_keys=True), encoding="utf-8")
        os.replace(tmp, self.path)
        return True


class Checkpointer:
    """Saves a job's offset to a store, at most once every ``every`` records."""

    def __init__(self, store: CheckpointStore, job: str, every: int = CHECKPOINT_EVERY) -> None:
        self.store = store
        self.job = job
        self.every = every
        self._saved = store.load(job)

    @property
    def start(self) -> int:
        """The offset to resume from."""
        return self._saved

    def advance(self, offset: int) -> None:
        """Note that every record before ``offset`` is done; save when ``every`` records have passed."""
        if offset - self._saved >= self.every:
            self.store.save(self.job, offset)
            self._saved = offset

    def finish(self, offset: int) -> None:
        """Save ``offset`` whatever the count since the last save (end of a run)."""
        if offset != self._saved:
            self.store.save(self.job, offset)
            self._saved = offset
