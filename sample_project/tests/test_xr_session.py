"""XR sessions step the scene at a fixed rate."""

import pytest

from xrkit.errors import SessionError
from xrkit.xr import ControllerState, XRSession


def test_reference_space_is_required(scene):
    with pytest.raises(TypeError):
        XRSession(scene)
    with pytest.raises(ValueError):
        XRSession(scene, reference_space="floor")


def test_tick_runs_fixed_steps(scene):
    session = XRSession(scene, reference_space="local-floor")
    with pytest.raises(SessionError):
        session.tick(0.0)
    session.start()
    assert session.tick(0.0) == 0
    assert session.tick(1 / 30) == 2
    assert session.tick(1 / 30 + 1 / 120) == 0
    assert session.tick(1 / 30 + 2 / 120) == 1
    assert scene.frame == 3


def test_catch_up_is_bounded(scene):
    session = XRSession(scene, reference_space="local")
    session.start()
    session.tick(0.0)
    assert session.tick(10.0) == 5
    assert session.tick(10.0 + 1 / 60) == 1


def test_trigger_edge(scene):
    session = XRSession(scene, reference_space="local")
    session.input.update(ControllerState("right", trigger=0.9))
    assert session.input.trigger_pressed("right")
    session.input.update(ControllerState("right", trigger=0.95))
    assert not session.input.trigger_pressed("right")
    assert session.input.controller("left") is None
