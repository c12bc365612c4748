"""A deterministic feature-hashing encoder: a fake for tests and a no-model fallback."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from caas_tui.index.vectors import normalize_rows


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
