"""Data flows one way; core packages never import UI, MCP, CLI or (outside review/) anthropic."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "caas_tui"
CORE = ("sources", "ingest", "graph", "index", "retrieve", "review", "live")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("layer", CORE)
def test_core_layers_import_no_front_end(layer: str) -> None:
    for path in (PKG / layer).rglob("*.py"):
        for name in _imports(path):
            top = name.split(".")[0]
            assert top not in {"textual", "mcp"}, f"{path} imports {name}"
            assert not name.startswith(("caas_tui.cli", "caas_tui.tui", "caas_tui.mcp_server")), f"{path} imports {name}"
            if layer != "review":
                assert top != "anthropic", f"{path} imports {name}"


def test_import_linter_contracts_hold() -> None:
    exe = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    if not Path(exe).exists():
        pytest.fail("lint-imports is missing: install the test extra")
    result = subprocess.run([exe, "--no-cache"], cwd=PKG.parent, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


def test_modules_stay_small() -> None:
    too_long = {
        str(p.relative_to(PKG)): n
        for p in PKG.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 450
    }
    assert not too_long, f"modules over 450 lines: {too_long}"
