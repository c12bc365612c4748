"""The index manifest: what was indexed, with which model, and whether it is whole.

Written atomically (temp file + ``os.replace``). ``state`` is set to ``"dirty"``
before any part of the index is modified and back to ``"clean"`` only after every
part has been committed, so an interrupted build is detected on the next open and
rebuilt instead of being used half-done.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from caas_tui.errors import IndexStoreError

SCHEMA_VERSION = 1
MANIFEST_NAME = "manifest.json"


@dataclass(slots=True)
class FileRecord:
    sha256: str
    mtime: float
    size: int
    kind: str
    chunks: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Manifest:
    model_id: str
    dims: int
    schema: int = SCHEMA_VERSION
    state: str = "dirty"
    created: float = field(default_factory=time.time)
    updated: float = field(default_factory=time.time)
    files: dict[str, FileRecord] = field(default_factory=dict)
    skipped: list[dict[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        # Hand-rolled: dataclasses.asdict deep-copies every chunk id list, which took
        # ~0.2 s per write at stdlib scale, and the manifest is written twice a refresh.
        return {
            "model_id": self.model_id, "dims": self.dims, "schema": self.schema, "state": self.state,
            "created": self.created, "updated": self.updated,
            "files": {
                p: {"sha256": r.sha256, "mtime": r.mtime, "size": r.size, "kind": r.kind, "chunks": r.chunks}
                for p, r in self.files.items()
            },
            "skipped": self.skipped, "warnings": self.warnings,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Manifest":
        files = {p: FileRecord(**rec) for p, rec in data.get("files", {}).items()}
        return cls(
            model_id=str(data["model_id"]),
            dims=int(data["dims"]),
            schema=int(data.get("schema", 0)),
            state=str(data.get("state", "dirty")),
            created=float(data.get("created", 0.0)),
            updated=float(data.get("updated", 0.0)),
            files=files,
            skipped=list(data.get("skipped", [])),
            warnings=list(data.get("warnings", [])),
        )


def read_manifest(directory: Path) -> Manifest | None:
    """The manifest in ``directory``, ``None`` if there is none.

    Raises IndexStoreError when it exists but cannot be understood.
    """
    path = directory / MANIFEST_NAME
    if not path.exists():
        return None
    try:
        return Manifest.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise IndexStoreError(f"{path}: unreadable index manifest ({exc.__class__.__name__})") from exc


def write_manifest(directory: Path, manifest: Manifest) -> None:
    manifest.updated = time.time()
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".manifest-", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(manifest.to_json(), handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, directory / MANIFEST_NAME)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
