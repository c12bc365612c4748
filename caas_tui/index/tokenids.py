"""Each chunk's token-stage token ids, computed once at build time and stored with its row.

The token stage (``retrieve/tokenstage.py``) matches a query's tokens against the tokens of
each candidate's first :data:`CHARS` characters of embedded text. Tokenizing 50 candidates
at query time made every one-shot ``caas-tui search`` import the ``tokenizers`` library
(about a third of the command, issue 20); the build tokenizes every chunk anyway, so the ids
are kept in the chunk store (``chunks.tokens``) and a search only reads 50 small blobs.

A blob is a one-byte width (2 or 4), a CRC-32 of the ids, then the distinct ids, sorted, as
little-endian unsigned integers of that width: the shipped model's 30k-token vocabulary fits
in two bytes. A blob that does not decode (damaged bytes) reads as missing, and the stage
tokenizes that candidate live, as it does for a row written without ids.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from caas_tui.index.refreshstats import embed_text
from caas_tui.models import Chunk

if TYPE_CHECKING:
    from caas_tui.index.protocols import Encoder

CHARS = 1000  # of each candidate's embedded text: its header, signature and first lines
_HEAD = struct.Struct("<BI")  # width, crc32 of the id bytes
_DTYPES: dict[int, np.dtype[Any]] = {2: np.dtype("<u2"), 4: np.dtype("<u4")}


def stage_text(chunk: Chunk, chars: int = CHARS) -> str:
    """The text the token stage tokenizes for ``chunk``."""
    return embed_text(chunk)[:chars]


def pack(ids: np.ndarray) -> bytes:
    """``ids`` (distinct, sorted, non-negative) as a blob."""
    width = 2 if not len(ids) or int(ids.max()) < 1 << 16 else 4
    data = np.ascontiguousarray(ids, dtype=_DTYPES[width]).tobytes()
    return _HEAD.pack(width, zlib.crc32(data)) + data


def unpack(blob: object) -> np.ndarray | None:
    """The ids of a blob (int32), or None for anything that is not one :func:`pack` wrote."""
    if not isinstance(blob, bytes) or len(blob) < _HEAD.size:
        return None
    width, crc = _HEAD.unpack_from(blob)
    data = blob[_HEAD.size:]
    dtype = _DTYPES.get(width)
    if dtype is None or len(data) % width or zlib.crc32(data) != crc:
        return None
    return np.frombuffer(data, dtype=dtype).astype(np.int32)


def token_blobs(encoder: Encoder, chunks: Sequence[Chunk]) -> list[bytes | None]:
    """Per chunk, the blob of the ids the token stage would compute for it with ``encoder``
    (its ``token_ids``); all None when the encoder gives no token ids."""
    token_ids = getattr(encoder, "token_ids", None)
    found = token_ids([stage_text(c) for c in chunks]) if token_ids is not None and chunks else None
    if found is None:
        return [None] * len(chunks)
    return [pack(np.asarray(ids)) for ids in found]
