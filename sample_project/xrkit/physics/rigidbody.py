"""Dynamic bodies moved by the physics system."""

from __future__ import annotations

from xrkit.ecs.component import Component
from xrkit.math.vector import Vec3, VecLike


class RigidBodyComponent(Component):
    """Mass and velocity for an entity simulated by
    :class:`~xrkit.systems.physics.PhysicsSystem`.

    Stored under the ``"rigidbody"`` attribute id.

    Parameters
    ----------
    mass : float, optional
        Mass in kilograms, by default 1.0. Must be positive.
    velocity : sequence of float, optional
        Initial linear velocity in m/s, by default at rest.
    use_gravity : bool, optional
        Whether gravity accelerates the body, by default True.
    kinematic : bool, optional
        Kinematic bodies are moved only by code, never by the simulation,
        by default False.

    Raises
    ------
    ValueError
        If ``mass`` is not positive.
    """

    def __init__(
        self,
        mass: float = 1.0,
        velocity: VecLike = (0.0, 0.0, 0.0),
        use_gravity: bool = True,
        kinematic: bool = False,
    ) -> None:
        super().__init__()
        if mass <= 0:
            raise ValueError("mass must be positive")
        self.mass = float(mass)
        self.velocity = Vec3.of(velocity)
        self.use_gravity = use_gravity
        self.kinematic = kinematic

    def apply_impulse(self, impulse: VecLike) -> None:
        """Change velocity by ``impulse / mass``; ignored for kinematic bodies.

        Parameters
        ----------
        impulse : sequence of float
            Impulse in N*s.
        """
        if not self.kinematic:
            self.velocity = self.velocity + Vec3.of(impulse) / self.mass

    @property
    def momentum(self) -> Vec3:
        """Linear momentum ``mass * velocity``."""
        return self.velocity * self.mass
