"""``<index dir>/graph.json``: the per-file fragments, schema-versioned, written atomically.

Only fragments are stored; the resolved graph is rebuilt from them on load (it
is cheap, and storing it would mean keeping two things consistent). The file is
written while the index manifest says ``dirty`` and before it says ``clean``
again, so an interrupted write is caught by the manifest's state like any other
half-built part of the index.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

from caas_tui.errors import IndexStoreError
from caas_tui.graph.model import Fragment

# Bump whenever extraction changes what a fragment holds: an old graph.json is then
# refused and the index rebuilt, instead of silently resolving stale facts.
GRAPH_SCHEMA = 1
GRAPH_FILE = "graph.json"


def save_fragments(directory: Path, fragments: Mapping[str, Fragment]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    payload = {"schema": GRAPH_SCHEMA, "fragments": [fragments[p].to_json() for p in sorted(fragments)]}
    fd, tmp = tempfile.mkstemp(prefix=".graph-", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(payload, handle, separators=(",", ":"))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, directory / GRAPH_FILE)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_fragments(directory: Path) -> dict[str, Fragment]:
    """The stored fragments by path. Raises IndexStoreError if missing, corrupt or of another schema."""
    path = directory / GRAPH_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise IndexStoreError(f"{path}: no symbol graph") from exc
    except (OSError, ValueError) as exc:
        raise IndexStoreError(f"{path}: unreadable symbol graph ({exc.__class__.__name__})") from exc
    if not isinstance(data, dict) or data.get("schema") != GRAPH_SCHEMA:
        found = data.get("schema") if isinstance(data, dict) else None
        raise IndexStoreError(f"{path}: symbol graph is schema v{found}, this version needs v{GRAPH_SCHEMA}")
    try:
        frags = [Fragment.from_json(item) for item in data.get("fragments", [])]
    except (KeyError, TypeError, ValueError) as exc:
        raise IndexStoreError(f"{path}: corrupt symbol graph ({exc.__class__.__name__})") from exc
    return {f.path: f for f in frags}
