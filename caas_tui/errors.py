"""One family of expected failures.

Anything raised as a ``CaasError`` is a condition a user can act on; front ends
print ``str(error)`` as a single line (CLI: stderr + exit code 2, TUI: a
notification, MCP: a tool error). Anything else is a bug and keeps its traceback.
"""

from __future__ import annotations


class CaasError(Exception):
    """Base of every expected failure. The message is one user-facing line."""

    exit_code = 2


class ConfigError(CaasError):
    """``caas.toml`` or a command-line option is invalid."""


class ProjectError(CaasError):
    """The project root is missing, not a directory, or holds nothing to index."""


class IndexStoreError(CaasError):
    """The on-disk index is missing, corrupt, locked or from another version."""


class ModelError(CaasError):
    """An embedding model cannot be found or loaded."""


class PathOutsideRoot(CaasError):
    """A path resolves outside the project root; nothing is read or written."""


class ReviewError(CaasError):
    """A reviewer failed (API error, timeout, malformed answer)."""


class StaleError(CaasError):
    """A document changed since the verdict that refers to it was made."""


class PatchError(CaasError):
    """Accepted fixes cannot be turned into a patch or applied."""


class VerdictStoreError(CaasError):
    """A row of the verdict store cannot be decoded (disk fault, hand edit)."""
