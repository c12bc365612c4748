"""Load a mesh from a resource package and give it an explicit collider.

The collision builder only handles primitives, so the imported crate mesh
needs a convex hull collider of its own.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a source checkout

from xrkit import Scene
from xrkit.geometry import MeshComponent
from xrkit.physics import ColliderComponent, CollisionBuilder, ConvexHullShape
from xrkit.resources import ResourceLoader, ResourceUri
from xrkit.utils import make_sphere

ASSETS = Path(__file__).resolve().parent / "assets"


def main() -> None:
    loader = ResourceLoader(ASSETS)
    uri = ResourceUri(package="demo", path="models/crate.obj")
    mesh = loader.load_mesh(uri)
    print(f"loaded {uri} -> {mesh!r}")

    scene = Scene("assets")
    crate = scene.spawn("crate", [MeshComponent(mesh)])
    make_sphere(scene, radius=0.25, name="ball", position=(0.0, 2.0, 0.0))

    builder = CollisionBuilder()
    created = builder.build_all(scene)
    print(f"generated {created} collider(s); skipped meshes: {[e.name for e in builder.skipped_meshes()]}")

    crate.add_component(ColliderComponent(ConvexHullShape.from_mesh(mesh)))
    print(f"crate collider bounds: {crate.get_component('collider').world_bounds()}")


if __name__ == "__main__":
    main()
