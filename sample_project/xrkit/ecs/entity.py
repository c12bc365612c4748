"""Entities: named bags of components."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Iterable, TypeVar

from xrkit.ecs.component import Component
from xrkit.ecs.registry import ComponentRegistry, builtin_registry
from xrkit.ecs.transform import Transform
from xrkit.errors import DuplicateComponentError

if TYPE_CHECKING:
    from xrkit.scene import Scene

C = TypeVar("C", bound=Component)

_ids = itertools.count(1)


class Entity:
    """Something in a scene: a name, tags, and components keyed by attribute id.

    Every entity starts with a :class:`~xrkit.ecs.transform.Transform` under
    ``"transform"``. Add it to a scene with :meth:`xrkit.scene.Scene.add`, or
    create and add in one go with :meth:`xrkit.scene.Scene.spawn`.

    Args:
        name: Human-readable name; need not be unique.
        tags: Initial tags, used by :meth:`xrkit.scene.Scene.find_by_tag`.
        enabled: Disabled entities are left out of
            :attr:`xrkit.scene.Scene.active_entities` and
            :meth:`xrkit.scene.Scene.query`, and so are skipped by the
            built-in systems.
    """

    def __init__(self, name: str = "entity", *, tags: Iterable[str] = (), enabled: bool = True) -> None:
        self.id: int = next(_ids)
        self.name = name
        self.enabled = enabled
        self._tags: set[str] = set(tags)
        self._components: dict[str, Component] = {}
        self._scene: Scene | None = None
        self.add_component(Transform())

    # -- membership -------------------------------------------------------
    @property
    def scene(self) -> "Scene | None":
        """The scene this entity belongs to, or None."""
        return self._scene

    def _registry(self) -> ComponentRegistry:
        return self._scene.registry if self._scene is not None else builtin_registry()

    # -- components -------------------------------------------------------
    @property
    def transform(self) -> Transform:
        """Shortcut for ``get_component("transform")``."""
        return self._components["transform"]  # type: ignore[return-value]

    def add_component(self, component: C, *, attr_id: str | None = None) -> C:
        """Attach ``component`` and return it.

        The attribute id is looked up in the registry from the component's
        class unless ``attr_id`` is given, in which case it must be registered
        for that class.

        Args:
            component: The component instance to attach.
            attr_id: Explicit attribute id; defaults to the registered id.

        Raises:
            DuplicateComponentError: If the entity already has a component under that id.
            ComponentNotRegisteredError: If the component's class is not registered.
        """
        registry = self._registry()
        if attr_id is None:
            attr_id = registry.id_for(type(component))
        elif not issubclass(type(component), registry.get(attr_id)):
            raise TypeError(f"{type(component).__name__} cannot be stored under {attr_id!r}")
        if attr_id in self._components:
            raise DuplicateComponentError(f"{self.name!r} already has a {attr_id!r} component")
        if component.entity is not None:
            raise DuplicateComponentError(f"{component!r} is already attached")
        self._components[attr_id] = component
        component._bind(self)
        component.on_added(self)
        return component

    def get_component(self, attr_id: str) -> Component | None:
        """Return the component stored under ``attr_id``, or None if absent.

        Args:
            attr_id: Attribute id string, e.g. ``"collider"``.

        Raises:
            ComponentNotRegisteredError: If ``attr_id`` is not registered (likely a typo).
        """
        self._registry().get(attr_id)
        return self._components.get(attr_id)

    def has_component(self, attr_id: str) -> bool:
        """True if a component is stored under ``attr_id``."""
        return self.get_component(attr_id) is not None

    def component_ids(self) -> tuple[str, ...]:
        """Attribute ids of the attached components, in insertion order."""
        return tuple(self._components)

    def remove_component(self, attr_id: str) -> None:
        """Remove the component stored under ``attr_id``.

        For an entity in a scene the removal is queued with the scene's
        :class:`~xrkit.ecs.state.StateManager` and applied at the end of the
        current step. Entities outside a scene drop the component at once.

        Raises:
            KeyError: If there is no component under ``attr_id``.
            ValueError: For ``"transform"``, which every entity must keep.
        """
        if attr_id == "transform":
            raise ValueError("the transform component cannot be removed")
        if attr_id not in self._components:
            raise KeyError(attr_id)
        if self._scene is not None:
            self._scene.state.queue_component_removal(self, attr_id)
        else:
            self._detach_component(attr_id)

    def _detach_component(self, attr_id: str) -> Component | None:
        component = self._components.pop(attr_id, None)
        if component is not None:
            component._bind(None)
            component.on_removed(self)
        return component

    # -- tags -------------------------------------------------------------
    @property
    def tags(self) -> frozenset[str]:
        """The entity's tags."""
        return frozenset(self._tags)

    def add_tag(self, tag: str) -> None:
        """Add ``tag``; adding an existing tag does nothing."""
        self._tags.add(tag)

    def remove_tag(self, tag: str) -> None:
        """Remove ``tag`` if present."""
        self._tags.discard(tag)

    def has_tag(self, tag: str) -> bool:
        """True if the entity carries ``tag``."""
        return tag in self._tags

    def __repr__(self) -> str:
        return f"Entity(id={self.id}, name={self.name!r}, components={list(self._components)})"
