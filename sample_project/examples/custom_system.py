"""A custom component and a managed system that uses it.

Registers a ``"health"`` component on the scene, drains it over time with a
ManagedSystem subclass, and destroys entities that run out.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a source checkout

from xrkit import Component, ManagedSystem, Scene


class HealthComponent(Component):
    def __init__(self, points: float = 100.0) -> None:
        super().__init__()
        self.points = points


class PoisonSystem(ManagedSystem):
    """Removes ``rate`` health points per second from every entity with health."""

    def __init__(self, rate: float) -> None:
        super().__init__()
        self.rate = rate

    def on_attach(self, scene: Scene) -> None:
        print(f"poison attached to {scene.name!r}")

    def on_update(self, scene: Scene, dt: float) -> None:
        for entity in scene.query("health"):
            health = entity.get_component("health")
            health.points -= self.rate * dt
            if health.points <= 0:
                scene.destroy(entity)

    def on_detach(self, scene: Scene) -> None:
        print("poison detached")


def main() -> None:
    scene = Scene("arena")
    scene.registry.register("health", HealthComponent)
    scene.spawn("goblin", [HealthComponent(30.0)])
    scene.spawn("troll", [HealthComponent(90.0)])
    scene.events.subscribe("entity_destroyed", lambda e: print(f"t={scene.time:.2f}s {e.name} destroyed"))

    poison = scene.scheduler.add(PoisonSystem(rate=60.0))
    scene.run(120)
    scene.scheduler.remove(poison)
    print(f"left standing: {[e.name for e in scene.entities]}")


if __name__ == "__main__":
    main()
