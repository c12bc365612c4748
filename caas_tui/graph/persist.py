"""``<index dir>/graph.jsonl``: the per-file fragments, schema-versioned, written atomically.

One header line (``{"schema": N, "files": count}``) then one line per file, so a
refresh re-encodes only the files it re-read: every other line is reused as it
was written or read. The store holds fragments as these lines (:class:`FragmentLines`)
and decodes one only when it is read: a build or refresh never needs the objects, which
take ~4.5x the line's size (~0.7 GB at 500k chunks). Only fragments are stored; the
resolved graph is rebuilt from them on load (cheap, and storing it would mean keeping
two things consistent). The file is written while the index manifest says ``dirty`` and
before it says ``clean`` again, so an interrupted write is caught by the
manifest's state like any other half-built part of the index; the line count in
the header catches a truncated file as well.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping, MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from caas_tui.errors import IndexStoreError

if TYPE_CHECKING:
    # Imported where a line is decoded: opening an index for a search only hashes graph.jsonl,
    # and graph/model.py's dataclasses cost a one-shot command several milliseconds (issue 20).
    from caas_tui.graph.model import Fragment

# Bump whenever extraction changes what a fragment holds: an old file is then
# refused and the index rebuilt, instead of silently resolving stale facts.
GRAPH_SCHEMA = 2  # 2: tree-sitter languages' definitions and uses
GRAPH_FILE = "graph.jsonl"

_PATH_KEY = '{"path":'  # ``Fragment.to_json`` puts the path first: a line's key is read without decoding it
_DECODER = json.JSONDecoder()


def _line(fragment: Fragment) -> str:
    return json.dumps(fragment.to_json(), separators=(",", ":"), ensure_ascii=False)


def _line_path(line: str) -> str:
    """The path a fragment line is for; ValueError when it is not a fragment line."""
    if line.startswith(_PATH_KEY + '"'):
        path, _end = _DECODER.raw_decode(line, len(_PATH_KEY))  # the string value alone
        if isinstance(path, str):
            return path
    data = json.loads(line)
    if not isinstance(data, dict) or not isinstance(data.get("path"), str):
        raise ValueError("not a fragment line")
    return data["path"]


class FragmentLines(MutableMapping[str, "Fragment"]):
    """Fragments by path, held as their ``graph.jsonl`` lines. A fragment is decoded when it
    is first read and then kept (the same object on every read), and encoded when it is set."""

    def __init__(self) -> None:
        self._lines: dict[str, str] = {}
        self._decoded: dict[str, Fragment] = {}

    def line(self, path: str) -> str:
        return self._lines[path]

    def put_line(self, path: str, line: str) -> None:
        """Hold ``line`` (a stored fragment line for ``path``) as it is, to decode when read."""
        self._lines[path] = line
        self._decoded.pop(path, None)

    def __getitem__(self, path: str) -> Fragment:
        fragment = self._decoded.get(path)
        if fragment is None:
            line = self._lines[path]  # KeyError: not here
            from caas_tui.graph.model import Fragment

            try:
                fragment = Fragment.from_json(json.loads(line))
            except (KeyError, TypeError, ValueError, IndexError) as exc:
                raise IndexStoreError(f"symbol graph: corrupt fragment of {path} ({exc.__class__.__name__})") from exc
            self._decoded[path] = fragment
        return fragment

    def __setitem__(self, path: str, fragment: Fragment) -> None:
        self._lines[path] = _line(fragment)
        self._decoded.pop(path, None)  # a build sets every file's: keep only the compact line

    def __delitem__(self, path: str) -> None:
        del self._lines[path]
        self._decoded.pop(path, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._lines)

    def __len__(self) -> int:
        return len(self._lines)

    def __contains__(self, path: object) -> bool:
        return path in self._lines


def save_fragments(directory: Path, fragments: Mapping[str, Fragment]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    if isinstance(fragments, FragmentLines):
        lines = [fragments.line(p) for p in sorted(fragments)]
    else:
        lines = [_line(fragments[p]) for p in sorted(fragments)]
    header = json.dumps({"schema": GRAPH_SCHEMA, "files": len(lines)})
    import tempfile  # writers only (a search opens graph.jsonl and writes nothing)

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


def load_fragments(directory: Path) -> FragmentLines:
    """The stored fragments by path. Raises IndexStoreError if missing, corrupt or of another schema."""
    path = directory / GRAPH_FILE
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise IndexStoreError(f"{path}: no symbol graph") from exc
    except OSError as exc:
        raise IndexStoreError(f"{path}: unreadable symbol graph ({exc.__class__.__name__})") from exc
    return parse_fragments(path, data)


def parse_fragments(path: Path, data: bytes) -> FragmentLines:
    """The fragments in ``data``, the bytes of the ``graph.jsonl`` at ``path``. Only each line's
    path is read now (a fragment is decoded when it is read); IndexStoreError if the header,
    the count or a line's path is bad. The index's checksums cover the rest of each line."""
    out = FragmentLines()
    try:
        lines = data.decode("utf-8").split("\n")
        header = _header(path, lines[0])
        body = [line for line in lines[1:] if line]
        if header.get("files") != len(body):
            raise IndexStoreError(f"{path}: symbol graph is truncated")
        for line in body:
            out.put_line(_line_path(line), line)
    except (UnicodeDecodeError, ValueError, IndexError) as exc:
        raise IndexStoreError(f"{path}: corrupt symbol graph ({exc.__class__.__name__})") from exc
    if len(out) != len(body):
        raise IndexStoreError(f"{path}: corrupt symbol graph (a file is listed twice)")
    return out
