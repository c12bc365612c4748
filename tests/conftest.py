"""Shared fixtures: small real projects on disk (no fakes: the real index is used)."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from caas_tui.models import Claim, Verdict

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "sample_project"


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def verdict_starting(pairs: list[tuple[Claim, Verdict]], start: str) -> Verdict:
    """The verdict of the one claim whose text starts with ``start``."""
    hits = [v for c, v in pairs if c.text.startswith(start)]
    assert len(hits) == 1, (start, [c.text for c, _ in pairs])
    return hits[0]


def verdict_containing(pairs: list[tuple[Claim, Verdict]], part: str) -> Verdict:
    """The verdict of the one claim whose text contains ``part``."""
    hits = [v for c, v in pairs if part in c.text]
    assert len(hits) == 1, (part, [c.text for c, _ in pairs])
    return hits[0]


def review_written(root: Path, files: Mapping[str, str], docs: Sequence[str]) -> list[tuple[Claim, Verdict]]:
    """Write ``files`` under ``root``, index the project and review each of ``docs`` with the
    static reviewer: every (claim, verdict) pair, in order."""
    from caas_tui.retrieve.engine import Engine
    from caas_tui.review.runner import review_doc
    from caas_tui.review.static import StaticReviewer

    for rel, text in files.items():
        write(root, rel, text)
    eng = Engine.open(root)
    try:
        return [pair for doc in docs for pair in review_doc(eng, doc, StaticReviewer()).pairs()]
    finally:
        eng.close()


@pytest.fixture()
def tiny_project(tmp_path: Path) -> Path:
    """A two-module package, a test, a guide and an upstream page."""
    root = tmp_path / "proj"
    write(root, "pkg/__init__.py", '"""A tiny physics package."""\n')
    write(
        root,
        "pkg/world.py",
        '''
        """The world holds bodies."""

        from pkg.sched import Scheduler


        class World:
            """A simulation world."""

            def __init__(self) -> None:
                self.bodies: list[str] = []
                self.scheduler = Scheduler()

            def add_body(self, name: str, mass: float = 1.0) -> str:
                """Add a body and return its name."""
                self.bodies.append(name)
                return name

            def remove_body(self, name: str) -> None:
                """Queue a body for removal at the end of the step."""
                self.scheduler.defer(name)
        ''',
    )
    write(
        root,
        "pkg/sched.py",
        '''
        """Deferred work."""


        class Scheduler:
            def __init__(self) -> None:
                self.pending: list[str] = []

            def defer(self, item: str) -> None:
                """Run ``item`` when the frame ends."""
                self.pending.append(item)
        ''',
    )
    write(
        root,
        "tests/test_world.py",
        '''
        from pkg.world import World


        def test_remove_is_deferred():
            w = World()
            w.add_body("a")
            w.remove_body("a")
            assert w.bodies == ["a"]
        ''',
    )
    write(
        root,
        "docs/guide.md",
        """
        # Guide

        ## Bodies

        Call `World.remove_body` to delete a body immediately.

        ```python
        from pkg.world import World
        w = World()
        w.add_body("crate", mass=2.0)
        ```
        """,
    )
    write(root, "upstream/engine.md", "# Engine\n\nRemovals are deferred to the end of the frame.\n")
    return root
