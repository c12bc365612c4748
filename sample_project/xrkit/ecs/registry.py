"""Maps attribute ids (``"collider"``) to component classes."""

from __future__ import annotations

import re
from typing import Iterator

from xrkit.ecs.component import Component
from xrkit.errors import ComponentNotRegisteredError, DuplicateComponentError

_ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")


class ComponentRegistry:
    """The attribute ids a scene understands.

    Components are stored on entities under an attribute id: a short
    lower-case identifier such as ``"mesh"`` or ``"collider"``. The registry
    is the single source of truth for which class each id holds; entity
    lookups go through it, so they take the id string, never the class.

    Example:
        >>> class Health(Component):
        ...     pass
        >>> registry = ComponentRegistry()
        >>> registry.register("health", Health)
        >>> registry.get("health").__name__
        'Health'
    """

    def __init__(self) -> None:
        self._by_id: dict[str, type[Component]] = {}
        self._by_type: dict[type[Component], str] = {}

    @classmethod
    def with_builtins(cls) -> "ComponentRegistry":
        """A registry pre-populated with xrkit's built-in components.

        See :data:`xrkit.components.BUILTIN_COMPONENTS` for the ids.
        """
        from xrkit.components import BUILTIN_COMPONENTS  # late: avoids an import cycle

        registry = cls()
        for attr_id, component_type in BUILTIN_COMPONENTS.items():
            registry.register(attr_id, component_type)
        return registry

    def register(self, attr_id: str, component_type: type[Component], *, replace: bool = False) -> None:
        """Register ``component_type`` under ``attr_id``.

        Registering the same class under the same id twice is a no-op.

        Args:
            attr_id: Lower-case identifier (``[a-z][a-z0-9_]*``).
            component_type: A :class:`~xrkit.ecs.component.Component` subclass.
            replace: Allow rebinding an id that already holds another class.

        Raises:
            ValueError: If ``attr_id`` is not a valid identifier.
            TypeError: If ``component_type`` is not a Component subclass.
            DuplicateComponentError: If the id or the class is already taken.
        """
        if not isinstance(attr_id, str) or not _ID_PATTERN.match(attr_id):
            raise ValueError(f"invalid attribute id {attr_id!r}")
        if not (isinstance(component_type, type) and issubclass(component_type, Component)):
            raise TypeError(f"{component_type!r} is not a Component subclass")
        current = self._by_id.get(attr_id)
        if current is component_type:
            return
        if current is not None and not replace:
            raise DuplicateComponentError(f"attribute id {attr_id!r} already holds {current.__name__}")
        if component_type in self._by_type and self._by_type[component_type] != attr_id:
            raise DuplicateComponentError(
                f"{component_type.__name__} is already registered as {self._by_type[component_type]!r}"
            )
        if current is not None:
            del self._by_type[current]
        self._by_id[attr_id] = component_type
        self._by_type[component_type] = attr_id

    def get(self, attr_id: str) -> type[Component]:
        """Return the class registered under ``attr_id``.

        Args:
            attr_id: The attribute id string, e.g. ``"collider"``.

        Raises:
            TypeError: If given something other than a string (such as a class).
            ComponentNotRegisteredError: If nothing is registered under ``attr_id``.
        """
        if not isinstance(attr_id, str):
            raise TypeError(
                f"component lookups take an attribute id string such as 'collider', got {attr_id!r}"
            )
        try:
            return self._by_id[attr_id]
        except KeyError:
            raise ComponentNotRegisteredError(f"no component registered under {attr_id!r}") from None

    def id_for(self, component_type: type[Component]) -> str:
        """Return the attribute id of ``component_type`` (or of its nearest registered base).

        Raises:
            ComponentNotRegisteredError: If neither the class nor a base is registered.
        """
        for klass in component_type.__mro__:
            if klass in self._by_type:
                return self._by_type[klass]
        raise ComponentNotRegisteredError(f"{component_type.__name__} is not registered")

    def unregister(self, attr_id: str) -> None:
        """Forget ``attr_id``. Entities keep components already stored under it."""
        component_type = self.get(attr_id)
        del self._by_id[attr_id]
        del self._by_type[component_type]

    def ids(self) -> tuple[str, ...]:
        """All registered attribute ids, in registration order."""
        return tuple(self._by_id)

    def __contains__(self, attr_id: object) -> bool:
        return attr_id in self._by_id

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_id)

    def __len__(self) -> int:
        return len(self._by_id)


_BUILTINS: ComponentRegistry | None = None


def builtin_registry() -> ComponentRegistry:
    """The shared registry used by entities that do not belong to a scene yet."""
    global _BUILTINS
    if _BUILTINS is None:
        _BUILTINS = ComponentRegistry.with_builtins()
    return _BUILTINS
