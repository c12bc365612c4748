"""Materials, lights and cameras."""

from xrkit.rendering.components import CameraComponent, LightComponent
from xrkit.rendering.material import Material

__all__ = ["CameraComponent", "LightComponent", "Material"]
