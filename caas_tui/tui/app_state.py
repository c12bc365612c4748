"""What the app remembers between runs (the last doc opened), in the project's index dir.

Best effort: a missing, unreadable or malformed file means "nothing remembered", and a
failed write only loses the memory, never the writer's work.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

FILE = "app-state.json"


def last_doc(index_dir: Path) -> str | None:
    try:
        data = json.loads((index_dir / FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    doc = data.get("last_doc") if isinstance(data, dict) else None
    return doc if isinstance(doc, str) else None


def remember_doc(index_dir: Path, path: str) -> None:
    target = index_dir / FILE
    tmp = target.with_suffix(".tmp")
    try:
        index_dir.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps({"last_doc": path}), encoding="utf-8")
        os.replace(tmp, target)  # atomic: two apps on one project never leave half a file
    except OSError:
        return
