"""Dense text encoders: model2vec static embeddings (default) and a hashing fake.

``load_encoder(spec)`` is the one entry point the index uses:

- ``None`` (or blank): the model shipped in ``caas_tui/assets/model/`` (a model2vec
  static model of all-MiniLM-L6-v2, 256 dims, trained on code and docstrings with
  tokenlearn by ``scripts/train_static_model.py``), loaded once per process;
- an existing directory: a model2vec model folder;
- anything else: a Hugging Face hub id, loaded with model2vec's own
  ``StaticModel.from_pretrained`` (uses the local HF cache; fails offline when the
  model was never downloaded);
- ``st:MODEL[?query_prefix=...]``: a sentence-transformers model (hub id or folder;
  optional extra ``caas-tui[transformers]``), see ``encoders_st.py``.

Every failure is a one-line :class:`~caas_tui.errors.ModelError`. model2vec
inference is numpy only: nothing here imports torch.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import os
import re
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from caas_tui.errors import ModelError
from caas_tui.index.protocols import Encoder
from caas_tui.index.vectors import normalize_rows

if TYPE_CHECKING:
    from model2vec import StaticModel

DEFAULT_MODEL_NAME = "caas-default/minilm-l6-tokenlearn-code-256"  # scripts/train_static_model.py
WEIGHTS_GLOB = "*.safetensors"

_default_lock = threading.Lock()
_default_encoder: Model2VecEncoder | None = None


class Model2VecEncoder:
    """Wraps a loaded ``model2vec.StaticModel`` as an :class:`Encoder`.

    model2vec models are symmetric (no query/passage prefixes), so ``query`` is
    accepted for the protocol and ignored.
    """

    def __init__(self, model: StaticModel, model_id: str) -> None:
        self._model = model
        self.model_id = model_id
        self.dims = int(model.dim)

    def encode(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        if len(texts) == 0:
            return np.zeros((0, self.dims), dtype=np.float32)
        # We normalise ourselves: model2vec adds 1e-32 to the norm and returns the
        # weights' dtype (float16), while the index wants float32 and exact zeros.
        # Multiprocessing off: it spawns a joblib pool we don't want on 2 shared cores.
        raw = self._model.encode(list(texts), normalize=False, use_multiprocessing=False)
        return normalize_rows(np.atleast_2d(raw))

    def __repr__(self) -> str:
        return f"Model2VecEncoder({self.model_id!r}, dims={self.dims})"


class HashingEncoder:
    """Deterministic feature-hashing encoder: a fake for tests and a no-model fallback.

    Not a semantic model and never used by default. Each code-aware token (whole
    identifiers lowercased, plus their snake_case/camelCase parts) adds +-1 to one
    of ``dims`` buckets chosen by blake2b, so results are identical across
    processes and platforms; texts sharing identifiers get a positive cosine.
    """

    _IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")
    _PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z]|[0-9]|\b)|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")

    def __init__(self, dims: int = 64) -> None:
        if dims < 1:
            raise ValueError("dims must be positive")
        self.dims = dims
        self.model_id = f"hashing-v1/{dims}"

    @classmethod
    def tokens(cls, text: str) -> list[str]:
        out: list[str] = []
        for ident in cls._IDENT.findall(text):
            out.append(ident.lower())
            parts = [p.lower() for piece in ident.split("_") for p in cls._PARTS.findall(piece)]
            if len(parts) > 1:
                out.extend(parts)
        return out

    def encode(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        out = np.zeros((len(texts), self.dims), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in self.tokens(text):
                h = int.from_bytes(hashlib.blake2b(token.encode(), digest_size=8).digest(), "little")
                out[row, h % self.dims] += 1.0 if (h >> 63) & 1 else -1.0
        return normalize_rows(out)


def default_model_dir() -> Path:
    """Absolute path of the shipped model folder."""
    return Path(str(importlib.resources.files("caas_tui") / "assets" / "model")).resolve()


def weights_digest(folder: Path, spec: str | None = None) -> str:
    """First 12 hex digits of sha256 over the folder's ``*.safetensors`` files.

    A folder has one weights file in practice, so this is that file's sha256. Only
    the top level and one below are searched (model2vec and sentence-transformers
    layouts), so pointing at a big tree by mistake stays cheap.
    """
    name = f"embedding model {spec or str(folder)!r}"
    files = sorted([*folder.glob(WEIGHTS_GLOB), *folder.glob(f"*/{WEIGHTS_GLOB}")])
    if not files:
        raise ModelError(f"{name}: no model weights (*.safetensors) in {folder}")
    digest = hashlib.sha256()
    try:
        for path in files:
            with path.open("rb") as handle:
                for block in iter(lambda: handle.read(1 << 20), b""):
                    digest.update(block)
    except OSError as exc:
        raise ModelError(f"{name}: cannot read {exc.filename} ({exc.strerror})") from exc
    return digest.hexdigest()[:12]


@contextmanager
def _hub_offline() -> Iterator[None]:
    """Forbid hub access while loading a local folder, then restore the old setting.

    huggingface_hub reads ``HF_HUB_OFFLINE`` once at import, so the cached constant
    is flipped too. Process-wide for the duration of the load.
    """
    from huggingface_hub import constants  # a model2vec dependency

    old_env = os.environ.get("HF_HUB_OFFLINE")
    old_const = constants.HF_HUB_OFFLINE
    os.environ["HF_HUB_OFFLINE"] = "1"
    constants.HF_HUB_OFFLINE = True
    try:
        yield
    finally:
        constants.HF_HUB_OFFLINE = old_const
        if old_env is None:
            os.environ.pop("HF_HUB_OFFLINE", None)
        else:
            os.environ["HF_HUB_OFFLINE"] = old_env


def _first_line(exc: BaseException) -> str:
    for line in str(exc).splitlines():
        if line.strip():
            return f"{type(exc).__name__}: {line.strip()[:200]}"
    return type(exc).__name__


def _load_static(source: str, spec: str, *, local: bool) -> StaticModel:
    try:
        from model2vec import StaticModel
    except ImportError as exc:
        raise ModelError(f"cannot load embedding model {spec!r}: model2vec is not installed") from exc
    try:
        if local:
            with _hub_offline():
                return StaticModel.from_pretrained(source)
        # force_download=False: reuse the HF cache instead of refetching every start.
        return StaticModel.from_pretrained(source, force_download=False)
    except Exception as exc:
        # Deliberately broad: model2vec, tokenizers, safetensors and huggingface_hub
        # raise unrelated types (some plain Exception); all mean "unusable model".
        raise ModelError(f"cannot load embedding model {spec!r}: {_first_line(exc)}") from exc


def _looks_like_path(spec: str) -> bool:
    # Hub ids are "name" or "org/name"; anything else that doesn't exist is a typo'd
    # path, and passing it on would make model2vec silently try the hub.
    return (
        spec.startswith((".", "~"))
        or "\\" in spec
        or spec.count("/") > 1
        or Path(spec).is_absolute()
    )


def _load_default() -> Model2VecEncoder:
    global _default_encoder
    with _default_lock:
        if _default_encoder is None:
            folder = default_model_dir()
            if not folder.is_dir():
                raise ModelError(f"the shipped embedding model is missing ({folder}); reinstall caas-tui")
            digest = weights_digest(folder, "default")
            model = _load_static(str(folder), "default", local=True)
            _default_encoder = Model2VecEncoder(model, f"{DEFAULT_MODEL_NAME}@{digest}")
        return _default_encoder


def load_encoder(spec: str | None = None) -> Encoder:
    """Return the encoder named by ``spec`` (see module docstring); raises ModelError."""
    if spec is None or not spec.strip():
        return _load_default()
    spec = spec.strip()
    # -- encoder selection by spec prefix (sentence-transformers, optional extra) --
    if spec.startswith("st:"):
        from caas_tui.index.encoders_st import load_st_encoder

        return load_st_encoder(spec)
    # -- end encoder selection --
    path = Path(spec).expanduser()
    if path.exists():
        folder = path.resolve()
        if not folder.is_dir():
            raise ModelError(f"embedding model {spec!r} is not a model2vec model folder")
        digest = weights_digest(folder, spec)
        model = _load_static(str(folder), spec, local=True)
        return Model2VecEncoder(model, f"path:{folder}@{digest}")
    if _looks_like_path(spec):
        raise ModelError(f"embedding model folder not found: {spec}")
    return Model2VecEncoder(_load_static(spec, spec, local=False), spec)
