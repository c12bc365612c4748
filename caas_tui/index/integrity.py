"""Checksums of the index files, recorded when a writer finishes and verified on open.

Truncation and deletion are caught by the parts' own loaders; these catch what they
cannot: bytes changed inside a file at the same size (a Whoosh segment answers wrong
instead of failing). Every index file except the manifest itself and the chunk store is
covered: SQLite's WAL rewrites ``chunks.sqlite`` on checkpoint whenever any reader asks,
so its rows are verified instead, each when it is read (``chunkdb``).

Segment files are immutable once written, so a writer re-hashes only files whose size
or mtime moved since this process last hashed them.

Opening a big index read the whole of it to hash it (about 55 MB at stdlib scale, a good
part of a one-shot ``caas-tui search``). So the writer also leaves ``stamps.json``: each
file's inode, size, mtime and ctime next to its digest. A file whose stat still matches
its stamp is taken to hold the bytes that were hashed; anything that rewrites or copies
a file changes at least one of the four (ctime cannot be set back by ``utime``), and that
file is hashed in full as before. The stamps only ever save work: a stamp file that is
missing, damaged, stale or disagrees with the manifest's digest means a full hash.
File times tick coarsely (a few ms), so a file changed less than ``RACY_S`` before its
stamp would be taken is not stamped ("racy git"): it is hashed in full again next time.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

from caas_tui.errors import IndexStoreError

CHECKED = ("lexical", "vectors", "graph.jsonl")
STAMPS_NAME = "stamps.json"  # outside CHECKED: written after the digests it records
Stamp = tuple[int, int, int, int]  # inode, size, mtime_ns, ctime_ns
RACY_S = 2.0
# (path, stamp) -> sha256, for files this process hashed or verified
_SEEN: dict[tuple[str, Stamp], str] = {}


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


def stamp(path: Path) -> Stamp:
    """What changes whenever ``path`` is written, replaced or copied (OSError if missing)."""
    st = path.stat()
    return (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def settled(stamp_: Stamp) -> bool:
    """Whether a file last changed long enough ago that a same-size rewrite would show in
    its times: only settled stamps may stand for a digest."""
    return max(stamp_[2], stamp_[3]) < time.time_ns() - int(RACY_S * 1e9)


def _digest(path: Path, *, trust_cache: bool) -> str:
    before = stamp(path)
    key = (str(path), before)
    if trust_cache and key in _SEEN:
        return _SEEN[key]
    with path.open("rb") as handle:
        digest = hashlib.file_digest(handle, "sha256").hexdigest()
    if stamp(path) == before:  # not rewritten while it was read
        _SEEN[key] = digest
    return digest


def file_sha256(path: Path) -> str:
    """The sha256 of one file, reusing this process's digest of it at the same stamp: the
    vector index checks its own file right after ``verify`` hashed (or stamp-checked) it."""
    return _digest(path, trust_cache=True)


def _read_stamps(directory: Path) -> dict[str, tuple[Stamp, str]]:
    try:
        data = json.loads((directory / STAMPS_NAME).read_text(encoding="utf-8"))
        return {rel: ((int(a), int(b), int(c), int(d)), str(sha)) for rel, (a, b, c, d, sha) in data.items()}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}  # a missing or damaged stamp file costs a full hash, nothing else


def _write_stamps(directory: Path, stamps: dict[str, tuple[Stamp, str]]) -> None:
    tmp = directory / f".{STAMPS_NAME}.{os.getpid()}.tmp"
    keep = {rel: [*st, sha] for rel, (st, sha) in sorted(stamps.items()) if settled(st)}
    try:
        tmp.write_text(json.dumps(keep), encoding="utf-8")
        os.replace(tmp, directory / STAMPS_NAME)
    except OSError:
        tmp.unlink(missing_ok=True)  # a read-only index dir: opens keep hashing in full


def record(directory: Path) -> dict[str, str]:
    """The checksums of the index files now on disk (called by a writer after its commit);
    their stamps go to ``stamps.json`` for the next open."""
    try:
        stamps: dict[str, tuple[Stamp, str]] = {}
        for path in _files(directory):
            stamps[path.relative_to(directory).as_posix()] = (stamp(path), _digest(path, trust_cache=True))
    except OSError as exc:
        raise IndexStoreError(f"{directory}: cannot checksum the index ({exc.strerror or exc})") from exc
    _write_stamps(directory, stamps)
    return {rel: sha for rel, (_, sha) in stamps.items()}


def verify(directory: Path, recorded: dict[str, str], *, restamp: bool = True) -> None:
    """Raise ChecksumMismatch when a recorded file is missing or its bytes changed.

    A file whose stamp in ``stamps.json`` matches it and names the recorded digest is not
    re-read (see the module docstring). ``restamp``: rewrite the stamps of files read in
    full (only a caller holding the writer lock: a read-only open writes nothing). An
    index written before checksums existed records none and is accepted as it is.
    """
    if not recorded:
        return
    stamps = _read_stamps(directory)
    fresh: dict[str, tuple[Stamp, str]] = {}
    for rel, expected in recorded.items():
        path = directory / rel
        try:
            now = stamp(path)
            if stamps.get(rel) == (now, expected):
                _SEEN[(str(path), now)] = expected
                continue
            actual = _digest(path, trust_cache=False)
        except FileNotFoundError as exc:
            raise ChecksumMismatch(f"{directory}: index file {rel} is missing") from exc
        except OSError as exc:
            raise ChecksumMismatch(f"{directory}: index file {rel} is unreadable ({exc.strerror or exc})") from exc
        if actual != expected:
            raise ChecksumMismatch(f"{directory}: index file {rel} is corrupt (checksum mismatch)")
        fresh[rel] = (now, actual)
    if restamp and any(settled(st) for st, _ in fresh.values()):
        # e.g. a copied index (new inodes): stamp what was just read in full, so the next
        # open is cheap again; unchanged entries are kept, stale ones dropped
        _write_stamps(directory, {**{r: v for r, v in stamps.items() if r in recorded and r not in fresh}, **fresh})
