"""Simulate a headset frame loop: pull the trigger to throw balls.

A real application gets timestamps and controller states from the Helios
runtime; here they are generated at 90 Hz.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a source checkout

from xrkit import Scene
from xrkit.math import Vec3
from xrkit.physics import RigidBodyComponent
from xrkit.systems import PhysicsSystem
from xrkit.utils import make_plane, make_sphere
from xrkit.xr import ControllerState, Pose, XRSession


def main() -> None:
    scene = Scene("xr")
    make_plane(scene, width=20.0, depth=20.0, name="floor", collider=True)
    scene.scheduler.add(PhysicsSystem())

    session = XRSession(scene, reference_space="local-floor")
    session.start()
    hand = Pose(position=Vec3(0.2, 1.2, -0.3))
    for frame in range(180):  # two seconds at 90 Hz
        pull = 1.0 if frame % 45 < 5 else 0.0
        session.input.update(ControllerState("right", pose=hand, trigger=pull))
        if session.input.trigger_pressed("right"):
            ball = make_sphere(scene, radius=0.1, name=f"ball{frame}", position=hand.position, collider=True)
            ball.add_component(RigidBodyComponent(velocity=hand.forward() * 3.0))
        session.tick(frame / 90.0)
    session.end()

    print(f"{scene.frame} scene steps for 180 headset frames")
    for ball in scene.entities[1:]:
        p = ball.transform.position
        print(f"{ball.name:<7} at ({p.x:+.2f}, {p.y:+.2f}, {p.z:+.2f})")


if __name__ == "__main__":
    main()
