"""Position, rotation and scale of an entity."""

from __future__ import annotations

from xrkit.ecs.component import Component
from xrkit.math import comparer as _comparer
from xrkit.math.quaternion import Quat
from xrkit.math.vector import Vec3, VecLike


class Transform(Component):
    """Placement of an entity in world space.

    Every :class:`~xrkit.ecs.entity.Entity` gets a ``Transform`` under the
    ``"transform"`` attribute id when it is created.

    Args:
        position: Translation in metres.
        rotation: Orientation; identity by default.
        scale: Per-axis scale, or a single number for uniform scale.
    """

    def __init__(
        self,
        position: VecLike = (0.0, 0.0, 0.0),
        rotation: Quat | None = None,
        scale: VecLike | float = 1.0,
    ) -> None:
        super().__init__()
        self.position = Vec3.of(position)
        self.rotation = rotation if rotation is not None else Quat.identity()
        self.scale = Vec3.of(scale)

    def translate(self, offset: VecLike) -> "Transform":
        """Move by ``offset`` (in world space) and return ``self`` for chaining."""
        self.position = self.position + offset
        return self

    def rotate(self, axis: VecLike, degrees: float) -> "Transform":
        """Rotate by ``degrees`` around ``axis`` and return ``self`` for chaining."""
        self.rotation = (Quat.from_axis_angle(axis, degrees) * self.rotation).normalized()
        return self

    def forward(self) -> Vec3:
        """Unit vector the entity faces (-Z in local space, as in Helios)."""
        return self.rotation.rotate((0.0, 0.0, -1.0))

    def transform_point(self, point: VecLike) -> Vec3:
        """Map a point from local space to world space (scale, rotate, translate)."""
        return self.rotation.rotate(Vec3.of(point).scaled(self.scale)) + self.position

    def copy(self) -> "Transform":
        """An unattached copy with the same position, rotation and scale."""
        return Transform(self.position, self.rotation, self.scale)

    def __eq__(self, other: object) -> bool:
        """Compare placements with the installed :class:`~xrkit.math.TransformComparer`.

        The comparison is approximate: values within the comparer's tolerance
        are equal. See :func:`xrkit.math.set_default_comparer`.
        """
        if not isinstance(other, Transform):
            return NotImplemented
        return _comparer.get_default_comparer().equal(self, other)

    __hash__ = None  # mutable and compared approximately

    def __repr__(self) -> str:
        return f"Transform(position={self.position.as_tuple()}, scale={self.scale.as_tuple()})"
