"""Simple procedural animation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from xrkit.ecs.component import Component
from xrkit.math.vector import Vec3, VecLike
from xrkit.systems.base import ManagedSystem

if TYPE_CHECKING:
    from xrkit.scene import Scene


class SpinComponent(Component):
    """Spins an entity at a constant rate. Stored under ``"spin"``.

    Args:
        axis: Rotation axis in world space.
        degrees_per_second: Angular speed; negative spins the other way.
    """

    def __init__(self, axis: VecLike = (0.0, 1.0, 0.0), degrees_per_second: float = 45.0) -> None:
        super().__init__()
        self.axis = Vec3.of(axis)
        self.degrees_per_second = degrees_per_second


class SpinSystem(ManagedSystem):
    """Applies every enabled :class:`SpinComponent` once per step."""

    def on_update(self, scene: "Scene", dt: float) -> None:
        for entity in scene.query("spin"):
            spin = entity.get_component("spin")
            if spin is not None and spin.enabled:
                entity.transform.rotate(spin.axis, spin.degrees_per_second * dt)
