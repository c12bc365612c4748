"""Colliders are generated for primitives only, never for meshes."""

import pytest

from xrkit.geometry import BoxShape, CapsuleShape, Mesh, MeshComponent, PlaneShape, SphereShape
from xrkit.physics import ColliderComponent, CollisionBuilder, ConvexHullShape, RigidBodyComponent, raycast
from xrkit.resources import ResourceLoader
from xrkit.systems import PhysicsSystem
from xrkit.utils import make_box, make_plane

TETRA = Mesh([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)], [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)])


@pytest.mark.parametrize("shape", [BoxShape(1.0), SphereShape(0.5), CapsuleShape(0.3, 1.8), PlaneShape(4, 4)])
def test_primitives_get_a_collider(scene, shape):
    entity = scene.spawn("p", [MeshComponent(shape)])
    collider = CollisionBuilder().build(entity)
    assert collider is entity.get_component("collider")
    assert collider.auto_generated
    assert collider.shape is shape


def test_meshes_are_skipped(scene):
    entity = scene.spawn("statue", [MeshComponent(TETRA)])
    builder = CollisionBuilder()
    assert builder.build_all(scene) == 0
    assert not entity.has_component("collider")
    assert builder.skipped_meshes() == (entity,)


def test_build_all_counts_and_keeps_existing(scene):
    make_box(scene, size=1.0)
    make_box(scene, size=2.0)
    scene.spawn("statue", [MeshComponent(TETRA)])
    manual = scene.spawn("manual", [MeshComponent(BoxShape(1.0)), ColliderComponent(SphereShape(3.0))])
    assert CollisionBuilder().build_all(scene) == 2
    assert manual.get_component("collider").shape.radius == 3.0


def test_margin_pads_generated_shapes(scene):
    entity = scene.spawn("b", [MeshComponent(BoxShape(1.0))])
    collider = CollisionBuilder(margin=0.1).build(entity)
    assert collider.shape.size.is_close((1.2, 1.2, 1.2), 1e-9)


def test_mesh_needs_explicit_hull(scene, asset_root):
    mesh = ResourceLoader(asset_root).load_mesh("res://demo/models/crate.obj")
    with pytest.raises(TypeError):
        ColliderComponent(mesh)
    entity = scene.spawn("crate", [MeshComponent(mesh), ColliderComponent(ConvexHullShape.from_mesh(mesh))])
    assert not entity.get_component("collider").auto_generated


def test_raycast_hits_nearest_and_skips_triggers(scene):
    near = make_box(scene, size=1.0, name="near", position=(0, 0, -3), collider=True)
    make_box(scene, size=1.0, name="far", position=(0, 0, -6), collider=True)
    zone = scene.spawn("zone", [ColliderComponent(SphereShape(0.5), is_trigger=True)])
    zone.transform.position = zone.transform.position + (0, 0, -1)
    hit = raycast(scene, (0, 0, 0), (0, 0, -1))
    assert hit.entity is near
    assert hit.distance == pytest.approx(2.5)
    assert raycast(scene, (0, 0, 0), (0, 0, -1), include_triggers=True).entity is zone
    assert raycast(scene, (0, 0, 0), (0, 0, 1)) is None
    assert raycast(scene, (0, 0, 0), (0, 0, -1), max_distance=2.0) is None


def test_body_falls_and_rests_on_floor(scene):
    make_plane(scene, collider=True)
    box = make_box(scene, size=0.5, position=(0, 2, 0), collider=True)
    box.add_component(RigidBodyComponent(mass=2.0))
    contacts = []
    scene.events.subscribe("contact", lambda a, b: contacts.append({a.name, b.name}))
    physics = scene.scheduler.add(PhysicsSystem())
    scene.run(120)
    assert box.transform.position.y == pytest.approx(0.25)
    assert contacts == [{"plane", "box"}]
    assert len(physics.contacts) == 1


def test_kinematic_bodies_do_not_fall(scene):
    box = make_box(scene, size=0.5, position=(0, 2, 0))
    body = box.add_component(RigidBodyComponent(kinematic=True))
    body.apply_impulse((0, 10, 0))
    scene.scheduler.add(PhysicsSystem())
    scene.run(30)
    assert box.transform.position.y == 2.0
