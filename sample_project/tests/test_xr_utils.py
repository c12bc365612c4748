"""The make_* shorthands build the same entities as the long form."""

import pytest

from xrkit import Entity
from xrkit.geometry import BoxShape, CapsuleShape, MeshComponent, PlaneShape, SphereShape
from xrkit.rendering import LightComponent, Material
from xrkit.utils import make_box, make_capsule, make_light, make_plane, make_sphere


def test_make_box_matches_long_form(scene):
    short = make_box(scene, size=0.5, name="crate")
    long = Entity("crate")
    long.add_component(MeshComponent(BoxShape(size=0.5)))
    scene.add(long)
    assert short.component_ids() == long.component_ids() == ("transform", "mesh")
    assert short.get_component("mesh").geometry.size == long.get_component("mesh").geometry.size
    assert short.scene is long.scene is scene


def test_make_box_options(scene):
    red = Material.from_hex("#ff0000")
    box = make_box(scene, size=(1, 2, 3), position=(0, 1, 0), material=red, collider=True)
    assert box.transform.position.y == 1
    assert box.get_component("mesh").material is red
    assert box.get_component("collider").auto_generated
    assert box.get_component("mesh").geometry.volume() == pytest.approx(6.0)


@pytest.mark.parametrize(
    "factory, kwargs, shape_type",
    [
        (make_sphere, {"radius": 0.25}, SphereShape),
        (make_capsule, {"radius": 0.3, "height": 1.8}, CapsuleShape),
        (make_plane, {"width": 4.0, "depth": 2.0}, PlaneShape),
    ],
)
def test_other_shapes(scene, factory, kwargs, shape_type):
    entity = factory(scene, **kwargs)
    assert isinstance(entity.get_component("mesh").geometry, shape_type)
    assert entity in scene


def test_make_light(scene):
    lamp = make_light(scene, "spot", position=(0, 3, 0), intensity=2.0)
    light = lamp.get_component("light")
    assert isinstance(light, LightComponent)
    assert (light.kind, light.intensity) == ("spot", 2.0)


def test_box_size_is_the_only_dimension_parameter():
    with pytest.raises(TypeError):
        BoxShape(width=2.0)
