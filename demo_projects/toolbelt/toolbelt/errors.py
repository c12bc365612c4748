"""Exception hierarchy of toolbelt.

All errors derive from :class:`ToolbeltError`. Several also derive from a
built-in exception so that callers who already catch ``KeyError`` or
``ValueError`` keep working.
"""

from __future__ import annotations


class ToolbeltError(Exception):
    """Base class of every error raised on purpose by toolbelt."""


class FlagNotFound(ToolbeltError, KeyError):
    """A flag key is not present in the store."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key

    def __str__(self) -> str:
        return f"no flag named {self.key!r}"


class InvalidFlag(ToolbeltError, ValueError):
    """A flag definition, variant or context is malformed."""


class RuleSyntaxError(InvalidFlag):
    """A condition string could not be parsed.

    Parameters
    ----------
    text : str
        The condition as written.
    reason : str
        What is wrong with it.
    """

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"{reason}: {text!r}")
        self.text = text
        self.reason = reason


class LoaderError(ToolbeltError):
    """A flag file could be read but not understood."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class SourceError(ToolbeltError):
    """A flag source failed while a refresher polled it."""
