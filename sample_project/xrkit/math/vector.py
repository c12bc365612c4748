"""Immutable 3D vectors."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Union

VecLike = Union["Vec3", tuple[float, float, float], list[float]]


@dataclass(frozen=True, slots=True)
class Vec3:
    """A 3D vector with value semantics.

    Vectors are immutable; every operation returns a new vector. Equality is
    exact (use :meth:`is_close` for a tolerance-based comparison).

    Attributes:
        x: X component.
        y: Y component (up in Helios' right-handed, Y-up convention).
        z: Z component.
    """

    x: float = 0.0
    y: float = 0.0
    z: float = 0.0

    @classmethod
    def of(cls, value: VecLike | float) -> "Vec3":
        """Coerce a vector, a 3-sequence or a scalar into a :class:`Vec3`.

        A scalar is broadcast to all three components, so ``Vec3.of(2.0)`` is
        ``Vec3(2.0, 2.0, 2.0)``.

        Raises:
            ValueError: If a sequence does not have exactly three items.
        """
        if isinstance(value, Vec3):
            return value
        if isinstance(value, (int, float)):
            return cls(float(value), float(value), float(value))
        items = tuple(float(v) for v in value)
        if len(items) != 3:
            raise ValueError(f"expected 3 components, got {len(items)}")
        return cls(*items)

    @classmethod
    def zero(cls) -> "Vec3":
        """Return ``Vec3(0, 0, 0)``."""
        return cls(0.0, 0.0, 0.0)

    @classmethod
    def one(cls) -> "Vec3":
        """Return ``Vec3(1, 1, 1)``."""
        return cls(1.0, 1.0, 1.0)

    def __iter__(self):
        yield self.x
        yield self.y
        yield self.z

    def __add__(self, other: VecLike) -> "Vec3":
        o = Vec3.of(other)
        return Vec3(self.x + o.x, self.y + o.y, self.z + o.z)

    def __sub__(self, other: VecLike) -> "Vec3":
        o = Vec3.of(other)
        return Vec3(self.x - o.x, self.y - o.y, self.z - o.z)

    def __mul__(self, k: float) -> "Vec3":
        return Vec3(self.x * k, self.y * k, self.z * k)

    __rmul__ = __mul__

    def __truediv__(self, k: float) -> "Vec3":
        return Vec3(self.x / k, self.y / k, self.z / k)

    def __neg__(self) -> "Vec3":
        return Vec3(-self.x, -self.y, -self.z)

    def scaled(self, other: VecLike) -> "Vec3":
        """Component-wise product."""
        o = Vec3.of(other)
        return Vec3(self.x * o.x, self.y * o.y, self.z * o.z)

    def dot(self, other: VecLike) -> float:
        """Dot product."""
        o = Vec3.of(other)
        return self.x * o.x + self.y * o.y + self.z * o.z

    def cross(self, other: VecLike) -> "Vec3":
        """Cross product (right-handed)."""
        o = Vec3.of(other)
        return Vec3(
            self.y * o.z - self.z * o.y,
            self.z * o.x - self.x * o.z,
            self.x * o.y - self.y * o.x,
        )

    def length(self) -> float:
        """Euclidean length."""
        return math.sqrt(self.dot(self))

    def distance_to(self, other: VecLike) -> float:
        """Euclidean distance to ``other``."""
        return (self - other).length()

    def normalized(self) -> "Vec3":
        """Unit vector in the same direction.

        Raises:
            ZeroDivisionError: For the zero vector.
        """
        n = self.length()
        if n == 0.0:
            raise ZeroDivisionError("cannot normalize the zero vector")
        return self / n

    def max_abs_diff(self, other: VecLike) -> float:
        """Largest absolute difference between matching components."""
        o = Vec3.of(other)
        return max(abs(self.x - o.x), abs(self.y - o.y), abs(self.z - o.z))

    def is_close(self, other: VecLike, tolerance: float = 1e-9) -> bool:
        """True if no component differs by more than ``tolerance``."""
        return self.max_abs_diff(other) <= tolerance

    def as_tuple(self) -> tuple[float, float, float]:
        """Return ``(x, y, z)``."""
        return (self.x, self.y, self.z)


def component_min(points: Iterable[Vec3]) -> Vec3:
    """Component-wise minimum of a non-empty collection of points."""
    pts = list(points)
    return Vec3(min(p.x for p in pts), min(p.y for p in pts), min(p.z for p in pts))


def component_max(points: Iterable[Vec3]) -> Vec3:
    """Component-wise maximum of a non-empty collection of points."""
    pts = list(points)
    return Vec3(max(p.x for p in pts), max(p.y for p in pts), max(p.z for p in pts))
