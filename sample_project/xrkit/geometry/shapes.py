"""Primitive shapes.

Primitives are described by a handful of numbers rather than by triangles.
The Helios platform knows how to collide them exactly, which is why
:class:`~xrkit.physics.CollisionBuilder` can derive a collider from a
primitive automatically but not from a :class:`~xrkit.geometry.mesh.Mesh`.
"""

from __future__ import annotations

import math
from typing import ClassVar

from xrkit.geometry.bounds import AABB
from xrkit.math.vector import Vec3, VecLike


class Shape:
    """Base class for anything with local-space bounds.

    Attributes:
        is_primitive: True for analytic shapes the engine can collide exactly.
    """

    is_primitive: ClassVar[bool] = False

    def bounds(self) -> AABB:
        """Local-space bounding box."""
        raise NotImplementedError

    def volume(self) -> float:
        """Enclosed volume in cubic metres (0 for flat shapes)."""
        raise NotImplementedError

    def padded(self, margin: float) -> "Shape":
        """A copy grown by ``margin`` on every side."""
        raise NotImplementedError


class BoxShape(Shape):
    """A box centred on the origin.

    Args:
        size: Edge length, either one number for a cube or ``(x, y, z)``.

    Raises:
        ValueError: If any edge is not positive.
    """

    is_primitive = True

    def __init__(self, size: VecLike | float = 1.0) -> None:
        self.size = Vec3.of(size)
        if min(self.size) <= 0:
            raise ValueError("box edges must be positive")

    @property
    def half_extents(self) -> Vec3:
        """Half the edge lengths."""
        return self.size * 0.5

    def bounds(self) -> AABB:
        return AABB.from_center(Vec3.zero(), self.half_extents)

    def volume(self) -> float:
        return self.size.x * self.size.y * self.size.z

    def padded(self, margin: float) -> "BoxShape":
        return BoxShape(self.size + Vec3.of(2 * margin))

    def __repr__(self) -> str:
        return f"BoxShape(size={self.size.as_tuple()})"


class SphereShape(Shape):
    """A sphere centred on the origin.

    Args:
        radius: Radius in metres.
    """

    is_primitive = True

    def __init__(self, radius: float = 0.5) -> None:
        if radius <= 0:
            raise ValueError("radius must be positive")
        self.radius = float(radius)

    def bounds(self) -> AABB:
        return AABB.from_center(Vec3.zero(), Vec3.of(self.radius))

    def volume(self) -> float:
        return 4.0 / 3.0 * math.pi * self.radius**3

    def padded(self, margin: float) -> "SphereShape":
        return SphereShape(self.radius + margin)

    def __repr__(self) -> str:
        return f"SphereShape(radius={self.radius})"


class CapsuleShape(Shape):
    """A capsule along the Y axis: a cylinder with hemispherical caps.

    Args:
        radius: Radius of the cylinder and the caps.
        height: Total height including both caps; at least ``2 * radius``.
    """

    is_primitive = True

    def __init__(self, radius: float = 0.5, height: float = 2.0) -> None:
        if radius <= 0 or height < 2 * radius:
            raise ValueError("need radius > 0 and height >= 2 * radius")
        self.radius = float(radius)
        self.height = float(height)

    def bounds(self) -> AABB:
        return AABB.from_center(Vec3.zero(), (self.radius, self.height / 2, self.radius))

    def volume(self) -> float:
        cylinder = math.pi * self.radius**2 * (self.height - 2 * self.radius)
        return cylinder + 4.0 / 3.0 * math.pi * self.radius**3

    def padded(self, margin: float) -> "CapsuleShape":
        return CapsuleShape(self.radius + margin, self.height + 2 * margin)

    def __repr__(self) -> str:
        return f"CapsuleShape(radius={self.radius}, height={self.height})"


class PlaneShape(Shape):
    """A flat rectangle in the XZ plane, facing +Y (a floor).

    Args:
        width: Extent along X.
        depth: Extent along Z.
    """

    is_primitive = True

    def __init__(self, width: float = 10.0, depth: float = 10.0) -> None:
        if width <= 0 or depth <= 0:
            raise ValueError("plane extents must be positive")
        self.width = float(width)
        self.depth = float(depth)

    def bounds(self) -> AABB:
        return AABB.from_center(Vec3.zero(), (self.width / 2, 0.0, self.depth / 2))

    def volume(self) -> float:
        return 0.0

    def padded(self, margin: float) -> "PlaneShape":
        return PlaneShape(self.width + 2 * margin, self.depth + 2 * margin)

    def __repr__(self) -> str:
        return f"PlaneShape(width={self.width}, depth={self.depth})"
