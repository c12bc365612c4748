"""A pooled build's workers make the token-stage blobs and vectors of their chunks: the same
bytes and rows this process makes for a chunk (tokenids.token_blobs, the encoder)."""

from __future__ import annotations

import threading
from functools import partial

import numpy as np
import pytest

import caas_tui.index.refresh as refresh_module
from caas_tui.index.encoders import load_encoder
from caas_tui.index.refresh import embed_text
from caas_tui.index.tokenids import token_blobs
from caas_tui.models import SourceFile


def _files(n: int) -> list[SourceFile]:
    return [SourceFile(path=f"pkg/m{i}.py", kind="code", language="python", mtime=0.0, size=0, sha256=f"{i:064x}",
                       text=f'def fetchUserName{i}(request_id):\n    """Look the user up by id {i}."""\n'
                            f"    return HTTPClient().get(request_id) + {i}\n\n\n"
                            f"class Cache{i}:\n    def get_or_create(self, key):\n        return key * {i}\n")
            for i in range(n)]


@pytest.mark.skipif(threading.active_count() > 1, reason="fork copies one thread: chunking stays in-process")
def test_workers_make_the_blobs_and_vectors_this_process_would(monkeypatch: pytest.MonkeyPatch) -> None:
    encoder = load_encoder(None)
    files = _files(23)
    tokens = partial(token_blobs, encoder)
    inline = list(refresh_module.chunk_files(files, encoder, tokens=tokens))
    assert all(computed.tokens is None and computed.vectors is None for _c, _f, _w, computed in inline)
    monkeypatch.setattr(refresh_module, "POOL_MIN_FILES", 0)
    monkeypatch.setattr(refresh_module, "POOL_MIN_BYTES", 0)
    monkeypatch.setattr(refresh_module.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(refresh_module, "FILES_PER_TASK", 2)
    monkeypatch.setattr(refresh_module, "BEHIND_TASKS", -1)  # the worker always embeds too
    pooled = list(refresh_module.chunk_files(files, encoder, tokens=tokens))
    assert [(c, f) for c, f, _w, _x in pooled] == [(c, f) for c, f, _w, _x in inline]
    for chunks, _f, _w, computed in pooled:
        assert computed.tokens is not None and len(computed.tokens) == len(chunks)
        assert computed.tokens == token_blobs(encoder, chunks)
        assert all(blob for blob in computed.tokens)
        assert computed.vectors is not None
        np.testing.assert_array_equal(computed.vectors, encoder.encode([embed_text(c) for c in chunks]))
