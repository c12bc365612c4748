"""Configuration sources ("layers").

A layer knows how to produce one nested ``dict``; it knows nothing about
precedence, which :mod:`confluent.merge` applies, nor about types, which
:mod:`confluent.schema` applies. Values from the environment and the command
line therefore stay strings until a schema coerces them.
"""

from __future__ import annotations

import copy
import os
import shlex
import tomllib
from pathlib import Path
from typing import Any, Mapping, Sequence

from .constants import ENV_PREFIX, ENV_SEPARATOR
from .errors import ConfluentError, SourceError


def set_nested(target: dict, parts: Sequence[str], value: Any) -> None:
    """Store ``value`` at ``parts`` inside ``target``, creating tables as needed.

    A non-table value found on the way is replaced by a new table.
    """
    node = target
    for part in parts[:-1]:
        child = node.get(part)
        if not isinstance(child, dict):
            child = node[part] = {}
        node = child
    node[parts[-1]] = value


class Layer:
    """Base class: ``name`` is the precedence slot, ``load()`` the data."""

    name = "layer"

    def load(self) -> dict[str, Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def describe(self) -> str:
        return self.name


class DictLayer(Layer):
    """In-code defaults. ``load()`` returns a deep copy, so callers may mutate it."""

    name = "defaults"

    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        self.data = dict(data or {})

    def load(self) -> dict[str, Any]:
        return copy.deepcopy(self.data)


class TomlLayer(Layer):
    """One TOML file.

    A missing file is skipped silently unless ``required`` is true, in which
    case :class:`~confluent.errors.SourceError` is raised. A file that exists
    but does not parse always raises :class:`~confluent.errors.SourceError`.
    """

    name = "file"

    def __init__(self, path: str | os.PathLike[str], *, required: bool = False) -> None:
        self.path = Path(path)
        self.required = required

    def load(self) -> dict[str, Any]:
        if not self.path.exists():
            if self.required:
                raise SourceError(str(self.path), "file not found")
            return {}
        try:
            with self.path.open("rb") as fh:
                return tomllib.load(fh)
        except tomllib.TOMLDecodeError as exc:
            raise SourceError(str(self.path), str(exc)) from exc

    def describe(self) -> str:
        return f"file:{self.path}"


class EnvLayer(Layer):
    """Environment variables that start with ``prefix``.

    ``APP_DB__HOST=x`` becomes ``{"db": {"host": "x"}}``: the prefix is
    removed, the rest is lower-cased and split on ``separator``.

    Args:
        prefix: Variable-name prefix, ``"CONFLUENT_"`` unless given.
        separator: Nesting separator, ``"__"`` unless given.
        environ: Mapping to read instead of :data:`os.environ`.
    """

    name = "env"

    def __init__(
        self,
        prefix: str = ENV_PREFIX,
        separator: str = ENV_SEPARATOR,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self.prefix = prefix
        self.separator = separator
        self.environ = environ

    def load(self) -> dict[str, Any]:
        env = os.environ if self.environ is None else self.environ
        out: dict[str, Any] = {}
        for key in sorted(env):
            if not key.startswith(self.prefix):
                continue
            parts = [p for p in key[len(self.prefix):].lower().split(self.separator) if p]
            if parts:
                set_nested(out, parts, env[key])
        return out


class CliLayer(Layer):
    """``key=value`` overrides, as a list of tokens or one shell-like string.

    A string is split with :func:`shlex.split`. Leading dashes on a token are
    dropped, so ``--db.port=5433`` and ``db.port=5433`` mean the same.
    """

    name = "cli"

    def __init__(self, args: Sequence[str] | str = ()) -> None:
        self.args = shlex.split(args) if isinstance(args, str) else list(args)

    def load(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for token in self.args:
            token = token.lstrip("-")
            key, sep, value = token.partition("=")
            if not sep or not key:
                raise ConfluentError(f"override {token!r} is not key=value")
            set_nested(out, key.split("."), value)
        return out
