"""Scene membership, queries and the active_entities filter."""

import pytest

from xrkit import Entity, Scene
from xrkit.config import DEFAULT_FIXED_DT
from xrkit.errors import SceneError
from xrkit.geometry import BoxShape, MeshComponent


def test_active_entities_filters_disabled_and_pending(scene):
    visible = scene.spawn("visible")
    hidden = scene.spawn("hidden")
    hidden.enabled = False
    doomed = scene.spawn("doomed")
    scene.destroy(doomed)
    assert scene.active_entities == (visible,)
    assert scene.entities == (visible, hidden, doomed)


def test_find_by_tag_and_find_all_by_tag(scene):
    a = scene.add(Entity("a", tags=["enemy"]))
    b = scene.add(Entity("b", tags=["enemy", "boss"]))
    scene.add(Entity("c"))
    assert scene.find_by_tag("enemy") is a
    assert scene.find_by_tag("missing") is None
    found = scene.find_all_by_tag("enemy")
    assert isinstance(found, tuple)
    assert found == (a, b)
    assert not hasattr(scene, "find_entity_by_tag")


def test_spawn_takes_a_name_and_a_component_iterable(scene):
    crate = scene.spawn("crate", [MeshComponent(BoxShape(1.0))])
    assert crate.component_ids() == ("transform", "mesh")
    with pytest.raises(TypeError):
        scene.spawn("crate", MeshComponent(BoxShape(1.0)), MeshComponent(BoxShape(1.0)))


def test_query_uses_active_entities(scene):
    a = scene.spawn("a", [MeshComponent(BoxShape(1.0))])
    b = scene.spawn("b", [MeshComponent(BoxShape(1.0))])
    b.enabled = False
    assert list(scene.query("mesh")) == [a]


def test_entity_cannot_join_two_scenes(scene):
    entity = scene.spawn("e")
    with pytest.raises(SceneError):
        Scene().add(entity)
    with pytest.raises(SceneError):
        Scene().destroy(entity)


def test_step_advances_time_by_fixed_dt(scene):
    assert scene.fixed_dt == DEFAULT_FIXED_DT
    scene.run(60)
    assert scene.frame == 60
    assert scene.time == pytest.approx(1.0)


def test_entity_added_event(scene):
    added = []
    scene.events.subscribe("entity_added", added.append)
    entity = scene.spawn("e")
    assert added == [entity]
