"""Deterministic bucketing of evaluation contexts.

A context is placed in one of :data:`toolbelt.settings.BUCKETS` buckets by
hashing the flag key, the context key and a salt with SHA-256. The same inputs
always land in the same bucket, on every machine and every Python version,
because :mod:`hashlib` digests do not depend on ``PYTHONHASHSEED``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from .errors import InvalidFlag
from .settings import BUCKETS, DEFAULT_SALT


def bucket(flag_key: str, unit: str, *, salt: str = DEFAULT_SALT) -> int:
    """Return the bucket of ``unit`` for ``flag_key``.

    Parameters
    ----------
    flag_key : str
        Key of the flag being evaluated.
    unit : str
        The value that identifies who is bucketed, usually a context key.
    salt : str, optional
        Mixed into the hash; change it to reshuffle every bucket of a flag.

    Returns
    -------
    int
        A bucket number in ``range(BUCKETS)``.
    """
    digest = hashlib.sha256(f"{salt}:{flag_key}:{unit}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % BUCKETS


def percent_to_buckets(percent: float) -> int:
    """Convert a percentage of traffic into a number of buckets.

    Values below 0 count as 0 and values above 100 count as 100, so a
    misconfigured rollout never serves more than everyone.

    Parameters
    ----------
    percent : float
        Share of traffic, 0 to 100.

    Returns
    -------
    int
        Number of buckets, 0 to ``BUCKETS``.
    """
    clamped = min(max(float(percent), 0.0), 100.0)
    return round(clamped * BUCKETS / 100)


def in_rollout(flag_key: str, unit: str, percent: float, *, salt: str = DEFAULT_SALT) -> bool:
    """Tell whether ``unit`` falls inside the first ``percent`` % of buckets."""
    return bucket(flag_key, unit, salt=salt) < percent_to_buckets(percent)


def pick_weighted(flag_key: str, unit: str, weights: Sequence[int], *, salt: str = DEFAULT_SALT) -> int:
    """Pick an index into ``weights`` in proportion to the weights.

    Parameters
    ----------
    flag_key, unit : str
        As for :func:`bucket`; the pick is stable for the same inputs.
    weights : sequence of int
        Non-negative relative weights.
    salt : str, optional
        Hash salt.

    Returns
    -------
    int
        Index of the chosen weight.

    Raises
    ------
    InvalidFlag
        If a weight is negative or all weights are zero.
    """
    if any(w < 0 for w in weights):
        raise InvalidFlag("variant weights must not be negative")
    total = sum(weights)
    if total == 0:
        raise InvalidFlag("at least one variant weight must be positive")
    point = bucket(flag_key + "#weights", unit, salt=salt) * total // BUCKETS
    running = 0
    for index, weight in enumerate(weights):
        running += weight
        if point < running:
            return index
    return len(weights) - 1
