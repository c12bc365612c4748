"""Evaluation contexts: who a flag is being evaluated for."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import InvalidFlag


@dataclass(frozen=True)
class Context:
    """The subject of an evaluation.

    Parameters
    ----------
    key : str
        Stable identifier used for bucketing (a user id, a device id...).
    attributes : mapping, optional
        Extra facts that targeting rules can test, e.g. ``{"country": "FR"}``.
    anonymous : bool, optional
        Marks a context whose key was generated rather than known.

    Raises
    ------
    InvalidFlag
        If ``key`` is empty.
    """

    key: str
    attributes: Mapping[str, Any] = field(default_factory=dict)
    anonymous: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.key, str) or not self.key:
            raise InvalidFlag("a context needs a non-empty string key")
        object.__setattr__(self, "attributes", dict(self.attributes))

    def get(self, name: str, default: Any = None) -> Any:
        """Return attribute ``name``; ``"key"`` gives the context key itself."""
        if name == "key":
            return self.key
        return self.attributes.get(name, default)

    def with_attributes(self, **attributes: Any) -> Context:
        """Return a new context whose attributes are updated with ``attributes``.

        The original context is left unchanged.
        """
        merged = {**self.attributes, **attributes}
        return Context(self.key, merged, self.anonymous)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Context:
        """Build a context from a flat mapping with a ``"key"`` entry.

        Every other entry becomes an attribute. A mapping without ``"key"``
        is rejected by the constructor with :class:`~toolbelt.errors.InvalidFlag`.
        """
        attributes = {k: v for k, v in data.items() if k not in ("key", "anonymous")}
        return cls(str(data.get("key", "")), attributes, bool(data.get("anonymous", False)))

    @classmethod
    def anonymous_context(cls, **attributes: Any) -> Context:
        """Return a context with a random key, flagged as anonymous."""
        return cls(uuid.uuid4().hex, attributes, anonymous=True)
