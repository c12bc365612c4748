"""Deep merging of layer data and bookkeeping of where each value came from."""

from __future__ import annotations

import copy
from typing import Any, Iterable


def deep_merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """Return a new dict: ``over`` merged onto ``base``.

    Tables merge key by key, recursively. Any other value in ``over``,
    including a list, replaces the value in ``base`` outright; lists are not
    concatenated. Neither argument is modified.
    """
    out = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """``{"a": {"b": 1}}`` -> ``{"a.b": 1}``. Empty tables disappear."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        full = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flatten(value, full + "."))
        else:
            out[full] = value
    return out


def merge_layers(layers: Iterable[tuple[str, dict[str, Any]]]) -> tuple[dict[str, Any], dict[str, str]]:
    """Merge ``(name, data)`` pairs given lowest precedence first.

    Returns the merged data and an *origins* map from each flat key to the
    name of the last layer that supplied it.
    """
    merged: dict[str, Any] = {}
    origins: dict[str, str] = {}
    for name, data in layers:
        merged = deep_merge(merged, data)
        for key in flatten(data):
            origins[key] = name
    return merged, origins
