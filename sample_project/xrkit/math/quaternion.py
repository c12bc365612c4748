"""Unit quaternions for rotations."""

from __future__ import annotations

import math
from dataclasses import dataclass

from xrkit.math.vector import Vec3, VecLike


@dataclass(frozen=True, slots=True)
class Quat:
    """A rotation stored as a quaternion ``w + xi + yj + zk``.

    ``q`` and ``-q`` describe the same rotation; :meth:`angle_to` accounts for
    that, exact equality (``==``) does not.
    """

    w: float = 1.0
    x: float = 0.0
    y: float = 0.0
    z: float = 0.0

    @classmethod
    def identity(cls) -> "Quat":
        """The rotation that does nothing."""
        return cls(1.0, 0.0, 0.0, 0.0)

    @classmethod
    def from_axis_angle(cls, axis: VecLike, degrees: float) -> "Quat":
        """Rotation of ``degrees`` around ``axis`` (normalized for you).

        Args:
            axis: Rotation axis; need not be unit length.
            degrees: Angle in degrees, counter-clockwise when the axis points at the viewer (right-hand rule).

        Returns:
            Quat: A unit quaternion.
        """
        a = Vec3.of(axis).normalized()
        half = math.radians(degrees) / 2.0
        s = math.sin(half)
        return cls(math.cos(half), a.x * s, a.y * s, a.z * s)

    def __mul__(self, other: "Quat") -> "Quat":
        """Hamilton product: ``a * b`` applies ``b`` first, then ``a``."""
        a, b = self, other
        return Quat(
            a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
        )

    def conjugate(self) -> "Quat":
        """The inverse rotation (for unit quaternions)."""
        return Quat(self.w, -self.x, -self.y, -self.z)

    def norm(self) -> float:
        """Quaternion magnitude; 1.0 for a proper rotation."""
        return math.sqrt(self.w**2 + self.x**2 + self.y**2 + self.z**2)

    def normalized(self) -> "Quat":
        """Rescale to unit length."""
        n = self.norm()
        return Quat(self.w / n, self.x / n, self.y / n, self.z / n)

    def dot(self, other: "Quat") -> float:
        """4D dot product."""
        return self.w * other.w + self.x * other.x + self.y * other.y + self.z * other.z

    def rotate(self, v: VecLike) -> Vec3:
        """Rotate a vector by this quaternion."""
        p = Vec3.of(v)
        r = self * Quat(0.0, p.x, p.y, p.z) * self.conjugate()
        return Vec3(r.x, r.y, r.z)

    def angle_to(self, other: "Quat") -> float:
        """Smallest angle in degrees between the two rotations."""
        d = min(1.0, abs(self.normalized().dot(other.normalized())))
        return math.degrees(2.0 * math.acos(d))
