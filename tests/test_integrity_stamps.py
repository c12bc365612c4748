"""Opening an unchanged index does not re-read it to hash it; any rewrite of a file still is.

``stamps.json`` (index/integrity.py) pairs each checked file's inode, size, mtime and ctime
with its digest. These tests count full reads and change files the ways an index gets
damaged: in place at the same size, with the mtime put back, by copying the index.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from caas_tui.config import load_config
from caas_tui.errors import IndexStoreError
from caas_tui.index import integrity
from caas_tui.index.store import IndexStore
from caas_tui.retrieve.engine import Engine


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("stamps") / "proj"
    shutil.copytree(Path(__file__).parent.parent / "sample_project", root, ignore=shutil.ignore_patterns(".caas"))
    Engine.open(root).close()
    return root


@pytest.fixture
def project(built: Path, tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(built, root)  # new inodes: the copy's first open hashes in full
    return root


@pytest.fixture
def full_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the index files read in full to hash them, from now on (a fresh process's view)."""
    seen: list[str] = []
    real = integrity.hashlib.file_digest

    def counting(handle, digest):  # type: ignore[no-untyped-def]
        seen.append(Path(handle.name).name)
        return real(handle, digest)

    monkeypatch.setattr(integrity.hashlib, "file_digest", counting)
    monkeypatch.setattr(integrity, "_SEEN", {})
    # these tests' files were all written just now: count them as settled (see test_racy_...)
    monkeypatch.setattr(integrity, "RACY_S", 0.0)
    return seen


def _open(root: Path) -> list[str]:
    notices: list[str] = []
    Engine.open(root, notify=notices.append).close()
    return notices


def _segment(root: Path) -> Path:
    index = root / ".caas" / "index"
    checked = json.loads((index / "manifest.json").read_text())["checksums"]
    rel = max((r for r in checked if r.startswith("lexical/")), key=lambda r: (index / r).stat().st_size)
    return index / rel


def _flip_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def test_unchanged_index_opens_without_reading_its_files(project: Path, full_reads: list[str]) -> None:
    assert _open(project) == []
    assert full_reads  # the copy: every checked file read once, then stamped
    full_reads.clear()
    integrity._SEEN.clear()  # as a new process would start
    assert _open(project) == []
    assert full_reads == []


def test_same_size_change_in_place_is_still_caught(project: Path, full_reads: list[str]) -> None:
    _open(project)
    segment = _segment(project)
    _flip_byte(segment)
    integrity._SEEN.clear()
    notices = _open(project)
    assert any("corrupt" in n and "rebuilding" in n for n in notices), notices


def test_mtime_put_back_is_still_caught(project: Path, full_reads: list[str]) -> None:
    _open(project)
    segment = _segment(project)
    before = segment.stat()
    _flip_byte(segment)
    os.utime(segment, ns=(before.st_atime_ns, before.st_mtime_ns))  # ctime moves regardless
    assert segment.stat().st_size == before.st_size
    integrity._SEEN.clear()
    notices = _open(project)
    assert any("corrupt" in n and "rebuilding" in n for n in notices), notices


def test_damaged_stamp_file_only_costs_a_full_hash(project: Path, full_reads: list[str]) -> None:
    _open(project)
    stamps = project / ".caas" / "index" / integrity.STAMPS_NAME
    stamps.write_text("{not json")
    integrity._SEEN.clear()
    full_reads.clear()
    assert _open(project) == []
    assert full_reads  # read in full again
    assert json.loads(stamps.read_text())  # and stamped afresh


def test_read_only_open_writes_no_stamps(project: Path, full_reads: list[str]) -> None:
    stamps = project / ".caas" / "index" / integrity.STAMPS_NAME
    before = stamps.read_bytes()  # the copy's stamps name the original's inodes
    store = IndexStore.open(load_config(project), read_only=True)
    store.close()
    assert stamps.read_bytes() == before
    assert full_reads  # so everything was hashed


def test_read_only_open_reports_a_corrupt_file(project: Path, full_reads: list[str]) -> None:
    _open(project)
    _flip_byte(_segment(project))
    integrity._SEEN.clear()
    with pytest.raises(IndexStoreError, match="corrupt"):
        IndexStore.open(load_config(project), read_only=True)


def test_racy_files_are_not_stamped(project: Path, full_reads: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A file changed within RACY_S of its stamp could be rewritten at the same size and
    time stamp (coarse clock ticks): it is hashed in full at every open until it settles."""
    monkeypatch.setattr(integrity, "RACY_S", 3600.0)
    _open(project)
    full_reads.clear()
    integrity._SEEN.clear()
    assert _open(project) == []
    assert full_reads  # nothing was trusted
    monkeypatch.setattr(integrity, "RACY_S", 0.0)
    _open(project)  # settled now: stamped
    full_reads.clear()
    integrity._SEEN.clear()
    _open(project)
    assert full_reads == []
