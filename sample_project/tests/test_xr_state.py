"""Removals are deferred to the end of the step."""

from xrkit import Entity
from xrkit.physics import ColliderComponent
from xrkit.geometry import BoxShape
from xrkit.systems import ManagedSystem


def test_destroy_only_queues_until_step(scene):
    entity = scene.spawn("doomed")
    scene.destroy(entity)
    assert entity in scene
    assert entity in scene.entities
    assert scene.state.is_pending(entity)
    assert entity.scene is scene
    result = scene.step()
    assert entity not in scene
    assert entity.scene is None
    assert result.destroyed == (entity,)


def test_destroy_is_excluded_from_active_entities_immediately(scene):
    entity = scene.spawn("doomed")
    scene.destroy(entity)
    assert entity not in scene.active_entities


def test_destroy_during_system_update_is_applied_after_all_systems(scene):
    seen = []

    class Reaper(ManagedSystem):
        priority = 0

        def on_update(self, scene, dt):
            for e in scene.entities:
                scene.destroy(e)

    class Watcher(ManagedSystem):
        priority = 1

        def on_update(self, scene, dt):
            seen.append(len(scene.entities))

    scene.spawn("a")
    scene.spawn("b")
    scene.scheduler.add(Reaper())
    scene.scheduler.add(Watcher())
    scene.step()
    assert seen == [2]
    assert len(scene) == 0


def test_destroy_emits_event_at_flush(scene):
    events = []
    scene.events.subscribe("entity_destroyed", lambda e: events.append(e.name))
    entity = scene.spawn("x")
    scene.destroy(entity)
    assert events == []
    scene.step()
    assert events == ["x"]


def test_component_removal_is_deferred_in_a_scene(scene):
    entity = scene.spawn("crate", [ColliderComponent(BoxShape(1.0))])
    entity.remove_component("collider")
    assert entity.has_component("collider")
    assert scene.state.is_component_pending(entity, "collider")
    result = scene.step()
    assert not entity.has_component("collider")
    assert result.removed_components == ((entity, "collider"),)


def test_component_removal_is_immediate_outside_a_scene():
    entity = Entity("loose")
    entity.add_component(ColliderComponent(BoxShape(1.0)))
    entity.remove_component("collider")
    assert not entity.has_component("collider")


def test_double_destroy_is_harmless(scene):
    entity = scene.spawn("x")
    scene.destroy(entity)
    scene.destroy(entity)
    assert scene.state.pending_count == 1
    assert len(scene.step().destroyed) == 1
