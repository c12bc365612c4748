"""Regenerate screenshots/*.svg and *.png of the review app on sample_project at 160x45
(and the triage screen at 80x24 too).

    /work/venv/bin/python scripts/screenshots.py [--out screenshots] [--size 160x45]

The project is copied to a temporary directory first (the index and the verdict
store go there), so the repository tree is never written. The PNGs are rendered by
CairoSVG after pointing the SVG at a local monospace font.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

import cairosvg
from textual.pilot import Pilot
from textual.widgets import Tree

from caas_tui.tui.app import CaasApp
from caas_tui.tui.screens.main import MainScreen
from caas_tui.tui.testing import copy_project, no_blink, settle, svg_for_cairo
from caas_tui.tui.widgets.evidence import HitTable
from caas_tui.tui.widgets.lists import ClaimList

REPO = Path(__file__).resolve().parents[1]

TUTORIAL = "docs/tutorial.md"
Scene = Callable[[Pilot], Awaitable[None]]


async def _main_screen(pilot: Pilot) -> MainScreen:
    screen = pilot.app.screen
    assert isinstance(screen, MainScreen), screen
    return screen


async def _review(pilot: Pilot, doc: str) -> MainScreen:
    """Open ``doc`` and review it with the static reviewer (C)."""
    await settle(pilot)
    screen = await _main_screen(pilot)
    if screen.doc is None or screen.doc.path != doc:
        screen.open_doc(doc)
        await settle(pilot)
    screen.query_one(ClaimList).focus()
    await pilot.press("C")
    await settle(pilot)
    return screen


def _worst_claim(screen: MainScreen) -> str | None:
    """The claim most worth showing: contradicted with a fix, else contradicted, else incomplete."""
    ranked: list[tuple[int, int, str]] = []
    for i, claim in enumerate(screen.claims):
        state = screen.states.get(claim.id)
        if state is None:
            continue
        score = {"contradicted": 0, "incomplete": 2}.get(state.label, 9) - (1 if state.fix is not None else 0)
        ranked.append((score, i, claim.id))
    ranked.sort()
    return ranked[0][2] if ranked and ranked[0][0] < 9 else None


async def triage(pilot: Pilot) -> None:
    screen = await _review(pilot, TUTORIAL)
    claim_id = _worst_claim(screen)
    if claim_id:
        screen.query_one(ClaimList).select_claim(claim_id)
    await settle(pilot)
    pilot.app.clear_notifications()
    await pilot.pause(0.2)


async def chain(pilot: Pilot) -> None:
    screen = await _review(pilot, TUTORIAL)
    # Follow a claim that names code the symbol graph knows.
    claims = screen.query_one(ClaimList)
    for claim in claims.claims:
        if claim.kind == "prose" and any("." in s for s in claim.symbols):
            claims.select_claim(claim.id)
            break
    await settle(pilot)
    await pilot.press("x")
    await settle(pilot)
    tree = pilot.app.screen.query_one(Tree)
    tree.focus()
    await pilot.press("down", "down", "down")
    await settle(pilot)
    pilot.app.clear_notifications()
    await pilot.pause(0.2)


async def export(pilot: Pilot) -> None:
    for doc in (TUTORIAL, "docs/api_guide.md"):
        screen = await _review(pilot, doc)
        claims = screen.query_one(ClaimList)
        for claim in list(claims.claims):
            state = screen.states.get(claim.id)
            if state is not None and state.fix is not None and state.label != "consistent":
                claims.select_claim(claim.id)
                await settle(pilot)
                await pilot.press("a")
                await settle(pilot)
    await pilot.press("p")
    await settle(pilot)
    pilot.app.clear_notifications()
    await pilot.pause(0.2)


async def picker(pilot: Pilot) -> None:
    """The doc picker (d) after a review, filtered by typing."""
    screen = await _review(pilot, TUTORIAL)
    screen.query_one(ClaimList).focus()
    await pilot.press("d")
    await settle(pilot)
    await pilot.press(*"tut")
    await settle(pilot)
    pilot.app.clear_notifications()
    await pilot.pause(0.2)


async def legend(pilot: Pilot) -> None:
    """? on the evidence pane: what the glyphs and the columns mean."""
    screen = await _review(pilot, TUTORIAL)
    screen.query_one(HitTable).focus()
    await pilot.press("question_mark")
    await settle(pilot)
    pilot.app.clear_notifications()
    await pilot.pause(0.2)


SCENES: dict[str, Scene] = {"triage": triage, "chain": chain, "export": export, "picker": picker, "legend": legend}
# Scenes shot again at a small terminal size (name_80x24), to show the layout fits.
SMALL_SCENES = ("triage",)
SMALL = (80, 24)


async def shoot(name: str, scene: Scene, out: Path, size: tuple[int, int], work: Path) -> Path:
    project = copy_project(REPO / "sample_project", work / name, "sample_project")
    app = CaasApp(project, index_dir=work / name / "index", initial_doc=TUTORIAL)
    async with app.run_test(size=size) as pilot:
        no_blink(pilot)
        await scene(pilot)
        no_blink(pilot)
        svg = app.export_screenshot(title=f"caas-tui: {name}")
    svg_path = out / f"{name}.svg"
    svg_path.write_text(svg, encoding="utf-8")
    png_path = out / f"{name}.png"
    cairosvg.svg2png(bytestring=svg_for_cairo(svg).encode("utf-8"), write_to=str(png_path))
    return png_path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "screenshots")
    parser.add_argument("--size", default="160x45", help="WIDTHxHEIGHT (default 160x45)")
    parser.add_argument("only", nargs="*", metavar="SCENE", help=f"scenes to shoot: {', '.join(SCENES)} (default all)")
    args = parser.parse_args(argv)
    unknown = [s for s in args.only if s not in SCENES]
    if unknown:
        parser.error(f"unknown scene {unknown[0]!r} (choose from {', '.join(SCENES)})")
    width, height = (int(v) for v in args.size.lower().split("x"))
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="caas-shots-") as tmp:
        shots = [(name, name, (width, height)) for name in args.only or list(SCENES)]
        shots += [(f"{name}_{SMALL[0]}x{SMALL[1]}", name, SMALL) for name, _, _ in list(shots) if name in SMALL_SCENES]
        for shot, name, size in shots:
            png = asyncio.run(shoot(shot, SCENES[name], args.out, size, Path(tmp)))
            print(f"wrote {png.relative_to(REPO) if png.is_relative_to(REPO) else png}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
