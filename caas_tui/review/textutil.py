"""Line and hash helpers shared by claims, the reviewers, the store and the patcher.

"Lines" always means ``text.split("\\n")`` (never ``splitlines``, which also breaks on
form feeds and would shift line numbers). Hashes ignore a trailing ``\\r`` so a doc read
with universal newlines and one read as raw bytes hash the same.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from caas_tui.errors import CaasError
from caas_tui.models import Chunk


def split_lines(text: str) -> list[str]:
    """The file's lines; a final newline does not open an extra line."""
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return lines


def lines_sha256(lines: Sequence[str]) -> str:
    joined = "\n".join(line.removesuffix("\r") for line in lines)
    return hashlib.sha256(joined.encode("utf-8", "surrogatepass")).hexdigest()


def span_sha256(lines: Sequence[str], start: int, end: int) -> str:
    """Hash of lines ``start..end`` (1-based, inclusive) of ``lines``."""
    return lines_sha256(lines[max(start, 1) - 1 : max(end, 0)])


def text_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def evidence_sha256(chunks: Sequence[Chunk]) -> str:
    """Content hash of the chunks a span overlaps: the chunk's own sha256 when there is one,
    else sha256 of their texts joined by newlines in line order. The Claude reviewer pins
    evidence with it; the staleness check recomputes it with the same chunks."""
    if len(chunks) == 1:
        return chunks[0].sha256
    return hashlib.sha256("\n".join(c.text for c in chunks).encode("utf-8")).hexdigest()


def normalise_ws(text: str) -> str:
    return " ".join(text.split())


def read_text(path: Path) -> str:
    """Decode a project file as UTF-8 without newline translation (CRLF stays visible)."""
    try:
        return path.read_bytes().decode("utf-8", errors="replace")
    except OSError as exc:
        raise CaasError(f"{path}: cannot read ({exc.strerror or exc})") from exc


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``1 change``, ``2 changes``, ``0 fixes`` (``plural`` when adding an s is wrong)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
