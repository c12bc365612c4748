"""Colliders, rigid bodies, automatic collider generation and ray queries."""

from xrkit.physics.builder import CollisionBuilder
from xrkit.physics.collider import ColliderComponent, ConvexHullShape
from xrkit.physics.raycast import RaycastHit, raycast
from xrkit.physics.rigidbody import RigidBodyComponent

__all__ = [
    "ColliderComponent",
    "CollisionBuilder",
    "ConvexHullShape",
    "RaycastHit",
    "RigidBodyComponent",
    "raycast",
]
