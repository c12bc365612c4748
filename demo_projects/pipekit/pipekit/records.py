"""The record type that flows through a pipeline."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class Record:
    """One unit of data.

    Attributes
    ----------
    payload : Mapping[str, object]
        The fields of the record.
    offset : int
        Position of the record in its source, counting from 0. Transforms keep it,
        so a checkpoint can name the source position of any record.
    """

    payload: Mapping[str, object] = field(default_factory=dict)
    offset: int = 0

    def get(self, name: str, default: object | None = None) -> object | None:
        """Return the value of the field ``name``.

        :param name: the field name.
        :param default: what to return when the field is missing.
        :returns: the value, or an empty string when the payload has no such field.
        """
        return self.payload.get(name, default)

    def with_fields(self, **changes: object) -> Record:
        """Return a copy with ``changes`` merged into the payload; this record is left as it was."""
        return replace(self, payload={**self.payload, **changes})

    def key(self, *names: str) -> tuple[object | None, ...]:
        """The values of ``names`` as a tuple (``None`` for a missing field), for grouping and dedupe."""
        return tuple(self.payload.get(n) for n in names)
