"""XR sessions, tracked poses and controller input."""

from xrkit.xr.input import ControllerState, InputState, Pose
from xrkit.xr.session import XRSession

__all__ = ["ControllerState", "InputState", "Pose", "XRSession"]
