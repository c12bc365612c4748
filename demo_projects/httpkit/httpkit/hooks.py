"""Event hooks: code that runs around each request.

Register handlers with :meth:`HookRegistry.register`; the session calls
:meth:`HookRegistry.dispatch` for ``"request"`` and ``"response"`` events.
Handlers are named by dotted path so a configuration file can list them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

EVENTS = ("request", "response")


def resolve(dotted: str) -> Callable[[Any], Any]:
    """Import ``"package.module:attr"`` and return the attribute.

    :param dotted: module path and attribute name separated by a colon
    :returns: the attribute
    :raises ValueError: if ``dotted`` has no colon
    """
    module, sep, attr = dotted.partition(":")
    if not sep:
        raise ValueError(f"expected 'module:attr', got {dotted!r}")
    return getattr(importlib.import_module(module), attr)


class HookRegistry:
    """Handlers per event, called in registration order."""

    def __init__(self) -> None:
        self._handlers: dict[str, list[Callable[[Any], Any]]] = {event: [] for event in EVENTS}

    def register(self, event: str, handler: str) -> None:
        """Add a handler for ``event``.

        :param event: ``"request"`` or ``"response"``
        :param handler: the handler class to instantiate for each event
        :raises KeyError: if ``event`` is not a known event
        """
        if event not in self._handlers:
            raise KeyError(event)
        self._handlers[event].append(resolve(handler))

    def dispatch(self, event: str, payload: Any) -> Any:
        """Pass ``payload`` through every handler of ``event``.

        A handler that returns ``None`` leaves the payload unchanged.

        :returns: the payload after the last handler
        """
        for handler in self._handlers.get(event, []):
            result = handler(payload)
            if result is not None:
                payload = result
        return payload
