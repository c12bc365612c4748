"""Surface appearance."""

from __future__ import annotations

from dataclasses import dataclass, replace

from xrkit.resources.uri import ResourceUri

Color = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Material:
    """A physically based material.

    Attributes:
        color: Base colour as linear RGBA in ``[0, 1]``.
        texture: Optional base-colour texture.
        metallic: 0 for dielectrics, 1 for metals.
        roughness: 0 is mirror-like, 1 fully diffuse.
    """

    color: Color = (1.0, 1.0, 1.0, 1.0)
    texture: ResourceUri | None = None
    metallic: float = 0.0
    roughness: float = 0.5

    def __post_init__(self) -> None:
        if len(self.color) != 4 or not all(0.0 <= c <= 1.0 for c in self.color):
            raise ValueError("color must be 4 floats in [0, 1]")
        for name in ("metallic", "roughness"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be in [0, 1]")

    @classmethod
    def from_hex(cls, value: str, **kwargs) -> "Material":
        """Material with the base colour given as ``"#rrggbb"`` or ``"#rrggbbaa"``."""
        digits = value.lstrip("#")
        if len(digits) not in (6, 8):
            raise ValueError(f"expected #rrggbb or #rrggbbaa, got {value!r}")
        channels = [int(digits[i : i + 2], 16) / 255.0 for i in range(0, len(digits), 2)]
        if len(channels) == 3:
            channels.append(1.0)
        return cls(color=tuple(channels), **kwargs)  # type: ignore[arg-type]

    def with_texture(self, texture: ResourceUri) -> "Material":
        """A copy of this material using ``texture``."""
        return replace(self, texture=texture)

    @property
    def is_transparent(self) -> bool:
        """True if alpha is below 1 and the renderer must blend."""
        return self.color[3] < 1.0
