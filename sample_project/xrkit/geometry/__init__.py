"""Primitive shapes, triangle meshes and bounding boxes."""

from xrkit.geometry.bounds import AABB
from xrkit.geometry.mesh import Mesh, MeshComponent
from xrkit.geometry.shapes import BoxShape, CapsuleShape, PlaneShape, Shape, SphereShape

__all__ = ["AABB", "BoxShape", "CapsuleShape", "Mesh", "MeshComponent", "PlaneShape", "Shape", "SphereShape"]
