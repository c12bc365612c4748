"""model2vec static embeddings: the default encoder family (numpy only, no torch).

Specs without a registered prefix land here:

- ``None`` (or blank): the model shipped in ``caas_tui/assets/model/`` (a model2vec
  static model of all-MiniLM-L6-v2, 256 dims, trained on code and docstrings with
  tokenlearn by ``scripts/train_static_model.py``), loaded once per process;
- an existing directory: a model2vec model folder;
- anything else: a Hugging Face hub id, loaded with model2vec's own
  ``StaticModel.from_pretrained`` (uses the local HF cache; fails offline when the
  model was never downloaded).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

import numpy as np

from caas_tui.errors import ModelError
from caas_tui.index.encoders.common import (
    CAMEL_WORDS_TAG,
    camel_words,
    first_line,
    hub_offline,
    looks_like_path,
    weights_digest,
)
from caas_tui.index.vectors import normalize_rows

if TYPE_CHECKING:
    from model2vec import StaticModel

    from caas_tui.index.encoders.plainstatic import PlainStaticModel

    # what Model2VecEncoder wraps: model2vec's class, or the same forward pass without it
    StaticLike: TypeAlias = StaticModel | PlainStaticModel

# scripts/train_static_model.py. The tag is part of the id because the shipped model embeds
# camelCase split into words (see Model2VecEncoder): vectors made without it are not comparable,
# so an index built before the split is rebuilt instead of mixing the two.
DEFAULT_MODEL_NAME = f"caas-default/minilm-l6-tokenlearn-code-256+{CAMEL_WORDS_TAG}"

# token_ids: the tokenizer's own first split (whitespace, then each punctuation character alone)
_PIECES = re.compile(r"\w+|[^\w\s]")
# the same pieces of an ASCII text, found in half the time: Unicode \s also holds \x1c-\x1f
_ASCII_PIECES = re.compile(r"[A-Za-z0-9_]+|[^A-Za-z0-9_\s\x1c-\x1f]", re.ASCII)
_WORDS_KEPT = 200_000

_default_lock = threading.Lock()
_default_encoder: Model2VecEncoder | None = None


class Model2VecEncoder:
    """Wraps a ``model2vec.StaticModel`` as an :class:`Encoder`.

    model2vec models are symmetric (no query/passage prefixes), so ``query`` is
    accepted for the protocol and ignored. ``model`` may be a loader called on the
    first ``encode``, with ``dims`` given up front: the shipped model's id and width
    are known without loading it, so a command that never embeds (``status``, a bm25
    search, an up-to-date index) never pays for model2vec and the tokenizer.

    ``split_words`` rewrites camelCase identifiers as their words in documents and
    queries alike (:func:`~caas_tui.index.encoders.common.camel_words`): the shipped
    model's prose WordPiece vocabulary cuts ``toPromise`` into ``top ##rom ##ise``.
    On for the shipped model, whose id carries the tag; off for other folders and hub
    models, whose tokenizers were not measured with it.
    """

    def __init__(self, model: StaticLike | Callable[[], StaticLike], model_id: str,
                 dims: int | None = None, *, split_words: bool = False) -> None:
        self._lock = threading.Lock()
        self._loader: Callable[[], StaticLike] | None = None
        self._loaded: StaticLike | None = None
        if callable(model) and dims is not None:
            self._loader = model
            self.dims = dims
        else:
            self._loaded = model if not callable(model) else model()
            self.dims = int(self._loaded.dim)
        self.model_id = model_id
        self.split_words = split_words
        self._word_ids: dict[str, list[int]] = {}  # token_ids: each word's ids, tokenized once
        # token_rows: unit rows and norms of the table, each row computed on its first request and
        # kept in the order computed; _slots maps a table row to its place there (-1: not yet)
        self._slots: np.ndarray | None = None
        self._units = np.empty((0, self.dims), dtype=np.float32)
        self._norms = np.empty(0, dtype=np.float32)
        self._filled = 0

    @property
    def _model(self) -> StaticLike:
        with self._lock:
            if self._loaded is None:
                assert self._loader is not None
                model = self._loader()
                if int(model.dim) != self.dims:
                    raise ModelError(f"embedding model {self.model_id!r} has {model.dim} dims, its config says {self.dims}")
                self._loaded = model
            return self._loaded

    def encode(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        if len(texts) == 0:
            return np.zeros((0, self.dims), dtype=np.float32)
        # We normalise ourselves: model2vec adds 1e-32 to the norm and returns the
        # weights' dtype (float16), while the index wants float32 and exact zeros.
        # Multiprocessing off: it spawns a joblib pool we don't want on 2 shared cores.
        batch = [camel_words(t) for t in texts] if self.split_words else list(texts)
        raw = self._model.encode(batch, normalize=False, use_multiprocessing=False)
        return normalize_rows(np.atleast_2d(raw))

    def token_ids(self, texts: Sequence[str]) -> list[np.ndarray] | None:
        """Per text, the distinct ids of the tokens :meth:`encode` averages, up to the model's length
        limit (``retrieve/tokenstage.py``); None when the model is not the plain table this reads.

        Each word is tokenized once per encoder and remembered: the tokenizer splits at whitespace
        and punctuation first, so a text's set of ids is the union of its distinct words' (and code
        repeats its words across chunks: tokenizing the words seen for the first time is a small
        part of tokenizing the candidates of a search whole). The build computes this for every
        chunk (``index/tokenids.py``): an ASCII text is split with the ASCII pattern, and each word
        counted once.
        """
        from caas_tui.index.encoders.plainstatic import PlainStaticModel

        model = self._model
        if not isinstance(model, PlainStaticModel) or model.embedding.dtype == np.int8:
            return None
        words = [set((_ASCII_PIECES if t.isascii() else _PIECES).findall(t)) for t in texts]
        with self._lock:
            known = self._word_ids
            new = list(dict.fromkeys(w for row in words for w in row if w not in known))
            if new:
                if len(known) + len(new) > _WORDS_KEPT:
                    known.clear()
                    new = list(dict.fromkeys(w for row in words for w in row))
                batch = [camel_words(w) for w in new] if self.split_words else new
                for word, ids in zip(new, model.token_ids(batch), strict=True):
                    known[word] = ids
            rows = [set().union(*[known[w] for w in row]) for row in words]
        return [np.array(sorted(row), dtype=np.int32) for row in rows]

    def token_rows(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The table's rows for ``ids`` as unit vectors (float32) and their raw norms."""
        table = self._model.embedding
        ids = np.asarray(ids, dtype=np.intp)
        with self._lock:
            if self._slots is None:
                self._slots = np.full(len(table), -1, dtype=np.int32)
            slots = self._slots
            # distinct, in order (np.unique would import numpy.ma)
            new = np.fromiter(dict.fromkeys(ids[slots[ids] < 0].tolist()), dtype=np.intp)
            if len(new):
                # Only the rows asked for are stored, packed: a table-sized buffer (30 MB for the
                # shipped model) cost a one-shot search a page fault per row it touched, and numpy
                # asks for huge pages on big arrays. A row's unit vector and norm do not depend on
                # which rows are computed with it.
                rows = np.asarray(table[new], dtype=np.float32).reshape(len(new), self.dims)
                found = np.linalg.norm(rows, axis=1)
                end = self._filled + len(new)
                if end > len(self._units):
                    size = max(end, 2 * len(self._units))
                    self._units = np.concatenate([self._units[:self._filled],
                                                  np.empty((size - self._filled, self.dims), dtype=np.float32)])
                    self._norms = np.concatenate([self._norms[:self._filled],
                                                  np.empty(size - self._filled, dtype=np.float32)])
                self._units[self._filled:end] = rows / np.where(found > 0, found, 1.0)[:, None]
                self._norms[self._filled:end] = found
                slots[new] = np.arange(self._filled, end, dtype=np.int32)
                self._filled = end
            where = slots[ids]
            return self._units[where], self._norms[where]

    def __repr__(self) -> str:
        return f"Model2VecEncoder({self.model_id!r}, dims={self.dims}, split_words={self.split_words})"


def default_model_dir() -> Path:
    """Absolute path of the shipped model folder."""
    # the package's own folder, as importlib.resources.files("caas_tui") names it for an
    # installed (not zipped) package, without importing the resource readers (and zipfile)
    import caas_tui

    return (Path(caas_tui.__file__).parent / "assets" / "model").resolve()


# The plain model2vec folder layout (what save_pretrained writes and what we ship).
_PLAIN_LAYOUT = ("model.safetensors", "tokenizer.json", "config.json")


def _load_plain_folder(folder: Path) -> StaticLike:
    """A plain model2vec folder without the hub client, and when it can, without model2vec.

    ``StaticModel.from_pretrained`` imports ``huggingface_hub`` and the model-card code
    only to resolve a folder we already have and to read the README's metadata, which is
    used for model cards alone. An unquantized folder (the shipped model) is read by
    :mod:`.plainstatic`, which computes the same vectors without importing model2vec at
    all; other folders go through model2vec's own constructor with the config defaults
    ``from_pretrained`` applies. Both are checked against ``from_pretrained``
    (tests/test_static_loader.py, tests/test_embed.py).
    """
    from caas_tui.index.encoders.plainstatic import load_plain_model

    plain = load_plain_model(folder)
    if plain is not None:
        return plain
    from model2vec.model import DEFAULT_MAX_LENGTH, StaticModel
    from safetensors import safe_open
    from tokenizers import Tokenizer

    weights = mapping = None
    with safe_open(str(folder / "model.safetensors"), framework="numpy") as tensors:
        names = set(tensors.keys())
        embeddings = tensors.get_tensor("embeddings")
        if "weights" in names:
            weights = tensors.get_tensor("weights")
        if "mapping" in names:
            mapping = tensors.get_tensor("mapping")
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    return StaticModel(
        vectors=embeddings,
        tokenizer=tokenizer,
        config=config,
        normalize=bool(config.get("normalize", False)),
        weights=weights,
        token_mapping=mapping,
        max_length=config.get("max_length", DEFAULT_MAX_LENGTH),
    )


def _load_static(source: str, spec: str, *, local: bool) -> StaticLike:
    plain = local and all((Path(source) / name).is_file() for name in _PLAIN_LAYOUT)
    if not plain:
        try:
            from model2vec import StaticModel
        except ImportError as exc:
            raise ModelError(f"cannot load embedding model {spec!r}: model2vec is not installed") from exc
    try:
        if plain:
            return _load_plain_folder(Path(source))
        if local:
            with hub_offline():
                return StaticModel.from_pretrained(source)
        # force_download=False: reuse the HF cache instead of refetching every start.
        return StaticModel.from_pretrained(source, force_download=False)
    except Exception as exc:
        # Deliberately broad: model2vec, tokenizers, safetensors and huggingface_hub
        # raise unrelated types (some plain Exception); all mean "unusable model".
        raise ModelError(f"cannot load embedding model {spec!r}: {first_line(exc)}") from exc


def load_default_encoder() -> Model2VecEncoder:
    """The shipped model, loaded once per process; raises ModelError."""
    global _default_encoder
    with _default_lock:
        if _default_encoder is None:
            folder = default_model_dir()
            if not folder.is_dir():
                raise ModelError(f"the shipped embedding model is missing ({folder}); reinstall caas-tui")
            digest = weights_digest(folder, "default")
            try:
                dims = int(json.loads((folder / "config.json").read_text(encoding="utf-8"))["hidden_dim"])
            except (OSError, ValueError, KeyError, TypeError) as exc:
                raise ModelError(f"the shipped embedding model's config is unreadable ({first_line(exc)})") from exc
            _default_encoder = Model2VecEncoder(lambda: _load_static(str(folder), "default", local=True),
                                                f"{DEFAULT_MODEL_NAME}@{digest}", dims=dims, split_words=True)
        return _default_encoder


def load_model2vec_encoder(spec: str) -> Model2VecEncoder:
    """A model2vec folder or hub id (see module docstring); raises ModelError."""
    path = Path(spec).expanduser()
    if path.exists():
        folder = path.resolve()
        if not folder.is_dir():
            raise ModelError(f"embedding model {spec!r} is not a model2vec model folder")
        digest = weights_digest(folder, spec)
        model = _load_static(str(folder), spec, local=True)
        return Model2VecEncoder(model, f"path:{folder}@{digest}")
    if looks_like_path(spec):
        raise ModelError(f"embedding model folder not found: {spec}")
    return Model2VecEncoder(_load_static(spec, spec, local=False), spec)
