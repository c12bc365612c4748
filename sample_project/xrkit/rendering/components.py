"""Lights and cameras."""

from __future__ import annotations

import math

from xrkit.ecs.component import Component

LIGHT_KINDS = ("point", "directional", "spot")


class LightComponent(Component):
    """A light source. Stored under ``"light"``.

    Args:
        kind: ``"point"``, ``"directional"`` or ``"spot"``.
        color: Linear RGB.
        intensity: Candela for point and spot lights, lux for directional ones.
        range: Distance at which point and spot lights fade to zero; ignored
            for directional lights.

    Raises:
        ValueError: For an unknown ``kind`` or a negative intensity.
    """

    def __init__(
        self,
        kind: str = "point",
        color: tuple[float, float, float] = (1.0, 1.0, 1.0),
        intensity: float = 1.0,
        range: float = 10.0,
    ) -> None:
        super().__init__()
        if kind not in LIGHT_KINDS:
            raise ValueError(f"kind must be one of {LIGHT_KINDS}, got {kind!r}")
        if intensity < 0:
            raise ValueError("intensity must be >= 0")
        self.kind = kind
        self.color = color
        self.intensity = intensity
        self.range = range

    def attenuation(self, distance: float) -> float:
        """Fraction of intensity reaching ``distance`` (1 for directional lights)."""
        if self.kind == "directional":
            return 1.0
        if distance >= self.range:
            return 0.0
        falloff = (1.0 - (distance / self.range) ** 4) ** 2
        return falloff / max(distance * distance, 1e-4)


class CameraComponent(Component):
    """A perspective camera. Stored under ``"camera"``.

    In an XR session the headset drives the view; this camera is used for
    spectator views and for desktop previews.

    Args:
        fov_degrees: Vertical field of view.
        near: Near clip distance in metres.
        far: Far clip distance in metres.
    """

    def __init__(self, fov_degrees: float = 70.0, near: float = 0.05, far: float = 100.0) -> None:
        super().__init__()
        if not 0 < near < far:
            raise ValueError("need 0 < near < far")
        self.fov_degrees = fov_degrees
        self.near = near
        self.far = far

    def projection_matrix(self, aspect: float) -> tuple[tuple[float, ...], ...]:
        """Right-handed, OpenGL-style projection matrix (row-major 4x4)."""
        f = 1.0 / math.tan(math.radians(self.fov_degrees) / 2.0)
        n, fa = self.near, self.far
        return (
            (f / aspect, 0.0, 0.0, 0.0),
            (0.0, f, 0.0, 0.0),
            (0.0, 0.0, (fa + n) / (n - fa), 2 * fa * n / (n - fa)),
            (0.0, 0.0, -1.0, 0.0),
        )
