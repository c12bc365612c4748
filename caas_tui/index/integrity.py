"""Checksums of the index files, recorded when a writer finishes and verified on open.

Truncation and deletion are caught by the parts' own loaders; these catch what they
cannot: bytes changed inside a file at the same size (a Whoosh segment answers wrong
instead of failing). Every index file except the manifest itself and the chunk store is
covered: SQLite's WAL rewrites ``chunks.sqlite`` on checkpoint whenever any reader asks,
so its rows are verified instead, each when it is read (``chunkdb``).

Segment files are immutable once written, so a writer re-hashes only files whose size
or mtime moved since this process last hashed them.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from caas_tui.errors import IndexStoreError

CHECKED = ("lexical", "vectors", "graph.jsonl")
# (path, size, mtime_ns) -> sha256, for files this process hashed or verified
_SEEN: dict[tuple[str, int, int], str] = {}


class ChecksumMismatch(IndexStoreError):
    """An index file is missing or differs from what its writer recorded."""


def _files(directory: Path) -> list[Path]:
    out: list[Path] = []
    for name in CHECKED:
        path = directory / name
        if path.is_dir():
            out.extend(p for p in sorted(path.iterdir()) if p.is_file() and _counts(p.name))
        elif path.is_file():
            out.append(path)
    return out


def _counts(name: str) -> bool:
    # temp files (".x.tmp") and Whoosh's write lock come and go outside a commit
    return not name.startswith(".") and not name.endswith((".tmp", "LOCK", ".lock"))


def _digest(path: Path, *, trust_cache: bool) -> str:
    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime_ns)
    if trust_cache and key in _SEEN:
        return _SEEN[key]
    with path.open("rb") as handle:
        digest = hashlib.file_digest(handle, "sha256").hexdigest()
    _SEEN[key] = digest
    return digest


def file_sha256(path: Path) -> str:
    """The sha256 of one file, reusing this process's digest of it at the same size and
    mtime: the vector index checks its own file right after ``verify`` hashed it."""
    return _digest(path, trust_cache=True)


def record(directory: Path) -> dict[str, str]:
    """The checksums of the index files now on disk (called by a writer after its commit)."""
    try:
        return {p.relative_to(directory).as_posix(): _digest(p, trust_cache=True) for p in _files(directory)}
    except OSError as exc:
        raise IndexStoreError(f"{directory}: cannot checksum the index ({exc.strerror or exc})") from exc


def verify(directory: Path, recorded: dict[str, str]) -> None:
    """Raise ChecksumMismatch when a recorded file is missing or its bytes changed.

    An index written before checksums existed records none and is accepted as it is.
    """
    if not recorded:
        return
    for rel, expected in recorded.items():
        path = directory / rel
        try:
            actual = _digest(path, trust_cache=False)
        except FileNotFoundError as exc:
            raise ChecksumMismatch(f"{directory}: index file {rel} is missing") from exc
        except OSError as exc:
            raise ChecksumMismatch(f"{directory}: index file {rel} is unreadable ({exc.strerror or exc})") from exc
        if actual != expected:
            raise ChecksumMismatch(f"{directory}: index file {rel} is corrupt (checksum mismatch)")
