"""Shared constants for confluent.

Every default that more than one module needs lives here, so that the loader,
the layers and the redaction helpers agree on one value.
"""

from __future__ import annotations

#: Prefix an environment variable must carry to be read by :class:`EnvLayer`.
ENV_PREFIX = "APP_"

#: Separator between nesting levels inside an environment variable name.
ENV_SEPARATOR = "__"

#: Environment variable consulted when no profile is passed explicitly.
PROFILE_ENV_VAR = "CONFLUENT_PROFILE"

#: Profile used when neither the caller nor the environment selects one.
DEFAULT_PROFILE = "default"

#: Name of the TOML table whose sub-tables hold per-profile overlays.
PROFILES_TABLE = "profiles"

#: How many nested ``${...}`` hops one value may take before we give up.
MAX_INTERPOLATION_DEPTH = 10

#: What a secret value is replaced with in ``repr`` and ``dumps``.
REDACTION_MASK = "<redacted>"

#: Glob patterns (matched against the last key segment) that mark a secret.
SECRET_PATTERNS = ("*password*", "*secret*", "*token*", "*_key")

#: Words accepted by the ``bool`` coercer (compared after ``strip().lower()``).
TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})

#: Separator used when a plain string is coerced to a list.
LIST_SEPARATOR = ","

#: Layer names, lowest precedence first.
PRECEDENCE = ("defaults", "file", "env", "cli")

#: Multipliers for size suffixes, keyed by the lower-cased suffix.
SIZE_UNITS = {
    "b": 1,
    "kb": 1000,
    "mb": 1000**2,
    "gb": 1000**3,
    "kib": 1024,
    "mib": 1024**2,
    "gib": 1024**3,
}

#: Multipliers (to seconds) for duration suffixes.
DURATION_UNITS = {
    "ms": 0.001,
    "s": 1.0,
    "m": 60.0,
    "h": 3600.0,
    "d": 86400.0,
}
