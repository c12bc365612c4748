"""Type coercion through a registry of named coercers.

A *kind* is a short string such as ``"int"`` or ``"duration"``. The schema
stores kinds, not callables; :func:`coerce` looks the kind up here at
validation time, so a coercer registered later is picked up by schemas that
were built earlier.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from .constants import FALSE_WORDS, LIST_SEPARATOR, TRUE_WORDS
from .errors import CoercionError, UnknownKindError
from .units import parse_duration, parse_size

Coercer = Callable[[Any], Any]

_REGISTRY: dict[str, Coercer] = {}


def register_coercer(kind: str, *, replace: bool = False) -> Callable[[Coercer], Coercer]:
    """Decorator registering ``func`` as the coercer for ``kind``.

    Registering a kind twice raises :class:`ValueError` unless ``replace``
    is true.
    """

    def decorate(func: Coercer) -> Coercer:
        if kind in _REGISTRY and not replace:
            raise ValueError(f"coercer for {kind!r} already registered")
        _REGISTRY[kind] = func
        return func

    return decorate


def get_coercer(kind: str) -> Coercer:
    """Return the coercer registered for ``kind``.

    Raises:
        UnknownKindError: when nothing is registered under ``kind``.
    """
    try:
        return _REGISTRY[kind]
    except KeyError:
        raise UnknownKindError(kind) from None


def kinds() -> list[str]:
    """Registered kind names, sorted."""
    return sorted(_REGISTRY)


@register_coercer("str")
def to_str(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@register_coercer("bool")
def to_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = value.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
    raise ValueError(f"not a boolean: {value!r}")


@register_coercer("int")
def to_int(value: Any) -> int:
    if isinstance(value, bool):
        raise TypeError("refusing to treat a bool as an int")
    if isinstance(value, float):
        if not value.is_integer():
            raise ValueError(f"{value!r} has a fractional part")
        return int(value)
    return int(value)


@register_coercer("float")
def to_float(value: Any) -> float:
    if isinstance(value, bool):
        raise TypeError("refusing to treat a bool as a float")
    return float(value)


@register_coercer("duration")
def to_duration(value: Any) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return parse_duration(str(value))


@register_coercer("size")
def to_size(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return parse_size(str(value))


@register_coercer("list")
def to_list(value: Any) -> list:
    if isinstance(value, str):
        return [part.strip() for part in value.split(LIST_SEPARATOR) if part.strip()]
    if isinstance(value, (list, tuple)):
        return list(value)
    raise ValueError(f"not a list: {value!r}")


def _finite(value: float) -> bool:
    return not (math.isnan(value) or math.isinf(value))


def coerce(value: Any, kind: str) -> Any:
    """Convert ``value`` to ``kind``.

    ``kind`` may be a registered name or ``"list[<kind>]"``, in which case the
    value is first made a list and each item is coerced to ``<kind>``.

    Raises:
        CoercionError: when the coercer rejects the value (``ValueError`` or
            ``TypeError`` inside the coercer).
        UnknownKindError: when the kind is not registered.
    """
    if kind.startswith("list[") and kind.endswith("]"):
        inner = kind[5:-1]
        items = coerce(value, "list")
        return [coerce(item, inner) for item in items]
    func = get_coercer(kind)
    try:
        return func(value)
    except (ValueError, TypeError) as exc:
        raise CoercionError(value, kind, str(exc)) from exc
