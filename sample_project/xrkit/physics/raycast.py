"""Ray queries against colliders."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xrkit.geometry.bounds import AABB
from xrkit.math.vector import Vec3, VecLike
from xrkit.physics.collider import ColliderComponent

if TYPE_CHECKING:
    from xrkit.ecs.entity import Entity
    from xrkit.scene import Scene


@dataclass(frozen=True, slots=True)
class RaycastHit:
    """The closest collider a ray met.

    Attributes:
        entity: Entity owning the collider.
        point: World-space hit point.
        distance: Distance from the ray origin to ``point``.
    """

    entity: "Entity"
    point: Vec3
    distance: float


def _slab(origin: Vec3, direction: Vec3, box: AABB) -> float | None:
    t_near, t_far = -math.inf, math.inf
    for o, d, lo, hi in zip(origin, direction, box.min, box.max):
        if abs(d) < 1e-12:
            if o < lo or o > hi:
                return None
            continue
        t1, t2 = (lo - o) / d, (hi - o) / d
        t_near, t_far = max(t_near, min(t1, t2)), min(t_far, max(t1, t2))
        if t_near > t_far:
            return None
    if t_far < 0:
        return None
    return max(t_near, 0.0)


def raycast(
    scene: "Scene",
    origin: VecLike,
    direction: VecLike,
    max_distance: float = math.inf,
    *,
    include_triggers: bool = False,
) -> RaycastHit | None:
    """Cast a ray and return the nearest collider hit.

    Tests against each collider's world-space bounding box, which is exact
    for unrotated boxes and conservative otherwise. Only
    :attr:`~xrkit.scene.Scene.active_entities` with an enabled collider are
    considered.

    Args:
        scene: Scene to query.
        origin: Ray start in world space.
        direction: Ray direction; normalized for you.
        max_distance: Ignore hits farther than this.
        include_triggers: Also report trigger colliders.

    Returns:
        RaycastHit | None: The closest hit, or None if the ray hits nothing.
    """
    o, d = Vec3.of(origin), Vec3.of(direction).normalized()
    best: RaycastHit | None = None
    for entity in scene.active_entities:
        collider = entity.get_component("collider")
        if not isinstance(collider, ColliderComponent) or not collider.enabled:
            continue
        if collider.is_trigger and not include_triggers:
            continue
        t = _slab(o, d, collider.world_bounds())
        if t is None or t > max_distance:
            continue
        if best is None or t < best.distance:
            best = RaycastHit(entity, o + d * t, t)
    return best
