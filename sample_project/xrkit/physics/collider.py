"""Collision components and the convex-hull shape used for meshes."""

from __future__ import annotations

from typing import Sequence

from xrkit.ecs.component import Component
from xrkit.geometry.bounds import AABB
from xrkit.geometry.mesh import Mesh
from xrkit.geometry.shapes import Shape
from xrkit.math.vector import Vec3, VecLike


class ConvexHullShape(Shape):
    """A convex collision shape spanned by a point cloud.

    This is the explicit collider to give a :class:`~xrkit.geometry.mesh.Mesh`:
    the Helios platform collides convex hulls, never raw triangles.

    Args:
        points: Points whose convex hull is the shape; at least four.
    """

    is_primitive = False

    def __init__(self, points: Sequence[VecLike]) -> None:
        self.points = tuple(Vec3.of(p) for p in points)
        if len(self.points) < 4:
            raise ValueError("a convex hull needs at least 4 points")

    @classmethod
    def from_mesh(cls, mesh: Mesh) -> "ConvexHullShape":
        """Hull of a mesh's vertices."""
        return cls(mesh.vertices)

    def bounds(self) -> AABB:
        return AABB.from_points(self.points)

    def volume(self) -> float:
        size = self.bounds().size  # upper bound; good enough for mass estimates
        return size.x * size.y * size.z

    def padded(self, margin: float) -> "ConvexHullShape":
        c = self.bounds().center
        return ConvexHullShape([p + (p - c).normalized() * margin if p != c else p for p in self.points])

    def __repr__(self) -> str:
        return f"ConvexHullShape(points={len(self.points)})"


class ColliderComponent(Component):
    """Makes an entity take part in collision detection.

    Stored under the ``"collider"`` attribute id.

    Args:
        shape: The collision shape, in the entity's local space.
        is_trigger: Triggers report overlaps but never block movement.
        auto_generated: Set by :class:`~xrkit.physics.builder.CollisionBuilder`
            for colliders it derived from a primitive.

    Raises:
        TypeError: If ``shape`` is a :class:`~xrkit.geometry.mesh.Mesh`; wrap it
            with :meth:`ConvexHullShape.from_mesh` first.
    """

    def __init__(self, shape: Shape, *, is_trigger: bool = False, auto_generated: bool = False) -> None:
        super().__init__()
        if isinstance(shape, Mesh):
            raise TypeError("meshes cannot collide directly; use ConvexHullShape.from_mesh(mesh)")
        self.shape = shape
        self.is_trigger = is_trigger
        self.auto_generated = auto_generated

    def world_bounds(self) -> AABB:
        """World-space bounds of the shape (axis-aligned, so conservative under rotation)."""
        local = self.shape.bounds()
        if self.entity is None:
            return local
        t = self.entity.transform
        return AABB.from_points(t.transform_point(c) for c in local.corners())
