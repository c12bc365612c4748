"""The scene: entities, their registry, systems and the frame step."""

from __future__ import annotations

from typing import Iterable, Iterator

from xrkit.config import DEFAULT_FIXED_DT
from xrkit.ecs.component import Component
from xrkit.ecs.entity import Entity
from xrkit.ecs.registry import ComponentRegistry
from xrkit.ecs.state import FlushResult, StateManager
from xrkit.errors import ComponentNotRegisteredError, SceneError
from xrkit.events import EventBus
from xrkit.systems.scheduler import Scheduler


class Scene:
    """A world of entities advanced in fixed steps.

    A scene owns a :class:`~xrkit.ecs.registry.ComponentRegistry`
    (:attr:`registry`), a :class:`~xrkit.ecs.state.StateManager`
    (:attr:`state`), a :class:`~xrkit.systems.scheduler.Scheduler`
    (:attr:`scheduler`) and an :class:`~xrkit.events.EventBus` (:attr:`events`).

    Args:
        name: Label used in logs and ``repr``.
        fixed_dt: Length of one :meth:`step`, in seconds.
        registry: Component registry; a new one with the built-in ids if None.
    """

    def __init__(
        self,
        name: str = "scene",
        *,
        fixed_dt: float = DEFAULT_FIXED_DT,
        registry: ComponentRegistry | None = None,
    ) -> None:
        if fixed_dt <= 0:
            raise ValueError("fixed_dt must be positive")
        self.name = name
        self.fixed_dt = fixed_dt
        self.registry = registry if registry is not None else ComponentRegistry.with_builtins()
        self.state = StateManager()
        self.events = EventBus()
        self.scheduler = Scheduler(self)
        self.frame = 0
        self.time = 0.0
        self._entities: dict[int, Entity] = {}

    # -- membership -------------------------------------------------------
    def add(self, entity: Entity) -> Entity:
        """Add an existing entity and return it.

        Raises:
            SceneError: If the entity already belongs to a scene.
            ComponentNotRegisteredError: If one of its attribute ids is unknown here.
        """
        if entity.scene is not None:
            raise SceneError(f"{entity!r} already belongs to scene {entity.scene.name!r}")
        for attr_id in entity.component_ids():
            if attr_id not in self.registry:
                raise ComponentNotRegisteredError(f"{attr_id!r} is not registered in {self.name!r}")
        entity._scene = self
        self._entities[entity.id] = entity
        self.events.emit("entity_added", entity)
        return entity

    def spawn(self, name: str, components: Iterable[Component] = ()) -> Entity:
        """Create an entity named ``name``, add it, then attach ``components``.

        Because the entity joins the scene first, its components are resolved
        against this scene's :attr:`registry`, so custom components registered
        here can be passed directly.

        Args:
            name: Name of the new entity.
            components: Components to attach, in order.

        Returns:
            Entity: The new entity.
        """
        entity = self.add(Entity(name))
        for component in components:
            entity.add_component(component)
        return entity

    def destroy(self, entity: Entity) -> None:
        """Queue ``entity`` for removal at the end of the current step.

        The entity stays in :attr:`entities` until :meth:`step` finishes, but
        is immediately excluded from :attr:`active_entities`.

        Raises:
            SceneError: If the entity is not in this scene.
        """
        if entity.scene is not self:
            raise SceneError(f"{entity!r} is not in scene {self.name!r}")
        self.state.queue_destroy(entity)

    def _remove_now(self, entity: Entity) -> bool:
        if self._entities.pop(entity.id, None) is None:
            return False
        entity._scene = None
        return True

    # -- queries ----------------------------------------------------------
    @property
    def entities(self) -> tuple[Entity, ...]:
        """Every entity in the scene, in the order they were added."""
        return tuple(self._entities.values())

    @property
    def active_entities(self) -> tuple[Entity, ...]:
        """Entities that systems should process this step.

        Disabled entities (``enabled`` is False) and entities queued with
        :meth:`destroy` are left out.
        """
        return tuple(
            e for e in self._entities.values() if e.enabled and not self.state.is_pending(e)
        )

    def find_by_tag(self, tag: str) -> Entity | None:
        """Return the first entity (in insertion order) carrying ``tag``, or None.

        Args:
            tag: The tag to look for.
        """
        return next((e for e in self._entities.values() if e.has_tag(tag)), None)

    def find_all_by_tag(self, tag: str) -> tuple[Entity, ...]:
        """Find every entity carrying ``tag``.

        Args:
            tag: The tag to look for.

        Returns:
            list[Entity]: The matching entities, in insertion order.
        """
        return tuple(e for e in self._entities.values() if e.has_tag(tag))

    def find_by_name(self, name: str) -> Entity | None:
        """Return the first entity named ``name``, or None."""
        return next((e for e in self._entities.values() if e.name == name), None)

    def query(self, *attr_ids: str) -> Iterator[Entity]:
        """Yield the active entities that have a component under every id in ``attr_ids``.

        Example:
            >>> for entity in scene.query("mesh", "collider"):  # doctest: +SKIP
            ...     print(entity.name)
        """
        for attr_id in attr_ids:
            self.registry.get(attr_id)  # reject typos early
        for entity in self.active_entities:
            if all(entity.has_component(a) for a in attr_ids):
                yield entity

    # -- simulation -------------------------------------------------------
    def step(self, dt: float | None = None) -> FlushResult:
        """Advance the scene by one step.

        Runs the scheduler (every enabled system, in priority order), then
        applies the removals queued during the step with
        :meth:`StateManager.flush <xrkit.ecs.state.StateManager.flush>`.

        Args:
            dt: Step length in seconds; :attr:`fixed_dt` if None.

        Returns:
            FlushResult: What the end-of-step flush removed.
        """
        dt = self.fixed_dt if dt is None else dt
        self.scheduler.update(dt)
        result = self.state.flush(self)
        self.frame += 1
        self.time += dt
        return result

    def run(self, steps: int) -> None:
        """Call :meth:`step` ``steps`` times with :attr:`fixed_dt`."""
        for _ in range(steps):
            self.step()

    def __len__(self) -> int:
        return len(self._entities)

    def __contains__(self, entity: object) -> bool:
        return isinstance(entity, Entity) and self._entities.get(entity.id) is entity

    def __repr__(self) -> str:
        return f"Scene(name={self.name!r}, entities={len(self)}, frame={self.frame})"
