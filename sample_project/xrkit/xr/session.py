"""Running a scene inside an XR session."""

from __future__ import annotations

from typing import TYPE_CHECKING

from xrkit.config import REFERENCE_SPACES
from xrkit.errors import SessionError
from xrkit.xr.input import InputState, Pose

if TYPE_CHECKING:
    from xrkit.scene import Scene

#: Steps a single frame may run to catch up before time is dropped.
MAX_CATCH_UP_STEPS = 5


class XRSession:
    """Couples a scene to the headset's frame loop.

    The headset renders at its own rate; the scene advances in fixed steps of
    :attr:`xrkit.scene.Scene.fixed_dt`. Each :meth:`tick` runs as many steps as
    the elapsed time allows, at most :data:`MAX_CATCH_UP_STEPS`.

    Args:
        scene: The scene to drive.
        reference_space: Helios reference space type: ``"viewer"``,
            ``"local"``, ``"local-floor"``, ``"bounded-floor"`` or ``"unbounded"``.

    Raises:
        ValueError: For an unknown reference space.
    """

    def __init__(self, scene: "Scene", reference_space: str) -> None:
        if reference_space not in REFERENCE_SPACES:
            raise ValueError(f"unknown reference space {reference_space!r}")
        self.scene = scene
        self.reference_space = reference_space
        self.input = InputState()
        self.head_pose = Pose()
        self._running = False
        self._last_time: float | None = None
        self._accumulator = 0.0

    @property
    def is_running(self) -> bool:
        """True between :meth:`start` and :meth:`end`."""
        return self._running

    def start(self) -> None:
        """Begin the session.

        Raises:
            SessionError: If the session is already running.
        """
        if self._running:
            raise SessionError("session already running")
        self._running = True
        self._last_time = None
        self._accumulator = 0.0

    def end(self) -> None:
        """Stop the session; the scene keeps its state."""
        self._running = False

    def tick(self, timestamp: float, head_pose: Pose | None = None) -> int:
        """Advance the scene to ``timestamp`` (seconds, monotonic).

        Args:
            timestamp: Frame time reported by the headset.
            head_pose: Latest head pose, if tracked.

        Returns:
            int: Number of scene steps that ran.

        Raises:
            SessionError: If the session is not running.
        """
        if not self._running:
            raise SessionError("call start() before tick()")
        if head_pose is not None:
            self.head_pose = head_pose
        if self._last_time is None:
            self._last_time = timestamp
            return 0
        self._accumulator += max(0.0, timestamp - self._last_time)
        self._last_time = timestamp
        dt = self.scene.fixed_dt
        steps = 0
        while self._accumulator + 1e-9 >= dt and steps < MAX_CATCH_UP_STEPS:
            self.scene.step()
            self._accumulator -= dt
            steps += 1
        if steps == MAX_CATCH_UP_STEPS:
            self._accumulator = 0.0  # drop time rather than spiral
        return steps
