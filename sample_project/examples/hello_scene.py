"""A floor, a spinning box and a light: the smallest useful xrkit scene.

Run from the sample_project directory:  python examples/hello_scene.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a source checkout

from xrkit import Scene
from xrkit.rendering import Material
from xrkit.systems import SpinComponent, SpinSystem
from xrkit.utils import make_box, make_light, make_plane


def main() -> None:
    scene = Scene("hello")
    make_plane(scene, width=6.0, depth=6.0, name="floor")
    box = make_box(scene, size=0.5, name="box", position=(0.0, 1.0, -2.0), material=Material.from_hex("#3a7bd5"))
    box.add_component(SpinComponent(degrees_per_second=90.0))
    make_light(scene, "directional", name="sun", intensity=3.0)

    scene.scheduler.add(SpinSystem())
    scene.run(60)  # one second at the default 60 Hz

    turned = box.transform.rotation.angle_to(box.transform.rotation.identity())
    print(f"{scene!r}")
    print(f"box turned {turned:.1f} degrees in {scene.time:.2f} s")
    for entity in scene.entities:
        print(f"  {entity.name:<6} {', '.join(entity.component_ids())}")


if __name__ == "__main__":
    main()
