"""The static reviewer's AST shortcuts give the answers of the plain walks they replace:
the cached ``own_nodes``, ``walk_nodes``, the line pre-test before a prefix walk, and the
project parse with the cycle collector paused."""

from __future__ import annotations

import ast
import gc
import re
import textwrap
from pathlib import Path

import pytest

from caas_tui.retrieve.engine import Engine
from caas_tui.review.static.model.prefixes import field_prefixes, function_prefixes
from caas_tui.review.static.model.project import ModuleSource, Project, walk_nodes
from caas_tui.review.static.model.pysig import own_nodes
from caas_tui.review.static.model.resolve import Def, Resolver
from caas_tui.review.textutil import split_lines
from tests.conftest import write

SOURCE = textwrap.dedent('''
    import os

    SCHEME = "res://"

    def uri(path, *, pkg=None):
        """Build one."""
        if pkg is None:
            pkg = os.getcwd()
        return f"{SCHEME}{path}"

    def joined(name):
        return "/api/" + name

    def plain(a, b=2):
        total = 0
        total += a
        for x in [a, b]:
            total = total * x
        lam = lambda y: y + 1
        def inner(z):
            return f"/in/{z}"
        return lam(total) if total else inner(a)

    class Ref:
        def __init__(self, package, path):
            self.package = package
            self.path = path

        def __str__(self):
            return f"res://{self.package}/{self.path}"

        def __repr__(self):
            return f"res://{self.path}"

    class Guarded:
        def render(self):
            return "res://" + self.path

        def check(self):
            return self.path.startswith("res")

    class Quiet:
        def size(self):
            return len(self.items)
''').lstrip()


def _reference_own(node: ast.AST) -> list[ast.AST]:
    """The walk ``own_nodes`` replaced, word for word."""
    out: list[ast.AST] = []
    stack = list(ast.iter_child_nodes(node))
    while stack:
        cur = stack.pop()
        if isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        out.append(cur)
        stack.extend(ast.iter_child_nodes(cur))
    return out


def _module(text: str, name: str = "pkg.mod") -> ModuleSource:
    return ModuleSource(name, "pkg/mod.py", split_lines(text), ast.parse(text))


def _scopes(tree: ast.AST) -> list[ast.AST]:
    return [n for n in ast.walk(tree) if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]


def test_own_nodes_and_walk_nodes_match_the_plain_walks() -> None:
    # The package's own sources give every kind of node the checks meet.
    texts = [SOURCE, *(p.read_text(encoding="utf-8") for p in sorted(Path("caas_tui/review/static").rglob("*.py")))]
    checked = 0
    for text in texts:
        tree = ast.parse(text)
        for scope in _scopes(tree):
            got = own_nodes(scope)
            want = _reference_own(scope)
            assert len(got) == len(want) and all(a is b for a, b in zip(got, want, strict=True))
            walked = walk_nodes(scope)
            assert len(walked) == len(list(ast.walk(scope)))
            assert all(a is b for a, b in zip(walked, ast.walk(scope), strict=True))
            checked += 1
    assert checked > 500


def test_own_nodes_is_cached_per_node_and_a_new_tree_is_walked_afresh() -> None:
    fn = ast.parse("def f(x):\n    return x + 1\n").body[0]
    first = own_nodes(fn)
    assert own_nodes(fn) is first
    changed = ast.parse("def f(x):\n    y = x * 2\n    return f'{y}'\n").body[0]
    fresh = own_nodes(changed)
    assert fresh is not first
    assert any(isinstance(n, ast.JoinedStr) for n in fresh)
    assert not any(isinstance(n, ast.JoinedStr) for n in first)


def test_line_pretest_finds_what_the_pattern_matches_and_nothing_outside_the_node() -> None:
    src = _module(SOURCE)
    assert src.tree is not None
    builds = re.compile(r"""\+(?!=)|[fF][rR]?['"]""")
    defs = {n.name: n for n in ast.walk(src.tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    assert src.may_contain(builds, defs["uri"]) and src.may_contain(builds, defs["joined"])
    assert not src.may_contain(builds, defs["size"]) and not src.may_contain(builds, defs["Quiet"])
    # ``plain`` holds ``+=`` and a ``+`` inside its lambda: the pre-test is a superset of the walk.
    assert src.may_contain(builds, defs["plain"])
    other = re.compile(r"never_written_here")
    assert not any(src.may_contain(other, node) for node in defs.values())


def test_a_lone_carriage_return_disables_the_pretest() -> None:
    # The parser ends a line at a lone ``\r``; ``lines`` do not, so line numbers drift.
    text = "X = 1\r\ndef a():\r    return 1\ndef b(p):\n    return '/x/' + p\n"
    src = _module(text)
    assert src.tree is not None
    b = next(n for n in src.tree.body if isinstance(n, ast.FunctionDef) and n.name == "b")
    assert src.may_contain(re.compile(r"\+"), b)
    assert src.may_contain(re.compile(r"nothing"), b)


def _project(tmp_path: Path, text: str) -> tuple[Engine, Project]:
    write(tmp_path, "pkg/__init__.py", "")
    (tmp_path / "pkg" / "mod.py").write_text(text, encoding="utf-8")
    engine = Engine.open(tmp_path)
    return engine, Project(engine)


def _all_prefixes(project: Project) -> dict[str, dict[str, str]]:
    src = project.module("pkg.mod")
    assert src is not None and src.tree is not None
    resolver = Resolver(project)
    got: dict[str, dict[str, str]] = {}
    for node in src.tree.body:
        if isinstance(node, ast.FunctionDef):
            got[node.name] = function_prefixes(Def("function", f"pkg.mod.{node.name}", src, node), resolver)
        elif isinstance(node, ast.ClassDef):
            got[node.name] = field_prefixes(Def("class", f"pkg.mod.{node.name}", src, node), resolver)
    return got


def test_prefixes_with_the_pretest_match_a_full_walk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    engine, project = _project(tmp_path, SOURCE)
    try:
        got = _all_prefixes(project)
        assert got == {"uri": {"path": "res://"}, "joined": {"name": "/api/"}, "plain": {},
                       "Ref": {"package": "res://", "path": "res://"}, "Guarded": {}, "Quiet": {}}
        # Every node walked, as before the pre-test existed: the same answers.
        monkeypatch.setattr(ModuleSource, "may_contain", lambda self, pattern, node: True)
        assert _all_prefixes(Project(engine)) == got
    finally:
        engine.close()


def test_project_parse_leaves_the_collector_as_it_found_it(tmp_path: Path) -> None:
    engine, project = _project(tmp_path, SOURCE)
    try:
        assert gc.isenabled()
        assert project.module("pkg.mod") is not None
        assert gc.isenabled()
        gc.disable()
        try:
            assert Project(engine).module("pkg.mod") is not None
            assert not gc.isenabled()
        finally:
            gc.enable()
    finally:
        engine.close()
