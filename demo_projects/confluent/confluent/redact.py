"""Masking of secret values for display.

A key is secret when its last segment matches one of
:data:`~confluent.constants.SECRET_PATTERNS` (with :func:`fnmatch.fnmatchcase`)
or when the schema marks the field ``secret=True``.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from typing import Any, Collection

from .constants import REDACTION_MASK, SECRET_PATTERNS


def is_secret(key: str, extra: Collection[str] = ()) -> bool:
    """True if the flat ``key`` names a secret."""
    if key in extra:
        return True
    last = key.rsplit(".", 1)[-1]
    return any(fnmatchcase(last, pattern) for pattern in SECRET_PATTERNS)


def redact(data: dict[str, Any], extra: Collection[str] = (), _prefix: str = "") -> dict[str, Any]:
    """Return a copy of ``data`` with secret leaf values replaced by the mask.

    Tables are never masked as a whole: a table under a secret-looking name
    is walked and only its own secret leaves are masked.
    """
    out: dict[str, Any] = {}
    for key, value in data.items():
        full = f"{_prefix}{key}"
        if isinstance(value, dict):
            out[key] = redact(value, extra, full + ".")
        elif is_secret(full, extra):
            out[key] = REDACTION_MASK
        else:
            out[key] = value
    return out
