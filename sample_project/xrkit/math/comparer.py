"""Tolerance-based comparison of transforms.

Floating-point transforms drift: a body that rotates a full turn in 360 steps
does not land on the exact starting quaternion. Equality of
:class:`~xrkit.ecs.transform.Transform` is therefore delegated to a
:class:`TransformComparer` rather than done component by component.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xrkit.config import DEFAULT_TOLERANCE

if TYPE_CHECKING:
    from xrkit.ecs.transform import Transform


class TransformComparer:
    """Decides whether two transforms describe the same placement.

    Positions and scales are compared per component; rotations are compared
    with ``1 - |q1 . q2|`` so that ``q`` and ``-q`` (the same rotation) match.

    :param tolerance: Largest difference still treated as equal.
    :type tolerance: float
    :raises ValueError: If ``tolerance`` is negative.
    """

    def __init__(self, tolerance: float = DEFAULT_TOLERANCE) -> None:
        if tolerance < 0:
            raise ValueError("tolerance must be >= 0")
        self.tolerance = tolerance

    def equal(self, a: "Transform", b: "Transform") -> bool:
        """Return True if ``a`` and ``b`` match within :attr:`tolerance`.

        :param a: First transform.
        :param b: Second transform.
        :returns: Whether position, rotation and scale all match.
        """
        if a.position.max_abs_diff(b.position) > self.tolerance:
            return False
        if a.scale.max_abs_diff(b.scale) > self.tolerance:
            return False
        return 1.0 - abs(a.rotation.normalized().dot(b.rotation.normalized())) <= self.tolerance

    def __repr__(self) -> str:
        return f"TransformComparer(tolerance={self.tolerance!r})"


#: Comparer used by ``Transform.__eq__``. Replace it with :func:`set_default_comparer`.
DEFAULT_COMPARER = TransformComparer()


def set_default_comparer(comparer: TransformComparer) -> TransformComparer:
    """Install ``comparer`` for all ``Transform`` equality checks.

    :param comparer: The new comparer.
    :returns: The previously installed comparer, so callers can restore it.
    """
    global DEFAULT_COMPARER
    previous, DEFAULT_COMPARER = DEFAULT_COMPARER, comparer
    return previous


def get_default_comparer() -> TransformComparer:
    """Return the comparer currently used by ``Transform.__eq__``."""
    return DEFAULT_COMPARER
