"""The static reviewer on small real projects (real Engine, real index; no fakes)."""

from __future__ import annotations

import hashlib

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer

from .conftest import write

PACKAGE = {
    "pkg/__init__.py": '''
        """A tiny scene library."""
        from pkg.scene import Scene
        ''',
    "pkg/consts.py": '''
        DEFAULT_TOLERANCE = 1e-4
        SCHEME = "res://"
        ''',
    "pkg/errors.py": '''
        class SceneError(Exception):
            """Something is wrong with a scene."""


        class MissingError(KeyError):
            """A lookup found nothing."""
        ''',
    "pkg/base.py": '''
        class Node:
            def find_by_tag(self, tag: str) -> list["Node"]:
                return []
        ''',
    "pkg/scene.py": '''
        from pkg.base import Node
        from pkg.consts import DEFAULT_TOLERANCE, SCHEME
        from pkg.errors import MissingError, SceneError


        class Entity:
            def name(self) -> str:
                return "x"


        class Scene(Node):
            def spawn(self, name: str, *, tolerance: float = DEFAULT_TOLERANCE) -> Entity:
                """Spawn an entity.

                Args:
                    nme: The entity name.
                    tolerance: Max distance. Defaults to 1e-3.

                Raises:
                    KeyError: if the name is taken.
                """
                if not name:
                    raise SceneError("empty name")
                return Entity()

            def connect(self, a: Entity, b: Entity, strength: float = 1.0) -> None:
                """Connect two entities.

                :param a: first entity.
                :param strength: how strong, defaults to ``1.0``.
                :raises SceneError: if they are the same.
                """
                if a is b:
                    raise SceneError("same")

            def entities(self) -> tuple[Entity, ...]:
                return ()

            def lookup(self, key: str) -> Entity:
                raise MissingError(key)


        def uri_for(path: str) -> str:
            return SCHEME + path
        ''',
    "pkg/plugin.py": '''
        """Plugins. An example from elsewhere: ``Scene.find_entity_by_tag`` is not ours to judge here."""
        from somewhere_external import Base


        class Plugin(Base):
            def run(self) -> None:
                pass


        def notify(progress) -> None:
            """Call ``progress(done, total, message)`` as work finishes."""
        ''',
    "pkg/props.py": '''
        from typing import Protocol


        class Renderable(Protocol):
            def render(self) -> str: ...


        class Label:
            def render(self) -> str:
                return "x"


        class Panel:
            def __init__(self, padding: int | None = None, tab_size: int | None = None, style: str | None = None) -> None:
                """Make a panel.

                Args:
                    padding: Space around. Defaults to 2.
                    tab_size: Tab width. Defaults to 8.
                    style: The style. Defaults to "bold".
                    int (size): Written the other way round.
                """
                if tab_size is None:
                    tab_size = 4
                self.tab_size = tab_size
                self.padding = padding
                self.style = style or "plain"

            @property
            def width(self) -> int:
                """The width."""
                return 1

            @width.setter
            def width(self, width: int) -> None:
                """Set the width.

                Args:
                    width: New width.
                """

            def label(self) -> Label:
                """Make a label.

                Returns:
                    Renderable: something to render.
                """
                return Label()
        ''',
    "pkg/helpers.py": '''
        """Helpers. ``Scene.find_entity_by_tag`` is wrong, and so is :meth:`pkg.scene.Scene.nope`."""
        from pkg.scene import Scene


        def pair(scene: Scene) -> tuple[list[str], set[str]]:
            """Return both. Returns the list and the set of ids; returns a list or None never."""
            return [], set()
        ''',
}

DOCS = {
    "docs/missing.md": """
        # Lookups

        Use `Scene.find_entity_by_tag` to look entities up.
        `Scene.find_by_tag` returns a list and is inherited from the base class.
        """,
    "docs/defaults.md": """
        `Scene.spawn` takes `tolerance`, which defaults to 1e-3.
        The `strength` of `Scene.connect` defaults to 1.0.
        `Scene.connect` uses `strength=2.0` by default.
        """,
    "docs/returns.md": """
        `Scene.entities` returns a list of entities.
        `Scene.entities` returns a tuple of entities.
        """,
    "docs/calls.md": """
        Wrong keyword:

        ```python
        from pkg.scene import Scene
        scene = Scene()
        scene.spawn("a", tolerence=1e-3)
        ```

        Too many arguments:

        ```python
        a = scene.spawn("a")
        scene.connect(a, a, 1.0, 2.0)
        ```

        Missing one:

        ```python
        scene.connect(a)
        ```

        Fine:

        ```python
        b = scene.spawn("b", tolerance=0.5)
        scene.connect(a, b, strength=2.0)
        b.name()
        ```

        A method the object does not have:

        ```python
        b.nam()
        ```
        """,
    "docs/external.md": """
        Join paths with `os.path.join` and dump with `json.dumps(data)`.
        This library is fast, friendly and well tested.
        `Plugin.anything_at_all` comes from the external base class.

        ```python
        import json
        json.dumps({"a": 1})
        ```
        """,
    "docs/history.md": """
        # Upgrading

        `Scene.old_spawn` was removed in 2.0; use `Scene.spawn`.

        Before:

        ```python
        Scene().old_spawn("a")
        ```

        ```javascript
        Scene().nope({a: 1})
        ```
        """,
    "CHANGELOG.md": """
        # 2.0

        - Dropped `Scene.gone`.
        """,
    "docs/loose.md": """
        `Scene.connect(a, ...)` links things; see `Scene.spawn(name, ...)` too.
        Pass `strength=None` to `Scene.connect` for a loose link.
        `pkg.helpers.pair` returns the list and the set of ids.
        """,
    "docs/uris.md": """
        URIs look like `res://res://mesh/a`.

        ```python
        from pkg.scene import uri_for
        uri_for("res://mesh/a")
        ```
        """,
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("static") / "proj"
    for rel, text in {**PACKAGE, **DOCS}.items():
        write(root, rel, text)
    eng = Engine.open(root)
    yield eng
    eng.close()


def reviewed(engine: Engine, doc: str) -> list[tuple[Claim, Verdict]]:
    return review_doc(engine, doc, StaticReviewer()).pairs()


def by_text(pairs: list[tuple[Claim, Verdict]], start: str) -> tuple[Claim, Verdict]:
    hits = [(c, v) for c, v in pairs if c.text.startswith(start)]
    assert len(hits) == 1, [c.text for c, _ in pairs]
    return hits[0]


def test_nonexistent_method_is_contradicted_with_suggestion_fix_and_evidence(engine: Engine) -> None:
    pairs = reviewed(engine, "docs/missing.md")
    claim, v = by_text(pairs, "Use `Scene.find_entity_by_tag`")
    assert v.verdict == "contradicted" and v.reviewer == "static"
    assert v.rationale == "`Scene.find_entity_by_tag` does not exist; did you mean `find_by_tag`?"
    assert v.fix is not None and (v.fix.start_line, v.fix.end_line) == (claim.start_line, claim.end_line) == (3, 3)
    assert v.fix.replacement == "Use `Scene.find_by_tag` to look entities up."
    ev = v.evidence[0]
    assert (ev.path, ev.symbol) == ("pkg/scene.py", "pkg.scene.Scene")
    lines = (engine.root / ev.path).read_text().split("\n")[ev.start_line - 1 : ev.end_line]
    assert ev.sha256 == hashlib.sha256("\n".join(lines).encode()).hexdigest()
    assert v.doc_sha256 == hashlib.sha256(b"Use `Scene.find_entity_by_tag` to look entities up.").hexdigest()


def test_inherited_method_across_files_is_consistent(engine: Engine) -> None:
    _, v = by_text(reviewed(engine, "docs/missing.md"), "`Scene.find_by_tag` returns a list")
    assert v.verdict == "consistent", v.rationale
    assert any(e.path == "pkg/base.py" and e.symbol == "pkg.base.Node.find_by_tag" for e in v.evidence)
    assert "`Scene.find_by_tag` exists" in v.checks and "`Node.find_by_tag` returns list" in v.checks


def test_defaults_via_constant_in_another_module_and_literal(engine: Engine) -> None:
    pairs = reviewed(engine, "docs/defaults.md")
    _, v = by_text(pairs, "`Scene.spawn` takes")
    assert v.verdict == "contradicted"
    assert "defaults `tolerance` to 1e-4" in v.rationale and "pkg.consts.DEFAULT_TOLERANCE" in v.rationale
    assert {e.path for e in v.evidence} >= {"pkg/scene.py", "pkg/consts.py"}
    assert v.fix is not None and v.fix.replacement == "`Scene.spawn` takes `tolerance`, which defaults to 1e-4."
    _, ok = by_text(pairs, "The `strength`")
    assert ok.verdict == "consistent" and "default of `strength` in `Scene.connect` is 1.0" in ok.checks
    _, kw = by_text(pairs, "`Scene.connect` uses")
    assert kw.verdict == "contradicted" and "defaults `strength` to 1.0, not 2.0" in kw.rationale


def test_wrong_return_type(engine: Engine) -> None:
    pairs = reviewed(engine, "docs/returns.md")
    _, bad = by_text(pairs, "`Scene.entities` returns a list")
    assert bad.verdict == "contradicted" and bad.rationale == "`Scene.entities` returns tuple, not list"
    assert bad.fix is not None and bad.fix.replacement == "`Scene.entities` returns a tuple of entities."
    _, good = by_text(pairs, "`Scene.entities` returns a tuple")
    assert good.verdict == "consistent"


def test_code_blocks_param_names_arity_and_missing_required(engine: Engine) -> None:
    pairs = reviewed(engine, "docs/calls.md")
    codes = [(c, v) for c, v in pairs if c.kind == "code"]
    assert len(codes) == 5
    (c1, wrong_kw), (_, arity), (_, missing), (_, fine), (c5, no_method) = codes
    assert wrong_kw.verdict == "contradicted"
    assert wrong_kw.rationale == "`Scene.spawn` has no parameter `tolerence`; did you mean `tolerance`?"
    assert wrong_kw.fix is not None and wrong_kw.fix.start_line == c1.start_line + 2
    assert wrong_kw.fix.replacement == 'scene.spawn("a", tolerance=1e-3)'
    # the block continues the earlier one: ``scene`` is still a Scene
    assert arity.verdict == "contradicted" and "takes at most 3 positional arguments (4 given)" in arity.rationale
    assert missing.verdict == "incomplete" and "omits required parameter `b`" in missing.rationale
    # Names, parameters and arity held; what the block does when run is not a static fact.
    assert fine.verdict == "unverified", fine.rationale
    assert fine.rationale.startswith("names, parameter names and arity checked; what the code does when run was not")
    assert no_method.verdict == "contradicted" and "`Entity.nam` does not exist" in no_method.rationale
    assert no_method.fix is not None and no_method.fix.start_line == c5.start_line
    assert no_method.fix.replacement == "b.name()"


def test_docstring_fields_param_name_default_and_raises(engine: Engine) -> None:
    pairs = reviewed(engine, "pkg/scene.py")
    _, nme = by_text(pairs, "Args: nme:")
    assert nme.verdict == "contradicted" and "`Scene.spawn` has no parameter `nme`; did you mean `name`?" in nme.rationale
    assert nme.fix is not None and nme.fix.replacement == "            name: The entity name."
    _, tol = by_text(pairs, "Args: tolerance:")
    assert tol.verdict == "contradicted" and "1e-4" in tol.rationale
    _, key = by_text(pairs, "Raises: KeyError:")
    assert key.verdict == "contradicted" and "never raises `KeyError`" in key.rationale and "`SceneError`" in key.rationale
    _, strength = by_text(pairs, ":param strength:")
    assert strength.verdict == "consistent"
    _, raises_ok = by_text(pairs, ":raises SceneError:")
    assert raises_ok.verdict == "consistent"


def test_external_names_and_plain_prose_are_not_flagged(engine: Engine) -> None:
    pairs = reviewed(engine, "docs/external.md")
    assert [v.verdict for _, v in pairs] == ["unverified"] * 4
    assert all(v.rationale == "no checkable API facts" for _, v in pairs)


def test_string_prefix_the_code_already_adds(engine: Engine) -> None:
    pairs = reviewed(engine, "docs/uris.md")
    _, doubled = by_text(pairs, "URIs look like")
    assert doubled.verdict == "contradicted" and "'res://res://' repeats the prefix" in doubled.rationale
    assert doubled.fix is not None and doubled.fix.replacement == "URIs look like `res://mesh/a`."
    claim, passed = next((c, v) for c, v in pairs if c.kind == "code")
    assert passed.verdict == "contradicted" and "`uri_for` already puts 'res://' in front of `path`" in passed.rationale
    assert passed.fix is not None and passed.fix.replacement == 'uri_for("mesh/a")'
    assert passed.fix.start_line == claim.start_line + 1


def test_docstrings_resolve_names_in_their_module_scope(engine: Engine) -> None:
    plugin = reviewed(engine, "pkg/plugin.py")
    assert all(v.verdict == "unverified" for _, v in plugin), [(c.text, v.rationale) for c, v in plugin]
    helpers = reviewed(engine, "pkg/helpers.py")
    _, v = by_text(helpers, "``Scene.find_entity_by_tag`` is wrong")
    assert v.verdict == "contradicted"
    assert "`Scene.find_entity_by_tag` does not exist" in v.rationale
    assert "`pkg.scene.Scene.nope` does not exist" in v.rationale
    _, both = by_text(helpers, "Returns the list and the set")
    assert both.verdict == "unverified"


def test_placeholders_examples_and_plain_values_are_not_judged(engine: Engine) -> None:
    pairs = reviewed(engine, "docs/loose.md")
    # the third claims a return ("the list and the set") no check covers: unverified, not consistent;
    # the first says what `Scene.connect` does ("links things"), which no check reads: unverified too
    assert [v.verdict for _, v in pairs] == ["unverified", "consistent", "unverified"], [v.rationale for _, v in pairs]
    assert "what `Scene.connect` does (“links things”) was not" in pairs[0][1].rationale, pairs[0][1].rationale
    (_, first), (_, second), (_, third) = pairs
    assert not any("positional" in check for check in first.checks)  # ``...`` means "and more"
    assert not any("default" in check for check in second.checks)  # an example value, not a default
    assert third.checks == ("`pkg.helpers.pair` exists",)  # "the list and the set": no type claim


def test_none_defaults_setters_protocols_and_swapped_fields(engine: Engine) -> None:
    pairs = reviewed(engine, "pkg/props.py")
    _, padding = by_text(pairs, "Args: padding:")
    # the parameter exists; its stated default (2) can't be judged, so not consistent:
    assert padding.verdict == "unverified" and "the default was not" in padding.rationale
    assert not any("default" in c for c in padding.checks)  # stored on self, substituted where used
    _, tab = by_text(pairs, "Args: tab_size:")
    assert tab.verdict == "contradicted" and "defaults `tab_size` to 4, not 8" in tab.rationale
    _, style = by_text(pairs, "Args: style:")
    assert style.verdict == "contradicted" and "to \"plain\", not \"bold\"" in style.rationale
    _, swapped = by_text(pairs, "Args: int (size):")
    assert swapped.verdict == "unverified"
    _, setter = by_text(pairs, "Args: width:")
    assert setter.verdict == "consistent"  # the setter's own parameter, not the getter's
    _, protocol = by_text(pairs, "Returns: Renderable:")
    assert protocol.verdict != "contradicted"


def test_history_migration_and_foreign_code_are_left_alone(engine: Engine) -> None:
    for doc in ("docs/history.md", "CHANGELOG.md"):
        pairs = reviewed(engine, doc)
        assert pairs and all(v.verdict == "unverified" for _, v in pairs), [(c.text, v.rationale) for c, v in pairs]
