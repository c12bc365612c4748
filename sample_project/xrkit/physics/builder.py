"""Automatic collider generation for primitive shapes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from xrkit.geometry.mesh import MeshComponent
from xrkit.geometry.shapes import Shape
from xrkit.physics.collider import ColliderComponent

if TYPE_CHECKING:
    from xrkit.ecs.entity import Entity
    from xrkit.scene import Scene


class CollisionBuilder:
    """Derives collision shapes from renderable geometry.

    Only primitives (box, sphere, capsule, plane) get a collider: their
    collision shape is the primitive itself, optionally grown by ``margin``.
    Entities whose ``"mesh"`` component holds a
    :class:`~xrkit.geometry.mesh.Mesh` are skipped and reported by
    :meth:`skipped_meshes`; give them a
    :class:`~xrkit.physics.collider.ColliderComponent` yourself, for example
    with :meth:`~xrkit.physics.collider.ConvexHullShape.from_mesh`.

    Args:
        margin: Extra thickness added around each generated shape, in metres.
    """

    def __init__(self, margin: float = 0.0) -> None:
        if margin < 0:
            raise ValueError("margin must be >= 0")
        self.margin = margin
        self._skipped: list[Entity] = []

    def shape_for(self, geometry: Shape) -> Shape | None:
        """Collision shape for ``geometry``, or None if it is not a primitive."""
        if not geometry.is_primitive:
            return None
        return geometry.padded(self.margin) if self.margin else geometry

    def build(self, entity: "Entity") -> ColliderComponent | None:
        """Add a generated collider to ``entity`` if it can have one.

        Entities without a ``"mesh"`` component, entities that already have a
        ``"collider"``, and entities whose geometry is a mesh are left alone.

        Returns:
            ColliderComponent | None: The new collider, or None if none was added.
        """
        if entity.has_component("collider"):
            return None
        mesh = entity.get_component("mesh")
        if not isinstance(mesh, MeshComponent):
            return None
        shape = self.shape_for(mesh.geometry)
        if shape is None:
            self._skipped.append(entity)
            return None
        return entity.add_component(ColliderComponent(shape, auto_generated=True))

    def build_all(self, scene: "Scene") -> int:
        """Run :meth:`build` for every entity in ``scene``.

        Returns:
            int: How many colliders were created.
        """
        self._skipped.clear()
        return sum(1 for entity in scene.entities if self.build(entity) is not None)

    def skipped_meshes(self) -> tuple["Entity", ...]:
        """Entities the last :meth:`build_all` skipped because their geometry is a mesh."""
        return tuple(self._skipped)
