"""Exception and error-record types.

All exceptions raised on purpose by confluent derive from
:class:`ConfluentError`, so ``except ConfluentError`` catches them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class ConfluentError(Exception):
    """Base class of every error confluent raises deliberately."""


class ConfigKeyError(ConfluentError, KeyError):
    """A key looked up with ``config[key]`` does not exist."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key

    def __str__(self) -> str:
        return f"no configuration key {self.key!r}"


class UnknownKindError(ConfluentError, LookupError):
    """No coercer is registered under the requested kind."""


class CoercionError(ConfluentError, ValueError):
    """A value could not be converted to the requested kind."""

    def __init__(self, value: Any, kind: str, reason: str = "") -> None:
        self.value = value
        self.kind = kind
        self.reason = reason
        super().__init__(f"cannot coerce {value!r} to {kind}" + (f": {reason}" if reason else ""))


@dataclass(frozen=True)
class FieldError:
    """One problem found while validating one key.

    This is a plain record, not an exception: :class:`ValidationError`
    carries a list of them.
    """

    key: str
    message: str
    value: Any = None

    def __str__(self) -> str:
        return f"{self.key}: {self.message}"


class ValidationError(ConfluentError):
    """Raised by :meth:`confluent.schema.Schema.apply` with every problem found."""

    def __init__(self, errors: list[FieldError]) -> None:
        self.errors = list(errors)
        noun = "error" if len(self.errors) == 1 else "errors"
        super().__init__(f"{len(self.errors)} validation {noun}: " + "; ".join(map(str, self.errors)))

    def keys(self) -> list[str]:
        """The keys that failed, in the order the errors were found."""
        return [e.key for e in self.errors]


class InterpolationError(ConfluentError):
    """A ``${...}`` reference could not be resolved."""

    def __init__(self, key: str, message: str) -> None:
        self.key = key
        super().__init__(f"{key}: {message}")


class CycleError(InterpolationError):
    """References form a loop; ``chain`` lists the keys in visiting order."""

    def __init__(self, chain: list[str]) -> None:
        self.chain = list(chain)
        super().__init__(chain[0], "reference cycle " + " -> ".join(chain))


class FrozenError(ConfluentError, TypeError):
    """A frozen :class:`~confluent.config.Config` was asked to change."""


class SourceError(ConfluentError):
    """A configuration file could not be read or parsed."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        super().__init__(f"{path}: {message}")
