"""Read one discovered file into a ``SourceFile`` (or say why it cannot be)."""

from __future__ import annotations

import codecs
import hashlib
import os
import re

from caas_tui.config import Config
from caas_tui.models import SourceFile
from caas_tui.sources.entries import FileEntry, Skipped, format_size, kind_of, language_of

BINARY_SNIFF_BYTES = 8192
# surrogateescape turns each undecodable byte into exactly one of these, which
# gives an honest byte count ("replace" may fold several bytes into one U+FFFD).
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")


def load(cfg: Config, entry: FileEntry) -> SourceFile | Skipped:
    """Read, sniff, decode and hash ``entry``. Never raises for a bad file."""
    path = entry.path
    root = os.path.realpath(cfg.root)
    full = os.path.join(root, path)
    real = os.path.realpath(full)
    if not real.startswith(root + os.sep):
        # Entries can come from callers other than discover() (the file watcher);
        # a path escaping the root is never read.
        return Skipped(path, f"{path}: outside the project root")
    try:
        with open(full, "rb") as fh:
            # One byte over the cap is enough to know the file grew past it.
            data = fh.read(cfg.max_file_bytes + 1)
            st = os.fstat(fh.fileno())
    except FileNotFoundError:
        return Skipped(path, f"{path}: vanished since it was discovered")
    except IsADirectoryError:
        return Skipped(path, f"{path}: is now a directory")
    except OSError as exc:
        return Skipped(path, f"{path}: cannot read ({exc.strerror or exc})")
    if len(data) > cfg.max_file_bytes:
        cap = format_size(cfg.max_file_bytes)
        return Skipped(path, f"{path}: over the {cap} size cap ({format_size(st.st_size)})")
    if b"\0" in data[:BINARY_SNIFF_BYTES]:
        return Skipped(path, f"{path}: binary file (NUL byte in the first 8 KB)")

    text, warning = decode(path, data)
    return SourceFile(
        path=path,
        kind=entry.kind,
        language=entry.language,
        text=text,
        mtime=st.st_mtime,
        sha256=hashlib.sha256(data).hexdigest(),
        size=len(data),
        warnings=(warning,) if warning else (),
    )


def load_path(cfg: Config, rel: str) -> SourceFile | Skipped:
    """``load`` for a root-relative path named by a user (``review DOC``, the app, MCP):
    the same size cap and binary sniff as indexing, whatever the front end."""
    try:
        st = os.stat(os.path.join(cfg.root, rel))
    except OSError as exc:
        return Skipped(rel, f"{rel}: cannot read ({exc.strerror or exc})")
    language = language_of(rel) or "text"
    entry = FileEntry(rel, kind_of(rel, language, cfg.upstream), language, st.st_size, st.st_mtime)
    return load(cfg, entry)


def decode(path: str, data: bytes) -> tuple[str, str | None]:
    """UTF-8 (BOM tolerated) with newlines normalised to ``\\n``; bad bytes become
    U+FFFD and produce a one-line warning instead of failing the file."""
    body = data[len(codecs.BOM_UTF8) :] if data.startswith(codecs.BOM_UTF8) else data
    warning = None
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        bad = len(_ESCAPED_BYTE.findall(body.decode("utf-8", "surrogateescape")))
        text = body.decode("utf-8", "replace")
        warning = f"{path}: not valid UTF-8, {bad} byte{'' if bad == 1 else 's'} replaced"
    if "\r" in text:
        # CRLF -> LF so every consumer splits lines the same way. A lone CR is a
        # line break for Python's tokenizer too, so converting it keeps ast line
        # numbers and our line spans in agreement.
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, warning
