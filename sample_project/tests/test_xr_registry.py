"""Components are looked up by attribute id through the registry."""

import pytest

from xrkit import Component, Entity, Scene
from xrkit.ecs import ComponentRegistry
from xrkit.errors import ComponentNotRegisteredError, DuplicateComponentError
from xrkit.geometry import SphereShape
from xrkit.physics import ColliderComponent


class Health(Component):
    def __init__(self, points: int = 100) -> None:
        super().__init__()
        self.points = points


def test_lookup_by_attribute_id(scene):
    entity = scene.spawn("ball", [ColliderComponent(SphereShape(0.5))])
    collider = entity.get_component("collider")
    assert isinstance(collider, ColliderComponent)
    assert collider.entity is entity


def test_lookup_by_class_is_rejected(scene):
    entity = scene.spawn("ball", [ColliderComponent(SphereShape(0.5))])
    with pytest.raises(TypeError, match="attribute id string"):
        entity.get_component(ColliderComponent)


def test_missing_component_returns_none_but_unknown_id_raises(scene):
    entity = scene.spawn("empty")
    assert entity.get_component("collider") is None
    with pytest.raises(ComponentNotRegisteredError):
        entity.get_component("colider")


def test_custom_component_registered_on_scene(scene):
    scene.registry.register("health", Health)
    player = scene.spawn("player", [Health(80)])
    assert player.get_component("health").points == 80
    assert scene.registry.id_for(Health) == "health"


def test_custom_component_unknown_to_other_scenes():
    with pytest.raises(ComponentNotRegisteredError):
        Scene().spawn("player", [Health()])


def test_builtin_ids():
    registry = ComponentRegistry.with_builtins()
    assert registry.ids()[:3] == ("transform", "mesh", "collider")
    assert registry.get("rigidbody").__name__ == "RigidBodyComponent"


def test_register_is_idempotent_and_guards_duplicates():
    registry = ComponentRegistry()
    registry.register("health", Health)
    registry.register("health", Health)
    with pytest.raises(DuplicateComponentError):
        registry.register("health", ColliderComponent)
    with pytest.raises(DuplicateComponentError):
        registry.register("hp", Health)
    registry.register("health", ColliderComponent, replace=True)
    assert registry.get("health") is ColliderComponent
    with pytest.raises(ValueError):
        registry.register("Health", Health)


def test_subclass_resolves_to_base_id(scene):
    class Trigger(ColliderComponent):
        pass

    entity = scene.spawn("zone", [Trigger(SphereShape(1.0), is_trigger=True)])
    assert isinstance(entity.get_component("collider"), Trigger)


def test_every_entity_has_a_transform():
    entity = Entity("e")
    assert entity.component_ids() == ("transform",)
    with pytest.raises(ValueError):
        entity.remove_component("transform")


def test_duplicate_component_rejected(scene):
    entity = scene.spawn("e", [ColliderComponent(SphereShape(1.0))])
    with pytest.raises(DuplicateComponentError):
        entity.add_component(ColliderComponent(SphereShape(1.0)))
