"""Entity-component core: entities, components, the registry and deferred state."""

from xrkit.ecs.component import Component
from xrkit.ecs.entity import Entity
from xrkit.ecs.registry import ComponentRegistry
from xrkit.ecs.state import FlushResult, StateManager
from xrkit.ecs.transform import Transform

__all__ = ["Component", "ComponentRegistry", "Entity", "FlushResult", "StateManager", "Transform"]
