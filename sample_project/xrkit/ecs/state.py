"""Deferred structural changes.

Systems iterate over entities while they run. Removing an entity or a
component in the middle of that iteration would invalidate it, so xrkit
follows the Helios rule: structural removals requested during a frame are
queued and applied together when the frame ends.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xrkit.ecs.entity import Entity
    from xrkit.scene import Scene


@dataclass(frozen=True, slots=True)
class FlushResult:
    """What one :meth:`StateManager.flush` applied."""

    destroyed: tuple["Entity", ...] = ()
    removed_components: tuple[tuple["Entity", str], ...] = ()

    @property
    def empty(self) -> bool:
        """True if nothing was pending."""
        return not self.destroyed and not self.removed_components


@dataclass
class StateManager:
    """Collects removals during a frame and applies them in :meth:`flush`.

    :meth:`xrkit.scene.Scene.step` calls :meth:`flush` after every system
    has updated, so removals become visible from the next frame on. Until
    then the entity stays in :attr:`xrkit.scene.Scene.entities` and keeps its
    components; :meth:`is_pending` tells whether it is on its way out.
    """

    _destroy: dict[int, "Entity"] = field(default_factory=dict)
    _remove: list[tuple["Entity", str]] = field(default_factory=list)

    def queue_destroy(self, entity: "Entity") -> None:
        """Schedule ``entity`` for removal at the next flush. Queuing twice is harmless."""
        self._destroy.setdefault(entity.id, entity)

    def queue_component_removal(self, entity: "Entity", attr_id: str) -> None:
        """Schedule removal of the component stored under ``attr_id`` on ``entity``."""
        if (entity, attr_id) not in self._remove:
            self._remove.append((entity, attr_id))

    def is_pending(self, entity: "Entity") -> bool:
        """True if ``entity`` is queued for destruction."""
        return entity.id in self._destroy

    def is_component_pending(self, entity: "Entity", attr_id: str) -> bool:
        """True if the component under ``attr_id`` is queued for removal."""
        return (entity, attr_id) in self._remove

    @property
    def pending_count(self) -> int:
        """Number of queued entity destructions plus component removals."""
        return len(self._destroy) + len(self._remove)

    def flush(self, scene: "Scene") -> FlushResult:
        """Apply every queued removal to ``scene``.

        Component removals run first (so ``on_removed`` hooks still see a live
        entity), then entity destructions. Each destroyed entity is announced
        with an ``"entity_destroyed"`` event, each removed component with
        ``"component_removed"``.

        Args:
            scene: The scene that owns the queued entities.

        Returns:
            FlushResult: The entities and components that were removed.
        """
        removed: list[tuple[Entity, str]] = []
        for entity, attr_id in self._remove:
            if entity.id in self._destroy:
                continue  # the whole entity goes anyway
            if entity._detach_component(attr_id) is not None:
                removed.append((entity, attr_id))
                scene.events.emit("component_removed", entity, attr_id)
        destroyed = []
        for entity in self._destroy.values():
            if scene._remove_now(entity):
                destroyed.append(entity)
                scene.events.emit("entity_destroyed", entity)
        self._destroy.clear()
        self._remove.clear()
        return FlushResult(tuple(destroyed), tuple(removed))

    def clear(self) -> None:
        """Drop every queued removal without applying it."""
        self._destroy.clear()
        self._remove.clear()
