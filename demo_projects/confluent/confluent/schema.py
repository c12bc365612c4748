"""Declarative schemas: kinds, defaults, bounds and choices per flat key."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from .coerce import coerce
from .errors import CoercionError, FieldError, UnknownKindError, ValidationError
from .layers import set_nested
from .merge import flatten


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


#: Sentinel default meaning "this key must be supplied by some layer".
REQUIRED: Any = _Required()


@dataclass
class Field:
    """Description of one key.

    Args:
        kind: Name of a registered coercer, or ``"list[<kind>]"``.
        default: Value used when no layer supplies the key. Defaults to
            :data:`REQUIRED`.
        choices: If given, the coerced value must be one of these.
        min: Lower bound (inclusive). For ``str`` and list kinds it bounds the
            length instead of the value.
        max: Upper bound (inclusive), same rules as ``min``.
        secret: Always mask this key in ``repr`` and ``dumps``.
        help: Free text shown by :meth:`Schema.describe`.
    """

    kind: str = "str"
    default: Any = REQUIRED
    choices: tuple | None = None
    min: float | None = None
    max: float | None = None
    secret: bool = False
    help: str = ""

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def check(self, key: str, raw: Any) -> tuple[Any, list[FieldError]]:
        """Coerce ``raw`` and test bounds and choices; returns (value, errors)."""
        try:
            value = coerce(raw, self.kind)
        except (CoercionError, UnknownKindError) as exc:
            return raw, [FieldError(key, str(exc), raw)]
        errors: list[FieldError] = []
        measured = len(value) if isinstance(value, (str, list)) else value
        if self.min is not None and measured < self.min:
            errors.append(FieldError(key, f"below minimum {self.min}", value))
        if self.max is not None and measured > self.max:
            errors.append(FieldError(key, f"above maximum {self.max}", value))
        if self.choices is not None and value not in self.choices:
            errors.append(FieldError(key, f"not one of {list(self.choices)}", value))
        return value, errors


@dataclass
class Schema:
    """A mapping of flat dotted keys to :class:`Field` objects."""

    fields: dict[str, Field] = field(default_factory=dict)

    @classmethod
    def from_mapping(cls, spec: Mapping[str, Field | str]) -> "Schema":
        """Build a schema; a plain string value is shorthand for ``Field(kind=...)``."""
        return cls({k: v if isinstance(v, Field) else Field(kind=v) for k, v in spec.items()})

    def defaults(self) -> dict[str, Any]:
        """Nested dict of every non-required field's default."""
        out: dict[str, Any] = {}
        for key, fld in self.fields.items():
            if not fld.required:
                set_nested(out, key.split("."), fld.default)
        return out

    def secret_keys(self) -> frozenset[str]:
        return frozenset(k for k, f in self.fields.items() if f.secret)

    def validate(self, data: dict[str, Any], *, strict: bool = False) -> tuple[dict[str, Any], list[FieldError]]:
        """Coerce and check ``data``; never raises for bad values.

        Returns the coerced nested data and the list of problems, in schema
        declaration order, followed by unknown keys (only when ``strict``).
        Keys the schema does not know are passed through unchanged.
        """
        flat = flatten(data)
        errors: list[FieldError] = []
        out = dict(flat)
        for key, fld in self.fields.items():
            if key not in flat:
                if fld.required:
                    errors.append(FieldError(key, "required key is missing"))
                continue
            value, problems = fld.check(key, flat[key])
            out[key] = value
            errors.extend(problems)
        if strict:
            errors.extend(FieldError(k, "unknown key", flat[k]) for k in flat if k not in self.fields)
        nested: dict[str, Any] = {}
        for key, value in out.items():
            set_nested(nested, key.split("."), value)
        return nested, errors

    def apply(self, data: dict[str, Any], *, strict: bool = False) -> dict[str, Any]:
        """Like :meth:`validate` but raise :class:`ValidationError` on any problem."""
        nested, errors = self.validate(data, strict=strict)
        if errors:
            raise ValidationError(errors)
        return nested

    def describe(self) -> Iterable[str]:
        for key, fld in self.fields.items():
            default = "required" if fld.required else f"default {fld.default!r}"
            yield f"{key} ({fld.kind}, {default}){': ' + fld.help if fld.help else ''}"
