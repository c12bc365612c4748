"""Vector, quaternion and comparison helpers."""

from xrkit.math.comparer import TransformComparer, get_default_comparer, set_default_comparer
from xrkit.math.quaternion import Quat
from xrkit.math.vector import Vec3

__all__ = ["Quat", "TransformComparer", "Vec3", "get_default_comparer", "set_default_comparer"]
