"""Base class for components."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xrkit.ecs.entity import Entity


class Component:
    """Data attached to an :class:`~xrkit.ecs.entity.Entity` under an attribute id.

    Components hold state; systems hold behaviour. A component belongs to at
    most one entity at a time. Which attribute id a component lives under is
    decided by a :class:`~xrkit.ecs.registry.ComponentRegistry`, not by the
    component itself.

    Subclasses may override :meth:`on_added` and :meth:`on_removed` to react
    to being attached and detached.
    """

    def __init__(self) -> None:
        self._entity: Entity | None = None
        self._enabled = True

    @property
    def entity(self) -> "Entity | None":
        """The entity this component is attached to, or None."""
        return self._entity

    @property
    def enabled(self) -> bool:
        """Whether systems should process this component."""
        return self._enabled

    def enable(self) -> None:
        """Turn the component on (the default)."""
        self._enabled = True

    def disable(self) -> None:
        """Turn the component off; systems skip disabled components."""
        self._enabled = False

    def on_added(self, entity: "Entity") -> None:
        """Called after the component is attached to ``entity``."""

    def on_removed(self, entity: "Entity") -> None:
        """Called after the component is detached from ``entity``."""

    def _bind(self, entity: "Entity | None") -> None:
        self._entity = entity

    def __repr__(self) -> str:
        owner = self._entity.name if self._entity is not None else None
        return f"{type(self).__name__}(entity={owner!r})"
