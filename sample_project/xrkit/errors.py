"""Exception hierarchy. Everything xrkit raises on purpose derives from :class:`XrkitError`."""

from __future__ import annotations


class XrkitError(Exception):
    """Base class for all xrkit errors."""


class ComponentNotRegisteredError(XrkitError, KeyError):
    """An attribute id or component class is not known to the registry."""

    def __str__(self) -> str:  # KeyError quotes its argument; keep the message readable
        return str(self.args[0]) if self.args else ""


class DuplicateComponentError(XrkitError):
    """An entity already has a component under that attribute id, or an id is taken."""


class SceneError(XrkitError):
    """An operation does not fit the entity's scene membership."""


class ResourceUriError(XrkitError, ValueError):
    """A resource URI is malformed."""


class ResourceNotFoundError(XrkitError, FileNotFoundError):
    """A resource URI does not resolve to a file."""


class SessionError(XrkitError):
    """An XR session was used in the wrong state."""
