"""Human-readable explanations of a :class:`~confluent.config.Config`.

These helpers are for ``--show-config`` style commands: one line per key,
with the layer that supplied it, secrets masked.
"""

from __future__ import annotations

from typing import Any, Iterator

from .config import Config
from .constants import PRECEDENCE, REDACTION_MASK
from .merge import flatten
from .redact import is_secret


def explain(config: Config) -> Iterator[str]:
    """Yield ``key = value  [layer]`` lines, sorted by key.

    Secret values are always masked here, whatever the caller asks of
    :meth:`Config.as_dict`; keys whose origin is unknown show ``[?]``.
    """
    secrets = config._secrets
    for key, value in sorted(flatten(config.as_dict()).items()):
        shown = REDACTION_MASK if is_secret(key, secrets) else repr(value)
        try:
            layer = config.origin(key)
        except KeyError:
            layer = "?"
        yield f"{key} = {shown}  [{layer}]"


def by_layer(config: Config) -> dict[str, list[str]]:
    """Flat keys grouped by the layer that supplied them, in precedence order.

    Layers that supplied nothing are present with an empty list; keys set at
    runtime appear under ``"runtime"`` after the four standard layers.
    """
    groups: dict[str, list[str]] = {name: [] for name in PRECEDENCE}
    for key in sorted(flatten(config.as_dict())):
        try:
            layer = config.origin(key)
        except KeyError:
            continue
        groups.setdefault(layer, []).append(key)
    return groups


def diff(old: Config, new: Config) -> dict[str, tuple[Any, Any]]:
    """``{key: (old_value, new_value)}`` for every flat key that differs.

    A key missing on one side is reported with ``None`` on that side.
    Secret values are masked on both sides.
    """
    a, b = flatten(old.as_dict()), flatten(new.as_dict())
    out: dict[str, tuple[Any, Any]] = {}
    for key in sorted(a.keys() | b.keys()):
        if a.get(key) != b.get(key):
            if is_secret(key, old._secrets | new._secrets):
                out[key] = (REDACTION_MASK if key in a else None, REDACTION_MASK if key in b else None)
            else:
                out[key] = (a.get(key), b.get(key))
    return out
