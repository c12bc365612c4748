"""The index manifest: what was indexed, with which model, and whether it is whole.

Written atomically (temp file + ``os.replace``). ``state`` is set to ``"dirty"``
before any part of the index is modified and back to ``"clean"`` only after every
part has been committed, so an interrupted build is detected on the next open and
rebuilt instead of being used half-done.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeGuard, get_args

from caas_tui.errors import IndexStoreError
from caas_tui.models import Kind

SCHEMA_VERSION = 3  # 2: chunks.sqlite has a ``short`` name column and symbol indexes; 3: ``tokens`` ids
MANIFEST_NAME = "manifest.json"
REBUILD_PLAN = "rebuilding the index"


@dataclass(frozen=True, slots=True)
class ManifestCheck:
    """Whether the index on disk can be used as it is.

    ``ok``: use it; ``new``: there is none yet; ``rebuild``: it cannot be used because of
    ``reason``, and ``plan`` says what a writer does about it (a read-only open reports
    only the reason, since it never rebuilds).
    """

    state: Literal["ok", "new", "rebuild"]
    reason: str = ""
    plan: str = REBUILD_PLAN

    @classmethod
    def rebuild(cls, reason: str, plan: str = REBUILD_PLAN) -> ManifestCheck:
        return cls("rebuild", reason, plan)

    @property
    def notice(self) -> str:
        """The one line a writer shows before rebuilding."""
        return f"{self.reason}; {self.plan}"


@dataclass(slots=True)
class FileRecord:
    """One indexed file as it was read: its hash, stamp, kind and chunk ids."""

    sha256: str
    mtime: float
    size: int
    kind: Kind
    chunks: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Manifest:
    """``manifest.json``: what the index was built with, its state, and every file in it."""

    model_id: str
    dims: int
    schema: int = SCHEMA_VERSION
    state: str = "dirty"
    created: float = field(default_factory=time.time)
    updated: float = field(default_factory=time.time)
    files: dict[str, FileRecord] = field(default_factory=dict)
    skipped: list[dict[str, str]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # index file (relative to the index dir) -> sha256, recorded when a writer finished: a byte
    # changed later, even at the same size, is found on open (see integrity.py)
    checksums: dict[str, str] = field(default_factory=dict)
    lexical: str = "whoosh"  # the lexical backend that built lexical/ (a change rebuilds the index)

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
            "skipped": self.skipped, "warnings": self.warnings, "checksums": self.checksums,
            "lexical": self.lexical,
        }

    @classmethod
    def from_json(cls, data: Any) -> Manifest:
        """Parse untrusted JSON; ValueError (with what is wrong) for any other shape."""
        if not isinstance(data, dict):
            raise ValueError(f"expected an object, got {type(data).__name__}")
        raw_files = data.get("files", {})
        if not isinstance(raw_files, dict):
            raise ValueError("'files' is not an object")
        files = {_str(p, "file path"): _record(p, rec) for p, rec in raw_files.items()}
        skipped = data.get("skipped", [])
        warnings = data.get("warnings", [])
        if not isinstance(skipped, list) or not all(isinstance(s, dict) for s in skipped):
            raise ValueError("'skipped' is not a list of objects")
        if not isinstance(warnings, list):
            raise ValueError("'warnings' is not a list")
        checksums = data.get("checksums", {})
        if not isinstance(checksums, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in checksums.items()
        ):
            raise ValueError("'checksums' is not an object of strings")
        return cls(
            model_id=_str(data.get("model_id"), "model_id"),
            dims=_int(data.get("dims"), "dims"),
            schema=_int(data.get("schema", 0), "schema"),
            state=_str(data.get("state", "dirty"), "state"),
            created=_num(data.get("created", 0.0), "created"),
            updated=_num(data.get("updated", 0.0), "updated"),
            files=files,
            skipped=[{str(k): str(v) for k, v in s.items()} for s in skipped],
            warnings=[str(w) for w in warnings],
            checksums=dict(checksums),
            lexical=_str(data.get("lexical", "whoosh"), "lexical"),
        )


def _str(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what} is not a string")
    return value


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} is not an integer")
    return value


def _num(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{what} is not a number")
    return float(value)


_KINDS = frozenset(get_args(Kind))


def _is_kind(value: object) -> TypeGuard[Kind]:
    return value in _KINDS


def _all_strings(items: list[Any]) -> bool:
    # str.join checks every item's type in C: a generator of isinstance calls over every chunk
    # id (26k at stdlib scale) was half of reading the manifest, which every command does
    try:
        "".join(items)
    except TypeError:
        return False
    return True


def _record(path: str, rec: Any) -> FileRecord:
    if not isinstance(rec, dict):
        raise ValueError(f"record of {path!r} is not an object")
    chunks = rec.get("chunks", [])
    if not isinstance(chunks, list) or not _all_strings(chunks):
        raise ValueError(f"chunks of {path!r} are not a list of ids")
    kind = rec.get("kind")
    if not _is_kind(kind):
        raise ValueError(f"kind of {path!r} is not one of {sorted(_KINDS)}")
    return FileRecord(
        sha256=_str(rec.get("sha256"), "sha256"), mtime=_num(rec.get("mtime"), "mtime"),
        size=_int(rec.get("size"), "size"), kind=kind, chunks=chunks,
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
    except OSError as exc:
        raise IndexStoreError(f"{path}: unreadable index manifest ({exc.strerror or exc})") from exc
    except (ValueError, RecursionError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise IndexStoreError(f"{path}: unreadable index manifest ({_short(exc)})") from exc


def _short(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:120] or exc.__class__.__name__


def write_manifest(directory: Path, manifest: Manifest) -> None:
    manifest.updated = time.time()
    import tempfile  # writers only: with random and hashlib's sha512 it costs a one-shot search ~2 ms

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
