"""Systems: the managed-system base class, the scheduler and built-in systems."""

from xrkit.systems.animation import SpinComponent, SpinSystem
from xrkit.systems.base import ManagedSystem
from xrkit.systems.physics import PhysicsSystem
from xrkit.systems.scheduler import Scheduler

__all__ = ["ManagedSystem", "PhysicsSystem", "Scheduler", "SpinComponent", "SpinSystem"]
