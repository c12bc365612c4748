"""Assembling a :class:`~confluent.config.Config` from layers.

The pipeline is: load every layer, apply profile overlays to file layers,
merge by precedence, resolve ``${...}`` references, then coerce and validate
with the schema (if any). Interpolation therefore runs on raw strings, before
any coercion.
"""

from __future__ import annotations

import os
from typing import Any, Mapping, Sequence

from .config import Config
from .constants import DEFAULT_PROFILE, ENV_PREFIX, ENV_SEPARATOR, PROFILE_ENV_VAR, PROFILES_TABLE
from .interpolate import Resolver
from .layers import CliLayer, DictLayer, EnvLayer, Layer, TomlLayer
from .merge import deep_merge, merge_layers
from .schema import Schema


class Loader:
    """Holds the sources of one configuration so it can be built again.

    Args:
        files: TOML paths, lowest precedence first (a later file wins).
        defaults: In-code defaults, merged *over* the schema's own defaults.
        schema: Optional :class:`~confluent.schema.Schema`.
        env_prefix: Prefix of environment variables to read.
        env_sep: Nesting separator inside variable names.
        cli_args: ``key=value`` overrides (list or shell-like string).
        profile: Profile name; see :meth:`resolve_profile`.
        environ: Mapping used instead of :data:`os.environ` (for tests).
        strict: Reject keys the schema does not declare.
    """

    def __init__(
        self,
        files: Sequence[str | os.PathLike[str]] = (),
        *,
        defaults: Mapping[str, Any] | None = None,
        schema: Schema | None = None,
        env_prefix: str = ENV_PREFIX,
        env_separator: str = ENV_SEPARATOR,
        cli_args: Sequence[str] | str = (),
        profile: str | None = None,
        environ: Mapping[str, str] | None = None,
        strict: bool = False,
    ) -> None:
        self.files = list(files)
        self.defaults = dict(defaults or {})
        self.schema = schema
        self.env_prefix = env_prefix
        self.env_separator = env_separator
        self.cli_args = cli_args
        self.profile = profile
        self.environ = environ
        self.strict = strict

    def resolve_profile(self) -> str:
        """The explicit ``profile``, else ``$CONFLUENT_PROFILE``, else the default."""
        if self.profile:
            return self.profile
        env = os.environ if self.environ is None else self.environ
        return env.get(PROFILE_ENV_VAR) or DEFAULT_PROFILE

    def layers(self) -> list[Layer]:
        """Fresh layer objects, lowest precedence first."""
        base = self.schema.defaults() if self.schema else {}
        out: list[Layer] = [DictLayer(deep_merge(base, self.defaults))]
        out.extend(TomlLayer(path) for path in self.files)
        out.append(EnvLayer(self.env_prefix, self.env_separator, self.environ))
        out.append(CliLayer(self.cli_args))
        return out

    def _load_layer(self, layer: Layer, profile: str) -> dict[str, Any]:
        data = layer.load()
        if isinstance(layer, TomlLayer):
            overlays = data.pop(PROFILES_TABLE, {})
            if isinstance(overlays, dict) and isinstance(overlays.get(profile), dict):
                data = deep_merge(data, overlays[profile])
        return data

    def build(self) -> Config:
        """Load, merge, interpolate and validate; returns a new :class:`Config`."""
        profile = self.resolve_profile()
        loaded = [(layer.name, self._load_layer(layer, profile)) for layer in self.layers()]
        merged, origins = merge_layers(loaded)
        resolved = Resolver(merged).resolve_all()
        secrets: frozenset[str] = frozenset()
        if self.schema is not None:
            resolved = self.schema.apply(resolved, strict=self.strict)
            secrets = self.schema.secret_keys()
        return Config(resolved, origins=origins, secrets=secrets, profile=profile, loader=self)


def load(*files: str | os.PathLike[str], **options: Any) -> Config:
    """Build a :class:`Config` in one call.

    ``load("base.toml", "local.toml", schema=s)`` is
    ``Loader(["base.toml", "local.toml"], schema=s).build()``; every keyword
    is passed to :class:`Loader`.
    """
    return Loader(files, **options).build()
