"""The :class:`Config` object handed to applications."""

from __future__ import annotations

import copy
import json
from typing import TYPE_CHECKING, Any, Iterator, Mapping

from .errors import ConfigKeyError, FrozenError
from .layers import set_nested
from .merge import flatten
from .redact import redact

if TYPE_CHECKING:  # pragma: no cover
    from .loader import Loader

_MISSING = object()


class Config(Mapping[str, Any]):
    """Read-mostly view of resolved settings.

    Keys are dotted paths (``"db.port"``). A value that is a table comes back
    as another :class:`Config` sharing the same secret rules.
    """

    def __init__(
        self,
        data: dict[str, Any],
        *,
        origins: Mapping[str, str] | None = None,
        secrets: frozenset[str] = frozenset(),
        profile: str | None = None,
        loader: "Loader | None" = None,
        _prefix: str = "",
    ) -> None:
        self._data = data
        self._origins = dict(origins or {})
        self._secrets = secrets
        self._profile = profile
        self._loader = loader
        self._prefix = _prefix
        self._frozen = False

    # -- reading -----------------------------------------------------------
    def _lookup(self, key: str) -> Any:
        node: Any = self._data
        for part in key.split("."):
            if not isinstance(node, dict) or part not in node:
                raise ConfigKeyError(self._prefix + key)
            node = node[part]
        return node

    def _wrap(self, key: str, value: Any) -> Any:
        if isinstance(value, dict):
            sub = Config(value, origins=self._origins, secrets=self._secrets, profile=self._profile,
                         _prefix=f"{self._prefix}{key}.")
            sub._frozen = self._frozen
            return sub
        return value

    def __getitem__(self, key: str) -> Any:
        return self._wrap(key, self._lookup(key))

    def get(self, key: str, default: Any = None) -> Any:
        """Value at dotted ``key``, or ``default`` when any segment is missing."""
        try:
            return self[key]
        except ConfigKeyError:
            return default

    def section(self, key: str) -> "Config":
        """The table at ``key`` as a Config; an empty Config if it is missing.

        Raises:
            TypeError: when ``key`` holds a plain value rather than a table.
        """
        value = self.get(key, _MISSING)
        if value is _MISSING:
            return Config({}, secrets=self._secrets, _prefix=f"{self._prefix}{key}.")
        if not isinstance(value, Config):
            raise TypeError(f"{key!r} is not a table")
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key, _MISSING) is not _MISSING

    @property
    def profile(self) -> str | None:
        return self._profile

    @property
    def frozen(self) -> bool:
        return self._frozen

    def origin(self, key: str) -> str:
        """Name of the layer that supplied ``key`` (``"defaults"``, ``"file"``,
        ``"env"``, ``"cli"``, or ``"runtime"`` after :meth:`set`).

        Raises:
            ConfigKeyError: for a key no layer supplied.
        """
        full = self._prefix + key
        if full not in self._origins:
            raise ConfigKeyError(full)
        return self._origins[full]

    # -- output ------------------------------------------------------------
    def as_dict(self, *, redact_secrets: bool = False) -> dict[str, Any]:
        """Deep copy of the data as plain dicts; secrets are kept unless asked."""
        data = copy.deepcopy(self._data)
        return self._redacted(data) if redact_secrets else data

    def _redacted(self, data: dict[str, Any]) -> dict[str, Any]:
        extra = {k[len(self._prefix):] for k in self._secrets if k.startswith(self._prefix)}
        return redact(data, extra)

    def dumps(self, *, redact_secrets: bool = True, indent: int = 2) -> str:
        """JSON text of the data, keys sorted; secrets masked by default."""
        return json.dumps(self.as_dict(redact_secrets=redact_secrets), indent=indent, sort_keys=True, default=str)

    def __repr__(self) -> str:
        return f"Config({self._redacted(copy.deepcopy(self._data))!r})"

    # -- changing ----------------------------------------------------------
    def set(self, key: str, value: Any) -> None:
        """Set ``key`` for this process only; a later :meth:`reload` drops it.

        Raises:
            FrozenError: after :meth:`freeze`.
        """
        if self._frozen:
            raise FrozenError(f"cannot set {key!r}: configuration is frozen")
        set_nested(self._data, key.split("."), value)
        self._origins[self._prefix + key] = "runtime"

    def freeze(self) -> "Config":
        """Forbid :meth:`set` and :meth:`reload` from now on; returns ``self``."""
        self._frozen = True
        return self

    def reload(self) -> set[str]:
        """Rebuild from the original sources and swap the data in place.

        Returns the flat keys whose value changed, appeared or disappeared. If
        the rebuild fails (a file no longer parses, validation fails) the
        exception propagates and the current data is kept.

        Raises:
            FrozenError: when the config is frozen.
            RuntimeError: when the config was not built by a loader.
        """
        if self._frozen:
            raise FrozenError("cannot reload a frozen configuration")
        if self._loader is None:
            raise RuntimeError("this Config has no loader to reload from")
        fresh = self._loader.build()
        old, new = flatten(self._data), flatten(fresh._data)
        changed = {k for k in old.keys() | new.keys() if old.get(k, _MISSING) != new.get(k, _MISSING)}
        self._data = fresh._data
        self._origins = fresh._origins
        self._profile = fresh._profile
        return changed
