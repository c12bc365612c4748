"""xrkit: a Python SDK for 3D and XR scenes on the Helios Engine Platform.

The names most programs need are re-exported here::

    from xrkit import Scene, Entity, ManagedSystem
"""

from xrkit.ecs.component import Component
from xrkit.ecs.entity import Entity
from xrkit.ecs.transform import Transform
from xrkit.errors import XrkitError
from xrkit.scene import Scene
from xrkit.systems.base import ManagedSystem

__version__ = "0.9.2"

__all__ = ["Component", "Entity", "ManagedSystem", "Scene", "Transform", "XrkitError", "__version__"]
