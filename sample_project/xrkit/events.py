"""A minimal synchronous event bus."""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable

Handler = Callable[..., None]


class EventBus:
    """Publish/subscribe by event name. Handlers run synchronously in subscription order.

    Events emitted by xrkit itself:

    ``"entity_added"`` ``(entity)``
        After :meth:`xrkit.scene.Scene.add`.
    ``"entity_destroyed"`` ``(entity)``
        When a queued destruction is applied at the end of a step.
    ``"component_removed"`` ``(entity, attr_id)``
        When a queued component removal is applied at the end of a step.
    ``"contact"`` ``(entity_a, entity_b)``
        When :class:`~xrkit.systems.physics.PhysicsSystem` sees two colliders start to overlap.
    """

    def __init__(self) -> None:
        self._handlers: defaultdict[str, list[Handler]] = defaultdict(list)

    def subscribe(self, event: str, handler: Handler) -> Callable[[], None]:
        """Call ``handler(*args)`` on every ``emit(event, *args)``.

        Returns:
            A function that unsubscribes the handler when called.
        """
        self._handlers[event].append(handler)

        def unsubscribe() -> None:
            if handler in self._handlers[event]:
                self._handlers[event].remove(handler)

        return unsubscribe

    def emit(self, event: str, *args: Any) -> int:
        """Deliver ``args`` to the handlers of ``event``; return how many ran."""
        handlers = list(self._handlers.get(event, ()))
        for handler in handlers:
            handler(*args)
        return len(handlers)

    def handler_count(self, event: str) -> int:
        """Number of handlers subscribed to ``event``."""
        return len(self._handlers.get(event, ()))
