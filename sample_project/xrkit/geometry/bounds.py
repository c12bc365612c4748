"""Axis-aligned bounding boxes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from xrkit.math.vector import Vec3, VecLike, component_max, component_min


@dataclass(frozen=True, slots=True)
class AABB:
    """An axis-aligned box given by its minimum and maximum corners.

    Attributes:
        min: Corner with the smallest coordinates.
        max: Corner with the largest coordinates.
    """

    min: Vec3
    max: Vec3

    @classmethod
    def from_points(cls, points: Iterable[VecLike]) -> "AABB":
        """Smallest box containing every point.

        Raises:
            ValueError: If ``points`` is empty.
        """
        pts = [Vec3.of(p) for p in points]
        if not pts:
            raise ValueError("AABB.from_points needs at least one point")
        return cls(component_min(pts), component_max(pts))

    @classmethod
    def from_center(cls, center: VecLike, half_extents: VecLike) -> "AABB":
        """Box centred on ``center`` reaching ``half_extents`` along each axis."""
        c, h = Vec3.of(center), Vec3.of(half_extents)
        return cls(c - h, c + h)

    @property
    def center(self) -> Vec3:
        """Midpoint of the box."""
        return (self.min + self.max) * 0.5

    @property
    def size(self) -> Vec3:
        """Edge lengths along x, y and z."""
        return self.max - self.min

    def contains(self, point: VecLike) -> bool:
        """True if ``point`` lies inside or on the boundary."""
        p = Vec3.of(point)
        return all(lo <= v <= hi for lo, v, hi in zip(self.min, p, self.max))

    def overlaps(self, other: "AABB") -> bool:
        """True if the two boxes share at least a boundary point."""
        return all(
            a_lo <= b_hi and b_lo <= a_hi
            for a_lo, a_hi, b_lo, b_hi in zip(self.min, self.max, other.min, other.max)
        )

    def union(self, other: "AABB") -> "AABB":
        """Smallest box containing both boxes."""
        return AABB(component_min([self.min, other.min]), component_max([self.max, other.max]))

    def translated(self, offset: VecLike) -> "AABB":
        """The same box moved by ``offset``."""
        return AABB(self.min + offset, self.max + offset)

    def expanded(self, margin: float) -> "AABB":
        """The box grown by ``margin`` on every side."""
        m = Vec3.of(margin)
        return AABB(self.min - m, self.max + m)

    def corners(self) -> tuple[Vec3, ...]:
        """The eight corners."""
        xs, ys, zs = (self.min.x, self.max.x), (self.min.y, self.max.y), (self.min.z, self.max.z)
        return tuple(Vec3(x, y, z) for x in xs for y in ys for z in zs)
