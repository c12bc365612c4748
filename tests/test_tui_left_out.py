"""The app says when ignore rules left docs out of its doc list (issue 16, row 9): the same
line `review --check` prints, once, when the project opens."""

from __future__ import annotations

from pathlib import Path

from caas_tui.tui.app import CaasApp
from caas_tui.tui.testing import settle

from .conftest import write


async def test_app_names_docs_left_out_by_gitignore(tiny_project: Path, tmp_path: Path) -> None:
    (tiny_project / ".gitignore").write_text("docs/\n", encoding="utf-8")
    write(tiny_project, "docs/more.md", "# More\n\nSee `World.add_body`.\n")
    app = CaasApp(tiny_project, index_dir=tmp_path / "index")
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await settle(pilot)
        notes = [n.message for n in app._notifications if "left out" in n.message]
    assert len(notes) == 1, notes
    assert notes[0].startswith("2 docs left out, not reviewed: ignored by .gitignore or caas.toml excludes")
    assert "docs/guide.md" in notes[0] and "docs/more.md" in notes[0]


async def test_app_says_nothing_when_no_doc_is_left_out(tiny_project: Path, tmp_path: Path) -> None:
    app = CaasApp(tiny_project, index_dir=tmp_path / "index")
    async with app.run_test(size=(120, 36), notifications=True) as pilot:
        await settle(pilot)
        assert not [n.message for n in app._notifications if "left out" in n.message]
