"""Library-wide defaults.

Every tunable default in xrkit lives here so that applications can see, in one
place, what they get when they do not pass a value explicitly. Modules import
these constants rather than repeating the literals.
"""

from __future__ import annotations

#: Default tolerance of :class:`xrkit.math.TransformComparer`, which decides ``Transform`` equality.
DEFAULT_TOLERANCE: float = 1e-4

#: Length of one simulation step in seconds (60 Hz, the Helios default frame rate).
DEFAULT_FIXED_DT: float = 1.0 / 60.0

#: Gravity applied by :class:`xrkit.systems.physics.PhysicsSystem`, in m/s^2.
DEFAULT_GRAVITY: tuple[float, float, float] = (0.0, -9.81, 0.0)

#: Number of integration substeps per simulation step.
DEFAULT_SUBSTEPS: int = 2

#: Scheme used by every resource URI (``res://<package>/<path>``).
RESOURCE_SCHEME: str = "res"

#: Package used by :func:`xrkit.utils.asset_uri` when none is given.
DEFAULT_PACKAGE: str = "app"

#: Number of loaded resources kept in memory by :class:`xrkit.resources.ResourceLoader`.
RESOURCE_CACHE_SIZE: int = 64

#: Reference spaces accepted by :class:`xrkit.xr.XRSession`.
REFERENCE_SPACES: frozenset[str] = frozenset(
    {"viewer", "local", "local-floor", "bounded-floor", "unbounded"}
)
