"""Base class for systems whose lifecycle the scheduler manages."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xrkit.scene import Scene


class ManagedSystem:
    """A system that receives lifecycle callbacks from the scheduler.

    Mirrors the Helios ``ManagedSystem`` contract: :meth:`on_attach` runs once
    when the system is added to a scene's scheduler, :meth:`on_update` once
    per step while the system is enabled, and :meth:`on_detach` once when it is
    removed. The scheduler decides by ``isinstance`` whether an object gets
    these callbacks, so a class that merely defines methods with these names
    gets none of them.

    Args:
        priority: Systems run in ascending priority; equal priorities run in
            the order they were added. Defaults to the class attribute
            :attr:`priority`.

    Attributes:
        priority: Default ordering key for instances of the class.
        enabled: Disabled systems stay attached but are not updated.
    """

    priority: int = 0

    def __init__(self, *, priority: int | None = None) -> None:
        if priority is not None:
            self.priority = priority
        self.enabled = True
        self._scene: Scene | None = None

    @property
    def scene(self) -> "Scene | None":
        """The scene the system is attached to, or None."""
        return self._scene

    @property
    def is_attached(self) -> bool:
        """True between :meth:`on_attach` and :meth:`on_detach`."""
        return self._scene is not None

    def on_attach(self, scene: "Scene") -> None:
        """Called once when the system joins ``scene``'s scheduler."""

    def on_update(self, scene: "Scene", dt: float) -> None:
        """Called every step with the step length ``dt`` in seconds."""

    def on_detach(self, scene: "Scene") -> None:
        """Called once when the system leaves ``scene``'s scheduler."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(priority={self.priority}, attached={self.is_attached})"
