"""Resolution of ``${other.key}`` references inside string values.

References are resolved against the fully merged data, so a reference sees
the value of the winning layer, not of the layer it was written in.
"""

from __future__ import annotations

import re
from typing import Any

from .constants import MAX_INTERPOLATION_DEPTH
from .errors import CycleError, InterpolationError
from .merge import flatten

_REF = re.compile(r"\$\$|\$\{([^}:]+)(?::-([^}]*))?\}")
_WHOLE = re.compile(r"^\$\{([^}:]+)\}$")


class Resolver:
    """Resolve every reference in ``data``.

    ``${a.b}`` is replaced by the value at ``a.b``; ``${a.b:-text}`` falls
    back to ``text`` when ``a.b`` does not exist; ``$$`` is a literal ``$``.
    A value that is exactly one reference keeps the referenced value's type;
    inside a longer string the referenced value is formatted with ``str()``.
    """

    def __init__(self, data: dict[str, Any], *, max_depth: int = MAX_INTERPOLATION_DEPTH) -> None:
        self.flat = flatten(data)
        self.data = data
        self.max_depth = max_depth
        self._done: dict[str, Any] = {}

    def resolve_all(self) -> dict[str, Any]:
        """Return a new nested dict with every string value resolved."""
        return self._walk(self.data, "")

    def _walk(self, node: Any, prefix: str) -> Any:
        if isinstance(node, dict):
            return {k: self._walk(v, f"{prefix}{k}.") for k, v in node.items()}
        if isinstance(node, list):
            return [self._value(item, prefix.rstrip("."), []) for item in node]
        return self.resolve_key(prefix.rstrip("."))

    def resolve_key(self, key: str, _stack: list[str] | None = None) -> Any:
        """Resolved value of one flat key.

        Raises:
            CycleError: the key refers back to itself, directly or not.
            InterpolationError: a referenced key is missing and has no
                fallback, or the chain is longer than ``max_depth``.
        """
        stack = [] if _stack is None else _stack
        if key in self._done:
            return self._done[key]
        if key in stack:
            raise CycleError(stack[stack.index(key):] + [key])
        if len(stack) >= self.max_depth:
            raise InterpolationError(stack[0], f"reference chain deeper than {self.max_depth}")
        if key not in self.flat:
            raise InterpolationError(stack[-1] if stack else key, f"reference to missing key {key!r}")
        value = self._value(self.flat[key], key, stack + [key])
        self._done[key] = value
        return value

    def _value(self, raw: Any, key: str, stack: list[str]) -> Any:
        if not isinstance(raw, str) or "$" not in raw:
            return raw
        whole = _WHOLE.match(raw)
        if whole:
            return self.resolve_key(whole.group(1).strip(), stack)

        def substitute(match: re.Match[str]) -> str:
            if match.group(0) == "$$":
                return "$"
            ref, fallback = match.group(1).strip(), match.group(2)
            if fallback is not None and ref not in self.flat:
                return fallback
            return str(self.resolve_key(ref, stack))

        return _REF.sub(substitute, raw)


def interpolate(data: dict[str, Any], *, max_depth: int = MAX_INTERPOLATION_DEPTH) -> dict[str, Any]:
    """Shortcut for ``Resolver(data, max_depth=max_depth).resolve_all()``."""
    return Resolver(data, max_depth=max_depth).resolve_all()
