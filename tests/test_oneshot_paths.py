"""What a one-shot ``caas-tui search`` pays for besides the search itself (issue 20): the
collector while the command is imported, the manifest's checks, the token rows' memory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from caas_tui.errors import IndexStoreError
from caas_tui.index.manifest import FileRecord, Manifest, read_manifest, write_manifest

_GC_RUNNER = """
import gc, json, sys
from caas_tui.cli import main as cli
counting = [False]
seen = []
gc.callbacks.append(lambda phase, info: seen.append(info["generation"]) if phase == "start" and counting[0] else None)
build = cli.build_parser
def built(command):
    parser = build(command)
    counting[0] = False  # the command is imported: what runs from here on is the command itself
    return parser
cli.build_parser = built
real = cli._main
def started(args, **kw):
    counting[0] = True
    return real(args, **kw)
cli._main = started
sys.argv = ["caas-tui", *sys.argv[1:]]
rc = cli.main()
print(json.dumps({"rc": rc, "collections": seen, "models": "caas_tui.models" in sys.modules}))
"""


def test_the_program_runs_no_collection_while_it_imports_the_command(tmp_path: Path) -> None:
    """From ``main()`` until the command's module is imported and frozen the collector is off:
    importing the command makes objects that live as long as the process, and a pass over them
    frees nothing. (It was paused only after importing the pause helper's package, which loads
    ``caas_tui.models``: dataclasses, inspect.)"""
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    # a command whose import is the whole run: --help of search imports its module, prints, exits 0
    proc = subprocess.run([sys.executable, "-c", _GC_RUNNER.replace("rc = cli.main()", "rc = 0\ntry:\n    cli.main()\n"
                                                                    "except SystemExit as exc:\n    rc = exc.code"),
                           "search", "--help"], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    state = json.loads(proc.stdout.splitlines()[-1])
    assert state["rc"] == 0 and state["models"] is True  # the import did make caas_tui.models
    assert state["collections"] == []


def _manifest_with(chunks: object) -> dict[str, object]:
    good = Manifest(model_id="m", dims=4, state="clean",
                    files={"a.py": FileRecord(sha256="0" * 64, mtime=1.0, size=3, kind="code", chunks=["x1", "x2"])})
    data = good.to_json()
    data["files"]["a.py"]["chunks"] = chunks  # type: ignore[index]
    return data


@pytest.mark.parametrize("chunks", [["x1", 2], ["x1", None], [["x1"]], ["x1", 1.5], "x1", {"x1": 1}])
def test_a_manifest_whose_chunk_ids_are_not_strings_is_unreadable(tmp_path: Path, chunks: object) -> None:
    (tmp_path / "manifest.json").write_text(json.dumps(_manifest_with(chunks)), encoding="utf-8")
    with pytest.raises(IndexStoreError, match="chunks of 'a.py' are not a list of ids"):
        read_manifest(tmp_path)


def test_a_manifest_reads_back_as_written(tmp_path: Path) -> None:
    written = Manifest(model_id="m", dims=4, state="clean", checksums={"chunks.sqlite": "ab"},
                       files={"a.py": FileRecord(sha256="0" * 64, mtime=1.5, size=3, kind="code", chunks=["x1", "x2"]),
                              "b.md": FileRecord(sha256="1" * 64, mtime=2.0, size=9, kind="doc", chunks=[])})
    write_manifest(tmp_path, written)
    read = read_manifest(tmp_path)
    assert read is not None and read.to_json() == written.to_json()


_TOKEN_ROWS = """
import tracemalloc
import numpy as np
from caas_tui.index.encoders import load_encoder
from caas_tui.retrieve.tokenstage import TokenVectors

enc = load_encoder("")
assert isinstance(enc, TokenVectors)
table = enc._model.embedding  # load the table before measuring
ids = np.arange(0, len(table), len(table) // 50)[:50]
table_bytes = len(table) * table.shape[1] * 4
tracemalloc.start()
try:
    units, norms = enc.token_rows(ids)
    units2, _ = enc.token_rows(ids[::-1])  # known rows: nothing new is kept
    _, peak = tracemalloc.get_traced_memory()
finally:
    tracemalloc.stop()
assert units.shape == (50, table.shape[1]) and np.array_equal(units2, units[::-1])
assert peak < table_bytes / 20, (peak, table_bytes)
rows = np.asarray(table[ids], dtype=np.float32)
found = np.linalg.norm(rows, axis=1)
assert np.array_equal(norms, found) and np.array_equal(units, rows / np.where(found > 0, found, 1.0)[:, None])
"""


def test_token_rows_hold_only_the_rows_asked_for() -> None:
    """A one-shot search asks for a few hundred of the table's ~30k rows: what is kept for them
    is about their size, not a table-sized buffer (numpy asks for huge pages on big arrays, and
    each row written into one cost a page fault). The rows stay the table's rows made unit
    length (tests/test_tokenstage.py). Measured in a fresh interpreter: in a long test run,
    other tests' threads and caches allocate while tracemalloc traces."""
    done = subprocess.run([sys.executable, "-c", _TOKEN_ROWS], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
