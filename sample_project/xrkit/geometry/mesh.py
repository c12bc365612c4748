"""Triangle meshes and the mesh component."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from xrkit.ecs.component import Component
from xrkit.geometry.bounds import AABB
from xrkit.geometry.shapes import Shape
from xrkit.math.vector import Vec3, VecLike

if TYPE_CHECKING:
    from xrkit.rendering.material import Material
    from xrkit.resources.uri import ResourceUri


class Mesh(Shape):
    """An indexed triangle mesh.

    Meshes are not primitives: the engine cannot derive an exact collision
    shape from arbitrary triangles, so they never get an automatic collider.

    Args:
        vertices: Vertex positions.
        triangles: Triples of vertex indices, counter-clockwise when seen from outside.
        source: Where the mesh was loaded from, if anywhere.

    Raises:
        ValueError: If a triangle refers to a vertex that does not exist.
    """

    is_primitive = False

    def __init__(
        self,
        vertices: Sequence[VecLike],
        triangles: Sequence[tuple[int, int, int]],
        source: "ResourceUri | None" = None,
    ) -> None:
        self.vertices = tuple(Vec3.of(v) for v in vertices)
        self.triangles = tuple(tuple(t) for t in triangles)
        self.source = source
        n = len(self.vertices)
        for tri in self.triangles:
            if len(tri) != 3 or not all(0 <= i < n for i in tri):
                raise ValueError(f"bad triangle {tri!r} for {n} vertices")

    @classmethod
    def from_obj(cls, text: str, source: "ResourceUri | None" = None) -> "Mesh":
        """Parse the ``v`` and ``f`` records of a Wavefront OBJ document.

        Faces with more than three corners are fanned into triangles; texture
        and normal indices (``f 1/1/1 ...``) are ignored.
        """
        vertices: list[Vec3] = []
        triangles: list[tuple[int, int, int]] = []
        for raw in text.splitlines():
            parts = raw.split("#", 1)[0].split()
            if not parts:
                continue
            if parts[0] == "v":
                vertices.append(Vec3(*(float(p) for p in parts[1:4])))
            elif parts[0] == "f":
                idx = [int(p.split("/")[0]) - 1 for p in parts[1:]]
                triangles.extend((idx[0], idx[i], idx[i + 1]) for i in range(1, len(idx) - 1))
        return cls(vertices, triangles, source)

    def bounds(self) -> AABB:
        return AABB.from_points(self.vertices)

    def volume(self) -> float:
        """Signed-tetrahedron volume; exact for closed, consistently wound meshes."""
        total = 0.0
        for a, b, c in self.triangles:
            total += self.vertices[a].dot(self.vertices[b].cross(self.vertices[c])) / 6.0
        return abs(total)

    def padded(self, margin: float) -> "Mesh":
        raise NotImplementedError("meshes cannot be padded; build an explicit collider")

    def __repr__(self) -> str:
        return f"Mesh(vertices={len(self.vertices)}, triangles={len(self.triangles)})"


class MeshComponent(Component):
    """Renderable geometry: a primitive shape or a triangle mesh, plus a material.

    Stored under the ``"mesh"`` attribute id.

    Args:
        geometry: A primitive :class:`~xrkit.geometry.shapes.Shape` or a :class:`Mesh`.
        material: Surface appearance; the renderer's default material if None.
    """

    def __init__(self, geometry: Shape, material: "Material | None" = None) -> None:
        super().__init__()
        self.geometry = geometry
        self.material = material

    @property
    def is_primitive(self) -> bool:
        """True if the geometry is an analytic primitive rather than a mesh."""
        return self.geometry.is_primitive

    def world_bounds(self) -> AABB:
        """Bounds in world space, using the owning entity's transform."""
        local = self.geometry.bounds()
        if self.entity is None:
            return local
        return AABB.from_points(self.entity.transform.transform_point(c) for c in local.corners())
