"""``<index dir>/graph.jsonl``: the per-file fragments, schema-versioned, written atomically.

One header line (``{"schema": N, "files": count}``) then one line per file, so a
refresh re-encodes only the files it re-read: every other line is reused as it
was written or read. Only fragments are stored; the resolved graph is rebuilt
from them on load (cheap, and storing it would mean keeping two things
consistent). The file is written while the index manifest says ``dirty`` and
before it says ``clean`` again, so an interrupted write is caught by the
manifest's state like any other half-built part of the index; the line count in
the header catches a truncated file as well.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import BinaryIO

from caas_tui.errors import IndexStoreError
from caas_tui.graph.model import Fragment

# Bump whenever extraction changes what a fragment holds: an old file is then
# refused and the index rebuilt, instead of silently resolving stale facts.
GRAPH_SCHEMA = 2  # 2: tree-sitter languages' definitions and uses
GRAPH_FILE = "graph.jsonl"

# Encoded lines by (path, file sha256): a fragment is a pure function of both.
_LINES: dict[tuple[str, str], str] = {}


def _line(fragment: Fragment) -> str:
    key = (fragment.path, fragment.sha256)
    line = _LINES.get(key)
    if line is None:
        line = _LINES[key] = json.dumps(fragment.to_json(), separators=(",", ":"), ensure_ascii=False)
    return line


def save_fragments(directory: Path, fragments: Mapping[str, Fragment]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    lines = [_line(fragments[p]) for p in sorted(fragments)]
    live = {(f.path, f.sha256) for f in fragments.values()}
    for key in [k for k in _LINES if k[0] in fragments and k not in live]:
        del _LINES[key]  # an older version of a file still indexed
    if len(_LINES) > 2 * len(live) + 10_000:  # deleted files, other projects: keep the cache bounded
        for key in [k for k in _LINES if k not in live]:
            del _LINES[key]
    header = json.dumps({"schema": GRAPH_SCHEMA, "files": len(lines)})
    fd, tmp = tempfile.mkstemp(prefix=".graph-", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(header + "\n")
            for line in lines:
                handle.write(line + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, directory / GRAPH_FILE)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _header(path: Path, line: str) -> dict[str, object]:
    header = json.loads(line)
    schema = header.get("schema") if isinstance(header, dict) else None
    if schema != GRAPH_SCHEMA:
        raise IndexStoreError(f"{path}: symbol graph is schema v{schema}, this version needs v{GRAPH_SCHEMA}")
    return header


class StoredFragments:
    """``graph.jsonl`` as it was when opened: the header is checked now, the fragments are
    read on demand from the same open file, so a writer replacing it meanwhile (a new file,
    ``os.replace``) cannot mix its graph into this reader's index.

    Raises IndexStoreError if the file is missing, of another schema or its header is bad.
    """

    def __init__(self, directory: Path) -> None:
        self.path = directory / GRAPH_FILE
        try:
            self._handle: BinaryIO | None = self.path.open("rb")
        except FileNotFoundError as exc:
            raise IndexStoreError(f"{self.path}: no symbol graph") from exc
        except OSError as exc:
            raise IndexStoreError(f"{self.path}: unreadable symbol graph ({exc.__class__.__name__})") from exc
        try:
            files = _header(self.path, self._handle.readline().decode("utf-8")).get("files")
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            self.close()
            raise IndexStoreError(f"{self.path}: corrupt symbol graph ({exc.__class__.__name__})") from exc
        except IndexStoreError:
            self.close()
            raise
        if not isinstance(files, int) or isinstance(files, bool):
            self.close()
            raise IndexStoreError(f"{self.path}: corrupt symbol graph (bad header)")
        self.count = files

    def read(self) -> bytes:
        """The whole file (once: the handle is closed after)."""
        if self._handle is None:
            raise IndexStoreError(f"{self.path}: symbol graph already read")
        try:
            self._handle.seek(0)
            return self._handle.read()
        except OSError as exc:
            raise IndexStoreError(f"{self.path}: unreadable symbol graph ({exc.__class__.__name__})") from exc
        finally:
            self.close()

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def load_fragments(directory: Path) -> dict[str, Fragment]:
    """The stored fragments by path. Raises IndexStoreError if missing, corrupt or of another schema."""
    path = directory / GRAPH_FILE
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise IndexStoreError(f"{path}: no symbol graph") from exc
    except OSError as exc:
        raise IndexStoreError(f"{path}: unreadable symbol graph ({exc.__class__.__name__})") from exc
    return parse_fragments(path, data)


def parse_fragments(path: Path, data: bytes) -> dict[str, Fragment]:
    """The fragments in ``data``, the bytes of the ``graph.jsonl`` at ``path``."""
    try:
        lines = data.decode("utf-8").split("\n")
    except UnicodeDecodeError as exc:
        raise IndexStoreError(f"{path}: unreadable symbol graph ({exc.__class__.__name__})") from exc
    try:
        header = _header(path, lines[0])
        body = [line for line in lines[1:] if line]
        if header.get("files") != len(body):
            raise IndexStoreError(f"{path}: symbol graph is truncated")
        out: dict[str, Fragment] = {}
        for line in body:
            fragment = Fragment.from_json(json.loads(line))
            out[fragment.path] = fragment
            _LINES[(fragment.path, fragment.sha256)] = line
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise IndexStoreError(f"{path}: corrupt symbol graph ({exc.__class__.__name__})") from exc
    return out
