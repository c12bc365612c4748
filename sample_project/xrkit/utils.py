"""Shorthand builders for common entities.

:func:`make_box`, :func:`make_sphere`, :func:`make_capsule` and
:func:`make_plane` each create an entity, give it a
:class:`~xrkit.geometry.mesh.MeshComponent` holding a primitive shape, place
it, add it to the scene and return it. Pass ``collider=True`` to also
generate a collider with :class:`~xrkit.physics.builder.CollisionBuilder`.
:func:`make_light` does the same for a light.

Example:
    >>> from xrkit import Scene
    >>> from xrkit.utils import make_box
    >>> scene = Scene()
    >>> crate = make_box(scene, size=0.5, name="crate", collider=True)
    >>> crate.has_component("collider")
    True
"""

from __future__ import annotations

from xrkit.config import DEFAULT_PACKAGE
from xrkit.ecs.entity import Entity
from xrkit.geometry.mesh import MeshComponent
from xrkit.geometry.shapes import BoxShape, CapsuleShape, PlaneShape, Shape, SphereShape
from xrkit.math.vector import VecLike
from xrkit.physics.builder import CollisionBuilder
from xrkit.rendering.components import LightComponent
from xrkit.rendering.material import Material
from xrkit.resources.uri import ResourceUri
from xrkit.scene import Scene

Origin = (0.0, 0.0, 0.0)


def _make_shape(
    scene: Scene,
    shape: Shape,
    name: str,
    position: VecLike,
    material: Material | None,
    collider: bool,
) -> Entity:
    entity = scene.spawn(name, [MeshComponent(shape, material)])
    entity.transform.position = entity.transform.position + position
    if collider:
        CollisionBuilder().build(entity)
    return entity


def make_box(
    scene: Scene,
    size: VecLike | float = 1.0,
    *,
    name: str = "box",
    position: VecLike = Origin,
    material: Material | None = None,
    collider: bool = False,
) -> Entity:
    """Spawn an entity with a :class:`~xrkit.geometry.shapes.BoxShape` mesh.

    Args:
        scene: Scene to add the entity to.
        size: Edge length, or ``(x, y, z)`` edge lengths.
        name: Entity name.
        position: Initial position.
        material: Surface material.
        collider: Also add a matching collider.

    Returns:
        Entity: The new entity.
    """
    return _make_shape(scene, BoxShape(size), name, position, material, collider)


def make_sphere(
    scene: Scene,
    radius: float = 0.5,
    *,
    name: str = "sphere",
    position: VecLike = Origin,
    material: Material | None = None,
    collider: bool = False,
) -> Entity:
    """Spawn an entity with a :class:`~xrkit.geometry.shapes.SphereShape` mesh.

    Args:
        scene: Scene to add the entity to.
        radius: Sphere radius in metres.
        name: Entity name.
        position: Initial position.
        material: Surface material.
        collider: Also add a matching collider.

    Returns:
        Entity: The new entity.
    """
    return _make_shape(scene, SphereShape(radius), name, position, material, collider)


def make_capsule(
    scene: Scene,
    radius: float = 0.5,
    height: float = 2.0,
    *,
    name: str = "capsule",
    position: VecLike = Origin,
    material: Material | None = None,
    collider: bool = False,
) -> Entity:
    """Spawn an entity with a :class:`~xrkit.geometry.shapes.CapsuleShape` mesh.

    Args:
        scene: Scene to add the entity to.
        radius: Capsule radius.
        height: Total height including the caps.
        name: Entity name.
        position: Initial position.
        material: Surface material.
        collider: Also add a matching collider.

    Returns:
        Entity: The new entity.
    """
    return _make_shape(scene, CapsuleShape(radius, height), name, position, material, collider)


def make_plane(
    scene: Scene,
    width: float = 10.0,
    depth: float = 10.0,
    *,
    name: str = "plane",
    position: VecLike = Origin,
    material: Material | None = None,
    collider: bool = False,
) -> Entity:
    """Spawn a floor-like :class:`~xrkit.geometry.shapes.PlaneShape` facing +Y.

    Args:
        scene: Scene to add the entity to.
        width: Extent along X.
        depth: Extent along Z.
        name: Entity name.
        position: Initial position.
        material: Surface material.
        collider: Also add a matching collider.

    Returns:
        Entity: The new entity.
    """
    return _make_shape(scene, PlaneShape(width, depth), name, position, material, collider)


def make_light(
    scene: Scene,
    kind: str = "point",
    *,
    name: str = "light",
    position: VecLike = Origin,
    intensity: float = 1.0,
) -> Entity:
    """Spawn an entity with a :class:`~xrkit.rendering.components.LightComponent`.

    Args:
        scene: Scene to add the entity to.
        kind: ``"point"``, ``"directional"`` or ``"spot"``.
        name: Entity name.
        position: Initial position.
        intensity: Light intensity.

    Returns:
        Entity: The new entity.
    """
    entity = scene.spawn(name, [LightComponent(kind, intensity=intensity)])
    entity.transform.position = entity.transform.position + position
    return entity


def asset_uri(path: str, package: str = DEFAULT_PACKAGE) -> ResourceUri:
    """Build ``res://<package>/<path>``; the package defaults to ``"app"``.

    Args:
        path: Path inside the package, e.g. ``"models/crate.obj"``.
        package: Asset bundle name.
    """
    return ResourceUri(package=package, path=path)
