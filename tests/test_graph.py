"""The symbol graph on small real files: which edges exist, and how sure they are."""

from __future__ import annotations

from pathlib import Path

import pytest

from caas_tui.config import load_config
from caas_tui.errors import IndexStoreError
from caas_tui.graph import (
    GRAPH_FILE,
    SymbolGraph,
    build_graph,
    extract_fragment,
    load_fragments,
    save_fragments,
)
from caas_tui.graph.model import Fragment
from caas_tui.ingest import chunk_file
from caas_tui.models import SourceFile
from caas_tui.sources import Skipped, discover, load

from .conftest import write

FILES = {
    "pkg/__init__.py": "from .scene import Scene\n",
    "pkg/state.py": '''
        class StateManager:
            """Queues removals until :meth:`flush`; see `Scene.step`."""

            def flush(self) -> None:
                pass

            def frobnicate(self) -> None:
                pass
        ''',
    "pkg/base.py": '''
        class Base:
            def update(self, dt: float) -> None:
                pass

            def helper(self) -> None:
                pass


        class Plugin:
            def on_tick(self) -> None:
                pass
        ''',
    "pkg/scene.py": '''
        from __future__ import annotations

        from . import base as b
        from .state import StateManager


        class Scene(b.Base):
            def __init__(self) -> None:
                self.state: StateManager = StateManager()

            def step(self) -> None:
                self.update(0.1)
                self.state.flush()

            def update(self, dt: float) -> None:
                self.helper()
        ''',
    "pkg/sched.py": "def run() -> None:\n    pass\n",
    "pkg/config.py": "MAX_ITEMS = 10\n",
    "pkg/limits.py": '''
        from pkg.config import MAX_ITEMS
        from pkg.state import StateManager


        def check(x: object, limit: int = MAX_ITEMS) -> bool:
            return isinstance(x, StateManager)
        ''',
    "pkg/app.py": '''
        import pkg.sched as s
        from pkg.base import Plugin
        from pkg.state import StateManager


        class App:
            def __init__(self, state: StateManager) -> None:
                self.state = state
                self.other = StateManager()

            def go(self, things: dict) -> None:
                s.run()
                self.state.flush()
                self.other.flush()
                things.get("x")
                mystery().frobnicate()

            def update(self) -> None:
                pass


        class TickPlugin(Plugin):
            def on_tick(self) -> None:
                pass
        ''',
    "pkg/sub/deep.py": '''
        from ..sched import run as go_now


        def kick() -> None:
            go_now()
        ''',
    "tests/test_scene.py": '''
        import pytest

        from pkg.scene import Scene
        from pkg.state import StateManager


        @pytest.fixture
        def scene() -> Scene:
            return Scene()


        def test_step(scene):
            scene.step()


        def test_isinstance():
            assert isinstance(Scene().state, StateManager)
        ''',
    "docs/guide.md": """
        # Guide

        ## Stepping

        Call `Scene.step` each frame; it ends with :meth:`pkg.state.StateManager.flush`.
        Plain words like flush or update are never names, and `update` is ambiguous.

        ```python
        scene = Scene()
        scene.step()
        ```
        """,
    "docs/physics.rst": """
        Physics
        =======

        The scheduler runs :func:`pkg.sched.run` once per frame and calls ``on_tick`` on plugins,
        at most ``MAX_ITEMS`` at a time.
        """,
    "pkg/helios_glue.py": '''
        import helios


        def start() -> None:
            helios.World().begin_frame()
        ''',
    "upstream/helios.md": """
        # World

        `World.begin_frame` must be called once per frame, before any `flush`.
        """,
}


def fragments_of(root: Path) -> dict[str, Fragment]:
    cfg = load_config(root)
    out: dict[str, Fragment] = {}
    for entry in discover(cfg).entries:
        src = load(cfg, entry)
        assert isinstance(src, SourceFile), src
        out[src.path] = extract_fragment(src, chunk_file(src))
    return out


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> SymbolGraph:
    root = tmp_path_factory.mktemp("graphproj")
    for rel, text in FILES.items():
        write(root, rel, text)
    return build_graph(fragments_of(root))


def edge(graph: SymbolGraph, src: str, kind: str, dst: str) -> float | None:
    """The confidence of the edge, or None if there is none."""
    for e in graph.out_edges(src):
        if e.kind == kind and e.dst == dst:
            return e.confidence
    return None


def test_method_call_through_self(graph: SymbolGraph) -> None:
    assert edge(graph, "pkg.scene.Scene.step", "calls", "pkg.scene.Scene.update") == pytest.approx(0.95)
    # inherited, resolved through the base class in another file
    assert edge(graph, "pkg.scene.Scene.update", "calls", "pkg.base.Base.helper") == pytest.approx(0.95)


def test_annotated_and_assigned_attributes(graph: SymbolGraph) -> None:
    # self.state: StateManager = ... then self.state.flush()
    assert edge(graph, "pkg.scene.Scene.step", "calls", "pkg.state.StateManager.flush") >= 0.8
    # self.state = state where the parameter is annotated, and self.other = StateManager()
    assert edge(graph, "pkg.app.App.go", "calls", "pkg.state.StateManager.flush") >= 0.75
    assert edge(graph, "pkg.scene.Scene.__init__", "calls", "pkg.state.StateManager") == 1.0


def test_import_alias_and_relative_imports(graph: SymbolGraph) -> None:
    assert edge(graph, "pkg.app.App.go", "calls", "pkg.sched.run") == 1.0
    assert edge(graph, "pkg.app", "imports", "pkg.sched") == 1.0
    assert edge(graph, "pkg.scene", "imports", "pkg.state") == 1.0  # from .state import ...
    assert edge(graph, "pkg.scene", "imports", "pkg.base") == 1.0  # from . import base as b
    assert edge(graph, "pkg", "imports", "pkg.scene") == 1.0  # __init__: relative to the package itself
    assert edge(graph, "pkg.sub.deep.kick", "calls", "pkg.sched.run") == 1.0  # from ..sched import run as go_now
    assert edge(graph, "pkg.sub.deep", "imports", "pkg.sched") == 1.0


def test_constants_and_class_reads_are_uses(graph: SymbolGraph) -> None:
    node = graph.nodes["pkg.config.MAX_ITEMS"]
    assert (node.kind, node.start_line, node.end_line) == ("variable", 1, 1)
    assert edge(graph, "pkg.limits.check", "uses", "pkg.config.MAX_ITEMS") == 1.0  # a default value
    assert edge(graph, "pkg.limits.check", "uses", "pkg.state.StateManager") == 1.0  # isinstance, not a call
    assert edge(graph, "pkg.limits.check", "calls", "pkg.state.StateManager") is None
    assert edge(graph, "docs/physics.rst#Physics", "documents", "pkg.config.MAX_ITEMS") is not None
    assert "used_by" in {n.name for n in graph.neighbours("pkg.config.MAX_ITEMS")}


def test_inheritance_and_override_across_files(graph: SymbolGraph) -> None:
    assert edge(graph, "pkg.scene.Scene", "inherits", "pkg.base.Base") == 1.0  # through ``b.Base``
    assert edge(graph, "pkg.scene.Scene.update", "overrides", "pkg.base.Base.update") == 1.0
    assert edge(graph, "pkg.scene.Scene.step", "overrides", "pkg.base.Base.update") is None


def test_tests_reference_symbols(graph: SymbolGraph) -> None:
    # a fixture parameter holds what the fixture returns
    assert edge(graph, "tests.test_scene.test_step", "tests", "pkg.scene.Scene.step") >= 0.7
    # constructing and naming count too (isinstance(..., StateManager) is not a call)
    assert edge(graph, "tests.test_scene.test_isinstance", "tests", "pkg.scene.Scene") == 1.0
    assert edge(graph, "tests.test_scene.test_isinstance", "tests", "pkg.state.StateManager") is not None
    # tests never make ``calls`` edges into the code they test
    assert all(e.kind != "calls" or e.dst.startswith("tests.") for e in graph.out_edges("tests.test_scene.test_step"))


def test_docs_and_docstrings_mention_symbols(graph: SymbolGraph) -> None:
    section = "docs/guide.md#Guide > Stepping"
    assert edge(graph, section, "documents", "pkg.scene.Scene.step") >= 0.8
    assert edge(graph, section, "documents", "pkg.state.StateManager.flush") == 1.0
    assert edge(graph, "docs/physics.rst#Physics", "documents", "pkg.sched.run") == 1.0
    # ``update`` means Base.update/Scene.update or App.update: ambiguous, no edge; prose words never make one
    assert not [e for e in graph.out_edges(section) if e.dst.endswith(".update")]
    # ``on_tick`` is defined twice, but one overrides the other: the name means the base's contract
    assert edge(graph, "docs/physics.rst#Physics", "documents", "pkg.base.Plugin.on_tick") == pytest.approx(0.63)
    assert edge(graph, "docs/physics.rst#Physics", "documents", "pkg.app.TickPlugin.on_tick") is None
    docstring = "pkg/state.py#pkg.state.StateManager"
    assert graph.nodes[docstring].kind == "api"
    assert edge(graph, docstring, "documents", "pkg.state.StateManager") == 1.0  # its own definition
    assert edge(graph, docstring, "documents", "pkg.state.StateManager.flush") == 0.95  # relative :meth:`flush`
    assert edge(graph, docstring, "documents", "pkg.scene.Scene.step") is not None


def test_upstream_pages_link_to_code_using_their_names(graph: SymbolGraph) -> None:
    assert edge(graph, "upstream/helios.md#World", "mentions_upstream", "pkg.helios_glue.start") >= 0.9
    # a platform name the project itself defines (an unambiguous ``flush``) links less surely
    flush = edge(graph, "upstream/helios.md#World", "mentions_upstream", "pkg.state.StateManager.flush")
    assert flush is not None and flush < 0.8
    # upstream pages never make ``documents`` edges: they document the platform, not the project
    assert all(e.kind == "mentions_upstream" for e in graph.out_edges("upstream/helios.md#World"))


def test_name_guesses_are_low_confidence_and_skip_builtin_methods(graph: SymbolGraph) -> None:
    assert edge(graph, "pkg.app.App.go", "calls", "pkg.state.StateManager.frobnicate") == pytest.approx(0.3)
    assert not [e for e in graph.out_edges("pkg.app.App.go") if e.dst.endswith(".get")]


def test_nodes_and_lookup(graph: SymbolGraph) -> None:
    node = graph.nodes["pkg.scene.Scene.step"]
    assert (node.kind, node.path, node.file_kind) == ("method", "pkg/scene.py", "code")
    assert node.start_line < node.end_line
    assert [n.id for n in graph.find("Scene.step")] == ["pkg.scene.Scene.step"]
    assert graph.find("pkg.scene.Scene")[0].kind == "class"
    assert graph.find("nope") == []
    assert graph.node_at("pkg/scene.py", node.start_line + 1).id == "pkg.scene.Scene.step"
    names = {n.name for n in graph.neighbours("pkg.state.StateManager.flush")}
    assert {"called_by", "documents", "tests"} <= names or {"called_by", "documents"} <= names


def test_syntax_error_file_still_a_module(tmp_path: Path) -> None:
    write(tmp_path, "pkg/broken.py", "def oops(:\n")
    write(tmp_path, "pkg/user.py", "import pkg.broken\n")
    graph = build_graph(fragments_of(tmp_path))
    assert graph.nodes["pkg.broken"].kind == "module"
    assert edge(graph, "pkg.user", "imports", "pkg.broken") == 1.0


def test_fragments_roundtrip_and_schema(tmp_path: Path, graph: SymbolGraph) -> None:
    root = tmp_path / "p"
    for rel, text in FILES.items():
        write(root, rel, text)
    frags = fragments_of(root)
    save_fragments(tmp_path / "idx", frags)
    loaded = load_fragments(tmp_path / "idx")
    assert loaded == frags
    assert build_graph(loaded).edges == graph.edges
    (tmp_path / "idx" / GRAPH_FILE).write_text('{"schema": 999, "files": 0}\n')
    with pytest.raises(IndexStoreError, match="schema"):
        load_fragments(tmp_path / "idx")
    (tmp_path / "idx" / GRAPH_FILE).write_text("{not json")
    with pytest.raises(IndexStoreError):
        load_fragments(tmp_path / "idx")
    with pytest.raises(IndexStoreError):
        load_fragments(tmp_path / "missing")
    assert not isinstance(frags, Skipped)


def test_star_reexport_resolves_to_the_definition(tmp_path: Path) -> None:
    """``from .core import *`` in a package ``__init__``: ``pkg.Widget`` is ``pkg.core.Widget``."""
    write(tmp_path, "pkg/__init__.py", "from .core import *\n")
    write(tmp_path, "pkg/core.py", """
        class Widget:
            def draw(self) -> None:
                pass
        """)
    write(tmp_path, "app.py", """
        import pkg

        def run() -> None:
            pkg.Widget().draw()
        """)
    g = build_graph(fragments_of(tmp_path))
    assert edge(g, "app.run", "calls", "pkg.core.Widget") is not None
    assert edge(g, "app.run", "calls", "pkg.core.Widget.draw") is not None
