"""Tracked poses and controller input."""

from __future__ import annotations

from dataclasses import dataclass, field

from xrkit.math.quaternion import Quat
from xrkit.math.vector import Vec3

HANDEDNESS = ("left", "right")


@dataclass(frozen=True, slots=True)
class Pose:
    """Position and orientation in the session's reference space."""

    position: Vec3 = field(default_factory=Vec3.zero)
    orientation: Quat = field(default_factory=Quat.identity)

    def forward(self) -> Vec3:
        """Pointing direction (-Z rotated by the orientation)."""
        return self.orientation.rotate((0.0, 0.0, -1.0))


@dataclass(frozen=True, slots=True)
class ControllerState:
    """One controller's state for one frame.

    Attributes:
        handedness: ``"left"`` or ``"right"``.
        pose: Grip pose of the controller.
        trigger: Trigger pull, 0 (released) to 1 (fully pressed).
        grip: Grip squeeze, 0 to 1.
        buttons: Names of the buttons held down this frame.
    """

    handedness: str
    pose: Pose = field(default_factory=Pose)
    trigger: float = 0.0
    grip: float = 0.0
    buttons: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if self.handedness not in HANDEDNESS:
            raise ValueError(f"handedness must be 'left' or 'right', got {self.handedness!r}")


class InputState:
    """Latest controller states, updated by the session every frame."""

    def __init__(self) -> None:
        self._controllers: dict[str, ControllerState] = {}
        self._previous: dict[str, ControllerState] = {}

    def update(self, state: ControllerState) -> None:
        """Record the newest state for ``state.handedness``."""
        if state.handedness in self._controllers:
            self._previous[state.handedness] = self._controllers[state.handedness]
        self._controllers[state.handedness] = state

    def controller(self, handedness: str) -> ControllerState | None:
        """State of the ``"left"`` or ``"right"`` controller, or None if not tracked."""
        return self._controllers.get(handedness)

    def trigger_pressed(self, handedness: str, threshold: float = 0.5) -> bool:
        """True on the frame the trigger crosses ``threshold`` going down."""
        now = self._controllers.get(handedness)
        before = self._previous.get(handedness)
        was = before is not None and before.trigger >= threshold
        return now is not None and now.trigger >= threshold and not was
