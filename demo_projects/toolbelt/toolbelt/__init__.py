"""toolbelt: feature flags with deterministic rollouts.

The names most applications need are re-exported here; the loaders live in
:mod:`toolbelt.loader` and the polling helper in :mod:`toolbelt.refresh`.
"""

from __future__ import annotations

from .client import FlagClient
from .context import Context
from .errors import FlagNotFound, InvalidFlag, LoaderError, RuleSyntaxError, SourceError, ToolbeltError
from .flags import Evaluation, Flag, Variant
from .rules import Condition, Rule, parse_condition
from .store import FlagStore

__all__ = [
    "Condition",
    "Context",
    "Evaluation",
    "Flag",
    "FlagClient",
    "FlagNotFound",
    "FlagStore",
    "InvalidFlag",
    "LoaderError",
    "Rule",
    "RuleSyntaxError",
    "SourceError",
    "ToolbeltError",
    "Variant",
    "parse_condition",
]

__version__ = "3.2.0"
