"""Vectors, quaternions and bounds."""

import pytest

from xrkit.geometry import AABB
from xrkit.math import Quat, Vec3


def test_vec3_of_broadcasts_scalars():
    assert Vec3.of(2) == Vec3(2.0, 2.0, 2.0)
    with pytest.raises(ValueError):
        Vec3.of((1, 2))


def test_vec3_ops():
    a, b = Vec3(1, 0, 0), Vec3(0, 1, 0)
    assert a.cross(b) == Vec3(0, 0, 1)
    assert (a + b).length() == pytest.approx(2**0.5)
    assert a.dot(b) == 0
    with pytest.raises(ZeroDivisionError):
        Vec3.zero().normalized()


def test_quat_rotation():
    q = Quat.from_axis_angle((0, 0, 1), 90)
    assert q.rotate((1, 0, 0)).is_close(Vec3(0, 1, 0), 1e-12)
    assert (q * q.conjugate()).angle_to(Quat.identity()) == pytest.approx(0.0, abs=1e-6)


def test_aabb():
    box = AABB.from_points([(0, 0, 0), (1, 2, 3)])
    assert box.center == Vec3(0.5, 1.0, 1.5)
    assert box.contains((1, 2, 3))
    assert box.overlaps(AABB.from_center((1, 2, 3), 0.1))
    assert not box.overlaps(box.translated((5, 0, 0)))
    assert len(box.corners()) == 8
    assert box.union(box.translated((1, 0, 0))).size == Vec3(2, 2, 3)
