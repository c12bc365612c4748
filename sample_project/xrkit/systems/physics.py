"""Rigid-body integration and contact detection."""

from __future__ import annotations

from typing import TYPE_CHECKING

from xrkit.config import DEFAULT_GRAVITY, DEFAULT_SUBSTEPS
from xrkit.math.vector import Vec3, VecLike
from xrkit.physics.collider import ColliderComponent
from xrkit.physics.rigidbody import RigidBodyComponent
from xrkit.systems.base import ManagedSystem

if TYPE_CHECKING:
    from xrkit.ecs.entity import Entity
    from xrkit.scene import Scene


class PhysicsSystem(ManagedSystem):
    """Moves rigid bodies and reports contacts between colliders.

    Bodies are integrated with semi-implicit Euler over ``substeps`` equal
    slices of each step. A dynamic body that sinks into a static collider
    (one without a dynamic rigid body) from above is pushed back on top of it
    and loses its downward velocity, which is enough to rest objects on a
    floor. Every pair of colliders that starts overlapping is announced with a
    ``"contact"`` event ``(entity_a, entity_b)``.

    :param gravity: Acceleration applied to bodies with ``use_gravity``.
    :param substeps: Integration slices per step; at least 1.
    :param priority: Run order; physics runs before priority-0 systems.
    """

    priority = -10

    def __init__(
        self,
        gravity: VecLike = DEFAULT_GRAVITY,
        substeps: int = DEFAULT_SUBSTEPS,
        *,
        priority: int | None = None,
    ) -> None:
        super().__init__(priority=priority)
        if substeps < 1:
            raise ValueError("substeps must be >= 1")
        self.gravity = Vec3.of(gravity)
        self.substeps = substeps
        self._contacts: set[tuple[int, int]] = set()

    @property
    def contacts(self) -> frozenset[tuple[int, int]]:
        """Ids ``(smaller, larger)`` of entity pairs overlapping after the last step."""
        return frozenset(self._contacts)

    def on_attach(self, scene: "Scene") -> None:
        self._contacts.clear()

    def on_update(self, scene: "Scene", dt: float) -> None:
        h = dt / self.substeps
        entities = scene.active_entities
        for entity in entities:
            body = entity.get_component("rigidbody")
            if isinstance(body, RigidBodyComponent) and body.enabled and not body.kinematic:
                for _ in range(self.substeps):
                    if body.use_gravity:
                        body.velocity = body.velocity + self.gravity * h
                    entity.transform.translate(body.velocity * h)
                self._rest_on_static(entity, body, entities)
        self._detect_contacts(scene, entities)

    def on_detach(self, scene: "Scene") -> None:
        self._contacts.clear()

    @staticmethod
    def _is_dynamic(entity: "Entity") -> bool:
        body = entity.get_component("rigidbody")
        return isinstance(body, RigidBodyComponent) and not body.kinematic

    def _rest_on_static(self, entity: "Entity", body: RigidBodyComponent, entities) -> None:
        collider = entity.get_component("collider")
        if not isinstance(collider, ColliderComponent) or collider.is_trigger:
            return
        for other in entities:
            if other is entity or self._is_dynamic(other):
                continue
            support = other.get_component("collider")
            if not isinstance(support, ColliderComponent) or support.is_trigger or not support.enabled:
                continue
            mine, theirs = collider.world_bounds(), support.world_bounds()
            if mine.overlaps(theirs) and mine.center.y >= theirs.center.y:
                entity.transform.translate((0.0, theirs.max.y - mine.min.y, 0.0))
                if body.velocity.y < 0:
                    body.velocity = Vec3(body.velocity.x, 0.0, body.velocity.z)

    def _detect_contacts(self, scene: "Scene", entities) -> None:
        colliders = [
            (e, c) for e in entities
            if isinstance(c := e.get_component("collider"), ColliderComponent) and c.enabled
        ]
        current: set[tuple[int, int]] = set()
        for i, (a, ca) in enumerate(colliders):
            box_a = ca.world_bounds()
            for b, cb in colliders[i + 1:]:
                if box_a.overlaps(cb.world_bounds()):
                    pair = (min(a.id, b.id), max(a.id, b.id))
                    current.add(pair)
                    if pair not in self._contacts:
                        scene.events.emit("contact", a, b)
        self._contacts = current
