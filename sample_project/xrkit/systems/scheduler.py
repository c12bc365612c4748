"""Runs systems once per scene step."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Callable, Union

from xrkit.systems.base import ManagedSystem

if TYPE_CHECKING:
    from xrkit.scene import Scene

SystemFn = Callable[["Scene", float], None]
System = Union[ManagedSystem, SystemFn]


class Scheduler:
    """Owns a scene's systems and runs them in priority order.

    Two kinds of system are accepted:

    * instances of :class:`~xrkit.systems.base.ManagedSystem` subclasses,
      which get ``on_attach``, ``on_update`` and ``on_detach``;
    * plain callables ``fn(scene, dt)``, which are simply called every step
      (priority 0) and get no lifecycle callbacks.

    Anything else is rejected with a warning and never runs, even if it
    defines ``on_update``.

    Args:
        scene: The scene passed to every callback.
    """

    def __init__(self, scene: "Scene") -> None:
        self._scene = scene
        self._systems: list[System] = []

    @property
    def systems(self) -> tuple[System, ...]:
        """Registered systems in the order they will run."""
        return tuple(sorted(self._systems, key=_priority))

    def add(self, system: System) -> System:
        """Register ``system`` and return it.

        A :class:`ManagedSystem` has its ``on_attach`` called immediately.

        Raises:
            ValueError: If the system is already registered, or attached to
                another scene.
        """
        if any(s is system for s in self._systems):
            raise ValueError(f"{system!r} is already scheduled")
        if isinstance(system, ManagedSystem):
            if system.is_attached:
                raise ValueError(f"{system!r} is attached to another scene")
            self._systems.append(system)
            system._scene = self._scene
            system.on_attach(self._scene)
        elif callable(system):
            self._systems.append(system)
        else:
            warnings.warn(
                f"{type(system).__name__} is neither a ManagedSystem subclass nor callable; "
                "the scheduler will never run it",
                stacklevel=2,
            )
        return system

    def remove(self, system: System) -> None:
        """Unregister ``system``; a :class:`ManagedSystem` gets ``on_detach``.

        Raises:
            ValueError: If the system is not registered.
        """
        for i, s in enumerate(self._systems):
            if s is system:
                del self._systems[i]
                break
        else:
            raise ValueError(f"{system!r} is not scheduled")
        if isinstance(system, ManagedSystem):
            system.on_detach(self._scene)
            system._scene = None

    def update(self, dt: float) -> None:
        """Run every system once, in priority order.

        Managed systems are skipped while ``enabled`` is False.
        """
        for system in self.systems:
            if isinstance(system, ManagedSystem):
                if system.enabled:
                    system.on_update(self._scene, dt)
            else:
                system(self._scene, dt)

    def clear(self) -> None:
        """Remove every system, detaching managed ones in reverse run order."""
        for system in reversed(self.systems):
            self.remove(system)

    def __len__(self) -> int:
        return len(self._systems)


def _priority(system: System) -> int:
    return system.priority if isinstance(system, ManagedSystem) else 0
