"""A plain model2vec folder's forward pass without importing model2vec.

A static model is a tokenizer and a table of token vectors: a text's embedding is the
mean of its tokens' rows. ``model2vec.StaticModel`` does exactly that, but importing it
pulls joblib, tqdm and its quantization code, and its constructor sorts the vocabulary
and deep-copies the tokenizer: together most of a one-shot ``caas-tui search`` (issue 20).
This reads the same three files (``model.safetensors``, ``tokenizer.json``,
``config.json``) and computes the same numbers the same way (``StaticModel.encode``:
same character cut, same tokenizer settings, same float16 means bucketed by length), so
the vectors are bit-identical (tests/test_static_loader.py checks it against model2vec).

Only the unquantized layout is handled (one ``embeddings`` tensor, one row per vocabulary
entry, a tokenizer with a vocabulary map); :func:`load_plain_model` returns ``None`` for
anything else and the caller falls back to model2vec's own constructor.
"""

from __future__ import annotations

import itertools
import json
import math
import struct
import threading
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from caas_tui.index.encoders import wordpiece
from caas_tui.index.encoders.common import stamp_cached, stamp_cached_text

if TYPE_CHECKING:
    from tokenizers import Tokenizer

# model2vec.model.DEFAULT_MAX_LENGTH, used when config.json names none
DEFAULT_MAX_LENGTH = 512
# StaticModel.encode's default batch: the float16 means are taken per batch, keep it equal
_BATCH = 1024
# safetensors dtype codes numpy can map without a conversion
_DTYPES = {"F16": np.float16, "F32": np.float32, "F64": np.float64, "I8": np.int8}
# Up to this many characters per batch go through the plain-Python tokenizer (a query, a
# claim or two: well under a millisecond) rather than loading ``tokenizers`` (~40 ms).
_ASCII_CHARS = 4096
_WORDS_KEPT = 200_000  # distinct words whose ids are remembered (a few MB)
_WIDE_MIN_TEXTS = 64  # texts per batch from which the means come from a float32 copy of the table


def read_tensors(path: Path) -> dict[str, np.ndarray]:
    """The tensors of a ``.safetensors`` file, memory-mapped read-only.

    The format is an 8-byte little-endian header length, a JSON header of
    ``{name: {dtype, shape, data_offsets}}`` and the raw data: mapping it reads only the
    rows a query touches instead of the whole table. ValueError when it is not such a file.
    """
    with path.open("rb") as handle:
        head = handle.read(8)
        if len(head) != 8:
            raise ValueError(f"{path.name}: not a safetensors file")
        (size,) = struct.unpack("<Q", head)
        if size > 100_000_000:
            raise ValueError(f"{path.name}: implausible safetensors header ({size} bytes)")
        header = json.loads(handle.read(size))
    base = 8 + size
    total = path.stat().st_size
    out: dict[str, np.ndarray] = {}
    for name, spec in header.items():
        if name == "__metadata__":
            continue
        dtype = _DTYPES.get(spec["dtype"])
        if dtype is None:
            raise ValueError(f"{path.name}: tensor {name!r} has dtype {spec['dtype']}")
        begin, end = (int(x) for x in spec["data_offsets"])
        shape = tuple(int(x) for x in spec["shape"])
        if end < begin or base + end > total or (end - begin) != math.prod(shape) * np.dtype(dtype).itemsize:
            raise ValueError(f"{path.name}: tensor {name!r} does not fit the file")
        if end == begin:
            out[name] = np.zeros(shape, dtype=dtype)
        else:
            out[name] = np.asarray(np.memmap(path, dtype=dtype, mode="r", offset=base + begin, shape=shape))
    return out


class PlainStaticModel:
    """Mean of token vectors, as ``StaticModel.encode(texts, normalize=False)`` computes it.

    ``tokenizer`` may be a loader, called the first time a text needs it: with an
    ``ascii_tokenizer`` (:mod:`.wordpiece`), a few short ASCII texts (one query) are
    tokenized without importing ``tokenizers`` at all, with the same ids.
    """

    def __init__(self, embedding: np.ndarray, tokenizer: Tokenizer | Callable[[], Tokenizer], *,
                 median_token_length: int, unk_token_id: int | None, max_length: int | None,
                 ascii_tokenizer: wordpiece.AsciiWordPiece | None = None) -> None:
        self.embedding = embedding
        self.median_token_length = median_token_length
        self.unk_token_id = unk_token_id
        self.max_length = max_length
        self._ascii = ascii_tokenizer
        self._lock = threading.Lock()
        self._tokenizer: Tokenizer | None = None
        self._words: dict[str, list[int]] = {}  # _batch_ids: each word's ids
        self._wide: np.ndarray | None = None  # _float32_table
        self._load_tokenizer: Callable[[], Tokenizer] | None = None
        if callable(tokenizer):
            self._load_tokenizer = tokenizer
        else:
            self._set_up(tokenizer)

    def _set_up(self, tokenizer: Tokenizer) -> None:
        # Set once here: model2vec re-sets truncation on every call, which would race when
        # the index's embedding thread and a query encode at the same time.
        tokenizer.no_padding()
        if self.max_length is None:
            tokenizer.no_truncation()
        else:
            tokenizer.enable_truncation(self.max_length)
        self._tokenizer = tokenizer

    @property
    def tokenizer_loaded(self) -> bool:
        """Whether the ``tokenizers`` tokenizer was loaded (a text needed it, or it was asked for)."""
        return self._tokenizer is not None

    @property
    def tokenizer(self) -> Tokenizer:
        """The ``tokenizers`` tokenizer, loaded on first use."""
        with self._lock:
            if self._tokenizer is None:
                assert self._load_tokenizer is not None
                self._set_up(self._load_tokenizer())
            assert self._tokenizer is not None
            return self._tokenizer

    @property
    def dim(self) -> int:
        return int(self.embedding.shape[1])

    def encode(self, sentences: Sequence[str], *, normalize: bool = False, use_multiprocessing: bool = False,
               ) -> np.ndarray:
        """Unnormalised means in the table's dtype, one row per text (zeros for a text with no
        known token). ``normalize`` and ``use_multiprocessing`` exist for model2vec's call
        shape; only their off values are supported."""
        if normalize or use_multiprocessing:
            raise ValueError("PlainStaticModel.encode computes raw means in-process only")
        texts = list(sentences)
        if self.max_length is not None:
            cut = self.max_length * self.median_token_length
            texts = [t[:cut] for t in texts]
        batches = [self._encode_batch(texts[i:i + _BATCH]) for i in range(0, len(texts), _BATCH)]
        return np.concatenate(batches, axis=0) if batches else np.zeros((0, self.dim), dtype=self.embedding.dtype)

    def _ascii_ids(self, texts: list[str]) -> list[list[int]] | None:
        """The texts' ids from the plain-Python tokenizer, while the real one is not loaded and
        the batch is small (it is ~50x slower per character); ``None`` to use the real one."""
        if self._ascii is None or self._tokenizer is not None or sum(map(len, texts)) > _ASCII_CHARS:
            return None
        out: list[list[int]] = []
        for text in texts:
            ids = self._ascii.ids(text)
            if ids is None:
                return None
            # the real tokenizer's truncation: the first max_length tokens, unknown ones included
            out.append(ids if self.max_length is None else ids[:self.max_length])
        return out

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """Each text's token ids as :meth:`encode` averages them (same cut, no unknown token)."""
        cut = None if self.max_length is None else self.max_length * self.median_token_length
        batch = [t[:cut] for t in texts]
        rows = self._ascii_ids(batch)
        if rows is None:
            rows = [e.ids for e in self.tokenizer.encode_batch_fast(batch, add_special_tokens=False)]
        return [[t for t in row if t != self.unk_token_id] for row in rows] if self.unk_token_id is not None else rows

    def _batch_ids(self, texts: list[str]) -> list[list[int]]:
        """The texts' ids from the real tokenizer, each distinct word of a text the
        plain-Python split restates (:meth:`AsciiWordPiece.words`) tokenized once per batch and
        remembered: chunks of code repeat their words, and tokenizing them whole was two fifths
        of a cold build's CPU (stdlib: 7.6 s; by words 2.1 s, the same ids). Other texts go
        to the tokenizer whole."""
        words = [self._ascii.words(t) for t in texts] if self._ascii is not None else [None] * len(texts)
        known = self._words  # this batch's own reference: another thread may start a new table
        new = list(dict.fromkeys(w for row in words if row is not None for w in row if w not in known))
        tokenizer = self.tokenizer
        if new:
            if len(known) + len(new) > _WORDS_KEPT:
                known = self._words = {}
            for word, encoded in zip(new, tokenizer.encode_batch_fast(new, add_special_tokens=False), strict=True):
                known[word] = encoded.ids
        whole = [t for t, row in zip(texts, words, strict=True) if row is None]
        found = iter([e.ids for e in tokenizer.encode_batch_fast(whole, add_special_tokens=False)] if whole else [])
        limit = self.max_length
        out: list[list[int]] = []
        get = known.__getitem__
        for row in words:
            if row is None:
                out.append(next(found))
                continue
            ids = list(itertools.chain.from_iterable(map(get, row)))
            # the tokenizer's truncation: the first max_length tokens, unknown ones included
            out.append(ids if limit is None or len(ids) <= limit else ids[:limit])
        return out

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        ids = self._ascii_ids(texts)
        if ids is None:
            ids = self._batch_ids(texts)
        if self.unk_token_id is not None:
            ids = [[t for t in row if t != self.unk_token_id] for row in ids]
        dtype = np.dtype(np.float32) if self.embedding.dtype == np.int8 else self.embedding.dtype
        out = np.zeros((len(ids), self.dim), dtype=dtype)
        # same-length texts in one fancy index: the means (and their float16 rounding) are
        # then computed exactly as StaticModel._encode_batch computes them
        buckets: dict[int, list[int]] = defaultdict(list)
        for i, row in enumerate(ids):
            if row:
                buckets[len(row)].append(i)
        wide = self._float32_table() if len(ids) >= _WIDE_MIN_TEXTS else None
        for length, indices in buckets.items():
            rows = np.array([ids[i] for i in indices], dtype=np.int64)
            if wide is None:
                out[indices] = self.embedding[rows].mean(axis=1)
            else:
                # what ``mean`` does for float16 (a float32 sum and quotient, rounded once), without
                # converting every gathered row: the same bits at half the cost
                sums = wide[rows].sum(axis=1)
                sums /= np.float32(length)
                out[indices] = sums
        return out

    def _float32_table(self) -> np.ndarray | None:
        """The float16 table as float32, made on the first big batch (a build: 30 MB for the
        shipped model); None for any other dtype. A query reads a few rows of the mapped file."""
        if self.embedding.dtype != np.float16:
            return None
        if self._wide is None:
            self._wide = self.embedding.astype(np.float32)
        return self._wide


def load_plain_model(folder: Path) -> PlainStaticModel | None:
    """The folder's model, or ``None`` when it is not the plain layout this handles.

    Raises OSError/ValueError (and the tokenizer's own errors) for unreadable files.
    """
    tensors = read_tensors(folder / "model.safetensors")
    if set(tensors) != {"embeddings"}:
        return None  # vocabulary-quantized (weights, mapping): model2vec's constructor handles it
    path = folder / "tokenizer.json"
    texts: list[str] = []
    parsed: list[dict[str, Any]] = []

    def text() -> str:
        # read only when something is computed or the real tokenizer is needed: a one-shot
        # query with the facts cached never reads the 445 KB file
        if not texts:
            texts.append(path.read_text(encoding="utf-8"))
        return texts[0]

    def spec() -> dict[str, Any]:
        if not parsed:
            loaded = json.loads(text())
            parsed.append(loaded if isinstance(loaded, dict) else {})
        return parsed[0]

    def vocabulary() -> dict[str, Any]:
        model = spec().get("model") or {}
        vocab = model.get("vocab")
        if model.get("type") not in ("WordPiece", "BPE", "WordLevel") or not isinstance(vocab, dict):
            return {"plain": False}
        # StaticModel counts tokenizer.get_vocab() (added tokens included) for its median length
        tokens = set(vocab) | {t["content"] for t in spec().get("added_tokens") or ()}
        return {"plain": True, "tokens": len(tokens), "median": int(np.median([len(t) for t in tokens])),
                "unk": model.get("unk_token")}

    # parsing the vocabulary in Python besides the tokenizer's own parse cost a one-shot
    # search a tenth of its model load: its facts are kept under the file's stamp
    facts = stamp_cached("vocabulary", [path], vocabulary)
    embedding = tensors["embeddings"]
    if not facts.get("plain") or embedding.ndim != 2 or embedding.shape[0] != facts["tokens"]:
        return None
    # so is what the plain-Python tokenizer needs (the vocabulary as one string): with it the
    # real tokenizer is loaded only when a text needs it (non-ASCII, a batch of chunks)
    ascii_facts = stamp_cached_text(wordpiece.FACTS_KIND, path, lambda: wordpiece.facts(spec()))
    try:
        ascii_tokenizer = wordpiece.AsciiWordPiece(ascii_facts) if ascii_facts is not None else None
    except (KeyError, TypeError, ValueError):
        ascii_tokenizer = None  # a damaged cache entry: the real tokenizer is always right

    def real_tokenizer() -> Tokenizer:
        from tokenizers import Tokenizer

        return Tokenizer.from_str(text())

    unk = facts["unk"]
    tokenizer: Tokenizer | Callable[[], Tokenizer]
    if ascii_tokenizer is not None:
        unk_id = ascii_tokenizer.token_id(unk) if unk is not None else None
        tokenizer = real_tokenizer
    else:
        tokenizer = real_tokenizer()
        unk_id = tokenizer.token_to_id(unk) if unk is not None else None
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    return PlainStaticModel(
        embedding,
        tokenizer,
        median_token_length=int(facts["median"]),
        unk_token_id=unk_id,
        max_length=config.get("max_length", DEFAULT_MAX_LENGTH),
        ascii_tokenizer=ascii_tokenizer,
    )
