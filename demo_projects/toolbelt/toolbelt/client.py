"""The object applications talk to.

:class:`FlagClient` reads flags from a :class:`~toolbelt.store.FlagStore`,
caches evaluations for a short while and applies local overrides.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Literal

from .cache import TTLCache
from .context import Context
from .errors import FlagNotFound
from .flags import Evaluation
from .settings import DEFAULT_CACHE_TTL
from .store import FlagStore

OnMissing = Literal["default", "raise"]


class FlagClient:
    """Evaluate flags from ``store``.

    Parameters
    ----------
    store : FlagStore
        Where flags are read.
    cache_ttl : float, optional
        Seconds an evaluation is reused for the same flag and context;
        one second unless given.
    on_missing : {"default", "raise"}, optional
        What :meth:`is_enabled` and :meth:`value` do for an unknown flag.
    clock : callable, optional
        Time source for the cache, in seconds.
    """

    def __init__(
        self,
        store: FlagStore,
        *,
        cache_ttl: float = DEFAULT_CACHE_TTL,
        on_missing: OnMissing = "default",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if on_missing not in ("default", "raise"):
            raise ValueError(f"on_missing must be 'default' or 'raise', not {on_missing!r}")
        self.store = store
        self.on_missing = on_missing
        self._cache = TTLCache(cache_ttl, clock=clock)
        self._overrides: dict[str, str] = {}

    def evaluate(self, key: str, context: Context) -> Evaluation:
        """Evaluate flag ``key`` for ``context``.

        Raises
        ------
        FlagNotFound
            If the store has no flag ``key``, whatever :attr:`on_missing` says.
        """
        flag = self.store.require(key)
        if key in self._overrides:
            name = self._overrides[key]
            return Evaluation(key, name, flag.variant_named(name).value, "override")
        cache_key = (key, context.key, repr(sorted(context.attributes.items())), self.store.version)
        cached = self._cache.get(cache_key)
        if cached is not None:
            return cached
        result = flag.evaluate(context)
        self._cache.set(cache_key, result)
        return result

    def is_enabled(self, key: str, context: Context, default: bool = False) -> bool:
        """Return whether flag ``key`` serves a truthy value to ``context``.

        An unknown flag gives ``default`` unless the client was built with
        ``on_missing="raise"``.
        """
        try:
            return self.evaluate(key, context).enabled
        except FlagNotFound:
            if self.on_missing == "raise":
                raise
            return default

    def value(self, key: str, context: Context, default: Any = None) -> Any:
        """Return the value served by flag ``key``; ``default`` for an unknown flag (see :attr:`on_missing`)."""
        try:
            return self.evaluate(key, context).value
        except FlagNotFound:
            if self.on_missing == "raise":
                raise
            return default

    def variant(self, key: str, context: Context) -> str:
        """Return the name of the variant served by flag ``key``."""
        return self.evaluate(key, context).variant

    def all_values(self, context: Context) -> dict[str, Any]:
        """Evaluate every flag of the store for ``context``; keys are flag keys."""
        return {flag.key: self.evaluate(flag.key, context).value for flag in self.store}

    def override(self, key: str, variant: str) -> None:
        """Serve ``variant`` of flag ``key`` to every context until cleared.

        Raises
        ------
        FlagNotFound
            If there is no flag ``key``.
        InvalidFlag
            If the flag has no variant ``variant``.
        """
        self.store.require(key).variant_named(variant)
        self._overrides[key] = variant

    def clear_override(self, key: str) -> bool:
        """Remove the override of ``key``; return whether there was one."""
        return self._overrides.pop(key, None) is not None

    def clear_cache(self) -> int:
        """Forget every cached evaluation; return how many were dropped."""
        return self._cache.clear()
