"""Data flows one way; core packages never import UI, MCP, CLI or (outside review/claude/) anthropic."""

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
            if not path.is_relative_to(PKG / "review" / "claude"):
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


# -- module graph: no import cycles, no private imports (issue 13) ----------------------
def _module_name(path: Path) -> str:
    parts = path.relative_to(PKG.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_targets(path: Path, modules: set[str]) -> list[tuple[str, str, int]]:
    """Every import in ``path`` (lazy, TYPE_CHECKING and relative ones too) as
    ``(caas_tui module imported, name imported from it or "", line)``. ``from pkg import mod``
    imports ``pkg.mod``; importing a package imports its ``__init__``."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def known(dotted: str) -> str | None:
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    out: list[tuple[str, str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if (target := known(alias.name)) is not None:
                    out.append((target, "", node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                if sub in modules:
                    out.append((sub, "", node.lineno))
                elif (target := known(module)) is not None:
                    out.append((target, alias.name, node.lineno))
    return out


def _module_graph() -> tuple[dict[str, Path], dict[str, set[str]]]:
    files = {_module_name(p): p for p in PKG.rglob("*.py")}
    graph = {m: {t for t, _, _ in _import_targets(p, set(files)) if t != m} for m, p in files.items()}
    return files, graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_cycle_finder_finds_cycles() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles_between_modules() -> None:
    _, graph = _module_graph()
    assert _cycles(graph) == [], "import cycles (TYPE_CHECKING, lazy and relative imports count)"


def test_no_private_names_imported_across_modules() -> None:
    files, _ = _module_graph()
    found = [
        f"{path.relative_to(PKG.parent)}:{line}: from {target} import {name}"
        for path in files.values()
        for target, name, line in _import_targets(path, set(files))
        if name.startswith("_") and not name.startswith("__")
    ]
    assert found == [], "private names imported from another module:\n" + "\n".join(found)
