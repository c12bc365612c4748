"""Transform equality goes through the installed TransformComparer."""

import pytest

from xrkit import Transform
from xrkit.config import DEFAULT_TOLERANCE
from xrkit.math import Quat, TransformComparer, Vec3, get_default_comparer, set_default_comparer


def test_default_tolerance_comes_from_config():
    assert TransformComparer().tolerance == DEFAULT_TOLERANCE == 1e-4


def test_equal_within_tolerance():
    assert Transform(position=(1.0, 2.0, 3.0)) == Transform(position=(1.0, 2.0, 3.00005))
    assert Transform(position=(1.0, 2.0, 3.0)) != Transform(position=(1.0, 2.0, 3.001))


def test_negated_quaternion_is_the_same_rotation():
    q = Quat.from_axis_angle((0, 1, 0), 30)
    assert Transform(rotation=q) == Transform(rotation=Quat(-q.w, -q.x, -q.y, -q.z))


def test_full_turn_in_small_steps_compares_equal():
    t = Transform()
    for _ in range(360):
        t.rotate((0, 1, 0), 1.0)
    assert t == Transform()


def test_equality_follows_installed_comparer():
    a, b = Transform(position=(0, 0, 0)), Transform(position=(0, 0, 0.01))
    assert a != b
    previous = set_default_comparer(TransformComparer(tolerance=0.1))
    try:
        assert a == b
        assert get_default_comparer().tolerance == 0.1
    finally:
        set_default_comparer(previous)
    assert a != b


def test_transform_is_unhashable_and_not_equal_to_other_types():
    with pytest.raises(TypeError):
        hash(Transform())
    assert Transform() != (0, 0, 0)


def test_transform_point_and_forward():
    t = Transform(position=(1, 0, 0), scale=2.0).rotate((0, 1, 0), 90)
    assert t.transform_point((1, 0, 0)).is_close(Vec3(1, 0, -2), 1e-9)
    assert t.forward().is_close(Vec3(-1, 0, 0), 1e-9)


def test_negative_tolerance_rejected():
    with pytest.raises(ValueError):
        TransformComparer(tolerance=-1.0)
