"""The built-in attribute ids.

Every :class:`~xrkit.scene.Scene` starts with these registered. Register your
own components on ``scene.registry`` before adding them to entities of that
scene.
"""

from __future__ import annotations

from xrkit.ecs.component import Component
from xrkit.ecs.transform import Transform
from xrkit.geometry.mesh import MeshComponent
from xrkit.physics.collider import ColliderComponent
from xrkit.physics.rigidbody import RigidBodyComponent
from xrkit.rendering.components import CameraComponent, LightComponent
from xrkit.systems.animation import SpinComponent

#: Attribute id -> component class, in registration order.
BUILTIN_COMPONENTS: dict[str, type[Component]] = {
    "transform": Transform,
    "mesh": MeshComponent,
    "collider": ColliderComponent,
    "rigidbody": RigidBodyComponent,
    "light": LightComponent,
    "camera": CameraComponent,
    "spin": SpinComponent,
}
