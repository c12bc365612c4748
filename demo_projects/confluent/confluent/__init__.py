"""confluent: layered configuration from defaults, TOML, environment and CLI.

The usual entry point is :func:`load`; :class:`Loader` keeps the sources for
:meth:`Config.reload`. Types are declared with :class:`Schema` and
:class:`Field`, and new kinds with :func:`register_coercer`.
"""

from .coerce import coerce, register_coercer
from .config import Config
from .errors import (
    ConfigKeyError,
    ConfluentError,
    CoercionError,
    CycleError,
    FieldError,
    FrozenError,
    InterpolationError,
    SourceError,
    UnknownKindError,
    ValidationError,
)
from .loader import Loader, load
from .schema import REQUIRED, Field, Schema

__version__ = "2.0.0"

__all__ = [
    "Config", "ConfigKeyError", "ConfluentError", "CoercionError", "CycleError", "Field",
    "FieldError", "FrozenError", "InterpolationError", "Loader", "REQUIRED", "Schema",
    "SourceError", "UnknownKindError", "ValidationError", "coerce", "load", "register_coercer",
]
