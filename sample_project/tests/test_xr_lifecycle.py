"""Only ManagedSystem subclasses receive lifecycle callbacks."""

import pytest

from xrkit import ManagedSystem
from xrkit.systems import SpinComponent, SpinSystem


class Recorder(ManagedSystem):
    def __init__(self, log, **kwargs):
        super().__init__(**kwargs)
        self.log = log

    def on_attach(self, scene):
        self.log.append("attach")

    def on_update(self, scene, dt):
        self.log.append("update")

    def on_detach(self, scene):
        self.log.append("detach")


def test_managed_system_gets_all_callbacks(scene):
    log = []
    system = scene.scheduler.add(Recorder(log))
    assert system.is_attached and system.scene is scene
    scene.run(2)
    scene.scheduler.remove(system)
    assert log == ["attach", "update", "update", "detach"]
    assert not system.is_attached


def test_plain_class_with_same_method_names_is_never_called(scene):
    log = []

    class NotManaged:
        def on_attach(self, scene):
            log.append("attach")

        def on_update(self, scene, dt):
            log.append("update")

    with pytest.warns(UserWarning, match="neither a ManagedSystem"):
        scene.scheduler.add(NotManaged())
    scene.run(3)
    assert log == []
    assert len(scene.scheduler) == 0


def test_plain_callable_runs_every_step_without_lifecycle(scene):
    calls = []
    scene.scheduler.add(lambda s, dt: calls.append(round(dt, 6)))
    scene.run(2)
    assert calls == [round(scene.fixed_dt, 6)] * 2


def test_priority_orders_systems(scene):
    order = []

    class A(ManagedSystem):
        priority = 5

        def on_update(self, scene, dt):
            order.append("A")

    class B(ManagedSystem):
        def on_update(self, scene, dt):
            order.append("B")

    scene.scheduler.add(A())
    scene.scheduler.add(B())
    scene.scheduler.add(B(priority=10))
    scene.step()
    assert order == ["B", "A", "B"]


def test_disabled_system_is_skipped(scene):
    log = []
    system = scene.scheduler.add(Recorder(log))
    system.enabled = False
    scene.step()
    assert log == ["attach"]


def test_system_cannot_join_twice(scene):
    system = scene.scheduler.add(Recorder([]))
    with pytest.raises(ValueError):
        scene.scheduler.add(system)


def test_spin_system(scene):
    top = scene.spawn("top", [SpinComponent(degrees_per_second=90.0)])
    scene.scheduler.add(SpinSystem())
    scene.run(60)
    assert top.transform.rotation.angle_to(top.transform.rotation.identity()) == pytest.approx(90.0, abs=1e-6)


def test_clear_detaches_everything(scene):
    log = []
    scene.scheduler.add(Recorder(log))
    scene.scheduler.add(lambda s, dt: None)
    scene.scheduler.clear()
    assert len(scene.scheduler) == 0
    assert log == ["attach", "detach"]
