"""Opening the vector index parses ``ids.json`` once (issue 20).

At stdlib scale the file lists ~15k chunk ids: ``load_vector_index`` parsed it to find the
backend and the backend's loader parsed it again (and the clustered one a third time for its
lists), a few ms of every one-shot search. The loaders now take the parsed file; the checks
on it (format version, backend) are unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from caas_tui.errors import IndexStoreError
from caas_tui.index.vecfiles import IDS_FILE
from caas_tui.index.vectors import ClusteredVectorIndex, ExactVectorIndex, load_vector_index


def _saved(directory: Path, index: ExactVectorIndex) -> Path:
    rng = np.random.default_rng(0)
    vecs = rng.standard_normal((6, 4)).astype(np.float32)
    index.upsert([f"c{i}" for i in range(6)], vecs)
    index.save(directory)
    return directory


def _count_ids_parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    parses: list[int] = []
    real = json.loads

    def counting(text: Any, *args: Any, **kwargs: Any) -> Any:
        value = real(text, *args, **kwargs)
        if isinstance(value, dict) and "ids" in value:
            parses.append(1)
        return value

    monkeypatch.setattr(json, "loads", counting)
    return parses


@pytest.mark.parametrize("kind", [ExactVectorIndex, ClusteredVectorIndex])
def test_load_vector_index_parses_ids_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           kind: type[ExactVectorIndex]) -> None:
    directory = _saved(tmp_path / "vec", kind(4))
    parses = _count_ids_parses(monkeypatch)
    loaded = load_vector_index(directory)
    assert type(loaded) is kind and len(loaded) == 6
    assert len(parses) == 1


def test_a_parsed_meta_is_checked_like_a_read_one(tmp_path: Path) -> None:
    directory = _saved(tmp_path / "vec", ExactVectorIndex(4))
    meta = json.loads((directory / IDS_FILE).read_text(encoding="utf-8"))
    assert len(ExactVectorIndex.load(directory, meta)) == 6
    with pytest.raises(IndexStoreError, match="not a version"):
        ExactVectorIndex.load(directory, {**meta, "version": -1})
    with pytest.raises(IndexStoreError, match="not a version"):
        ClusteredVectorIndex.load(directory, meta)  # the file names the exact backend
    (directory / IDS_FILE).write_text('["not", "a", "dict"]', encoding="utf-8")
    with pytest.raises(IndexStoreError):
        load_vector_index(directory)
