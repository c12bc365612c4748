"""ingest/python.py: exact spans, symbols, signatures, api chunks and stable ids."""

from __future__ import annotations

import hashlib

import pytest

from caas_tui.ingest import chunk_file, chunk_id, module_name
from caas_tui.models import Chunk, SourceFile

TRICKY = '''\
#!/usr/bin/env python
"""Entities and their world.

Second paragraph.
"""
from __future__ import annotations

import os

LIMIT = 10


@register
@cached(size=3)
def spawn(world, name: str, *components: Component, tag: str = "x") -> Entity:
    """Make an entity."""

    def helper(x):
        return x

    return helper(name)


class World(Base, Mixin, metaclass=Meta):
    """A world.

    Holds entities.
    """

    gravity: float = 9.8

    @property
    def size(self) -> int:
        return 0

    @size.setter
    def size(self, value: int) -> None:
        pass

    class Config:
        debug = False

        def dump(self):
            return {}

    async def tick(self, dt: float = 0.016) -> None:
        """Advance time."""
        await self.step(dt)

    tail = "after methods"


if os.name == "nt":

    def path_sep() -> str:
        return "\\\\"
'''


def _src(text: str, path: str = "src/game/world.py", kind: str = "code") -> SourceFile:
    return SourceFile(path=path, kind=kind, language="python", text=text, mtime=12.5, sha256="f" * 64, size=len(text))


def _find(chunks: list[Chunk], kind: str, symbol: str | None) -> list[Chunk]:
    return [c for c in chunks if c.kind == kind and c.symbol == symbol]


def _one(chunks: list[Chunk], kind: str, symbol: str | None) -> Chunk:
    found = _find(chunks, kind, symbol)
    assert len(found) == 1, (kind, symbol, [(c.kind, c.symbol, c.start_line) for c in chunks])
    return found[0]


@pytest.fixture()
def tricky() -> list[Chunk]:
    return chunk_file(_src(TRICKY))


def _lines(text: str, start: int, end: int) -> str:
    return "\n".join(text.split("\n")[start - 1 : end])


def test_code_chunk_text_is_exactly_its_source_lines(tricky: list[Chunk]) -> None:
    for c in tricky:
        if c.kind == "code":
            assert c.text == _lines(TRICKY, c.start_line, c.end_line), c.symbol
        assert c.sha256 == hashlib.sha256(c.text.encode()).hexdigest()
        assert (c.path, c.mtime, c.file_sha256, c.language) == ("src/game/world.py", 12.5, "f" * 64, "python")


def test_module_preamble_and_module_docstring(tricky: list[Chunk]) -> None:
    pre = _find(tricky, "code", "game.world")[0]
    assert (pre.start_line, pre.end_line) == (1, 10)  # shebang .. LIMIT, blank lines trimmed
    doc = _one(tricky, "api", "game.world")
    assert (doc.start_line, doc.end_line) == (2, 5)
    assert doc.text == "Entities and their world.\n\nSecond paragraph."


def test_decorated_function_span_starts_at_decorator_and_keeps_nested_def(tricky: list[Chunk]) -> None:
    fn = _one(tricky, "code", "game.world.spawn")
    assert (fn.start_line, fn.end_line) == (13, 21)
    assert fn.text.startswith("@register\n@cached(size=3)\ndef spawn(")
    assert "def helper(x):" in fn.text
    assert fn.signature == "def spawn(world, name: str, *components: Component, tag: str = 'x') -> Entity"
    assert fn.parent is None
    assert not _find(tricky, "code", "game.world.spawn.helper")  # nested defs stay inside
    api = _one(tricky, "api", "game.world.spawn")
    assert (api.start_line, api.end_line) == (16, 16)
    assert api.text == f"{fn.signature}\nMake an entity."


def test_class_header_spans_up_to_first_method(tricky: list[Chunk]) -> None:
    header = _find(tricky, "code", "game.world.World")[0]
    assert (header.start_line, header.end_line) == (24, 30)
    assert header.signature == "class World(Base, Mixin, metaclass=Meta)"
    assert header.text.endswith("gravity: float = 9.8")
    api = _one(tricky, "api", "game.world.World")
    assert (api.start_line, api.end_line) == (25, 28)
    assert api.text == "class World(Base, Mixin, metaclass=Meta)\nA world.\n\nHolds entities."


def test_properties_methods_nested_and_async(tricky: list[Chunk]) -> None:
    getter, setter = _find(tricky, "code", "game.world.World.size")
    assert (getter.start_line, getter.end_line) == (32, 34)
    assert (setter.start_line, setter.end_line) == (36, 38)
    assert getter.text.startswith("    @property\n")
    assert setter.signature == "def size(self, value: int) -> None"
    assert getter.parent == setter.parent == "game.world.World"
    assert getter.id != setter.id

    inner = _one(tricky, "code", "game.world.World.Config")
    assert (inner.start_line, inner.end_line, inner.parent) == (40, 41, "game.world.World")
    dump = _one(tricky, "code", "game.world.World.Config.dump")
    assert (dump.start_line, dump.end_line, dump.parent) == (43, 44, "game.world.World.Config")

    tick = _one(tricky, "code", "game.world.World.tick")
    assert (tick.start_line, tick.end_line) == (46, 48)
    assert tick.signature == "async def tick(self, dt: float = 0.016) -> None"
    assert (_one(tricky, "api", "game.world.World.tick").start_line, tick.parent) == (47, "game.world.World")


def test_statements_after_methods_and_defs_under_if(tricky: list[Chunk]) -> None:
    tail = _find(tricky, "code", "game.world.World")[1]
    assert (tail.start_line, tail.end_line, tail.text) == (50, 50, '    tail = "after methods"')
    sep = _one(tricky, "code", "game.world.path_sep")
    assert (sep.start_line, sep.end_line, sep.parent) == (55, 56, None)
    guard = _find(tricky, "code", "game.world")[-1]
    assert (guard.start_line, guard.end_line) == (53, 53)


def test_chunks_are_in_line_order_and_cover_every_code_line(tricky: list[Chunk]) -> None:
    assert [c.start_line for c in tricky] == sorted(c.start_line for c in tricky)
    covered = {ln for c in tricky if c.kind == "code" for ln in range(c.start_line, c.end_line + 1)}
    for ln, line in enumerate(TRICKY.split("\n"), 1):
        if line.strip():
            assert ln in covered, (ln, line)


def test_syntax_error_falls_back_to_overlapping_windows() -> None:
    text = "".join(f"x{i} = {i}\n" for i in range(1, 90)) + "def broken(:\n"
    chunks = chunk_file(_src(text, path="bad.py"))
    assert [(c.start_line, c.end_line) for c in chunks] == [(1, 40), (36, 75), (71, 90)]
    assert all(c.symbol is None and c.kind == "code" for c in chunks)
    assert len({c.id for c in chunks}) == 3


def test_long_function_is_windowed_with_one_symbol() -> None:
    body = "".join(f"    v{i} = {i}\n" for i in range(200))
    chunks = chunk_file(_src(f"def big():\n{body}", path="m.py"))
    windows = [(c.start_line, c.end_line) for c in chunks if c.symbol == "m.big"]
    assert windows == [(1, 100), (91, 190), (181, 201)]
    assert all(c.signature == "def big()" for c in chunks)


def test_ids_are_stable_when_an_unrelated_function_above_is_edited(tricky: list[Chunk]) -> None:
    edited = TRICKY.replace("        return x\n", "        y = x * 2\n        z = y + 1\n        return z\n")
    after = chunk_file(_src(edited))
    before_ids = {(c.kind, c.symbol, c.id) for c in tricky}
    after_ids = {(c.kind, c.symbol, c.id) for c in after}
    assert before_ids == after_ids
    tick_before = _one(tricky, "code", "game.world.World.tick")
    tick_after = _one(after, "code", "game.world.World.tick")
    assert tick_after.start_line == tick_before.start_line + 2 and tick_after.id == tick_before.id
    assert _one(after, "code", "game.world.spawn").sha256 != _one(tricky, "code", "game.world.spawn").sha256


def test_id_formula() -> None:
    expected = hashlib.sha1(b"code\0a.py\0a.f\x000").hexdigest()[:16]
    assert chunk_id("code", "a.py", "a.f", 0) == expected
    assert chunk_id("code", "a.py", None, 1) == hashlib.sha1(b"code\0a.py\0\x001").hexdigest()[:16]


def test_kind_follows_source_and_tests_get_no_api_chunks() -> None:
    text = 'def test_it():\n    """Checks it."""\n    assert True\n'
    chunks = chunk_file(_src(text, path="tests/test_x.py", kind="test"))
    assert [(c.kind, c.symbol) for c in chunks] == [("test", "tests.test_x.test_it")]
    up = chunk_file(_src(text, path="upstream/lib/x.py", kind="upstream"))
    assert {c.kind for c in up} == {"upstream", "api"}


def test_crlf_free_form_feeds_do_not_shift_lines() -> None:
    text = "import os\n\x0c\ndef f():\n    return 1\n"
    (chunk,) = [c for c in chunk_file(_src(text, path="m.py")) if c.symbol == "m.f"]
    assert (chunk.start_line, chunk.end_line) == (3, 4)


def test_empty_and_docstring_only_modules() -> None:
    assert chunk_file(_src("", path="pkg/__init__.py")) == []
    chunks = chunk_file(_src('"""Just docs."""\n', path="pkg/__init__.py"))
    assert [(c.kind, c.symbol, c.start_line) for c in chunks] == [("api", "pkg", 1), ("code", "pkg", 1)]


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("src/pkg/mod.py", "pkg.mod"),
        ("pkg/__init__.py", "pkg"),
        ("tests/test_x.py", "tests.test_x"),
        ("lib/pkg/sub/m.pyi", "pkg.sub.m"),
        ("setup.py", "setup"),
        ("pkg/lib/m.py", "pkg.lib.m"),
    ],
)
def test_module_name(path: str, name: str) -> None:
    assert module_name(path) == name


def test_chunker_and_graph_share_one_parse(monkeypatch) -> None:
    """The chunker and the graph's fact extractor read one syntax tree per file version."""
    import ast as ast_module

    from caas_tui.graph import extract_fragment
    from caas_tui.ingest import chunk_file
    from caas_tui.models import SourceFile

    calls: list[str] = []
    real = ast_module.parse
    monkeypatch.setattr(ast_module, "parse", lambda text, *a, **kw: calls.append(kw.get("filename", "")) or real(text, *a, **kw))
    text = "class Once:\n    def run(self) -> int:\n        return 1\n"
    src = SourceFile("pkg/once_parsed.py", "code", "python", text, 0.0, "sha-once", len(text))
    fragment = extract_fragment(src, chunk_file(src))
    assert [d.qualname for d in fragment.defs if d.kind == "method"] == ["pkg.once_parsed.Once.run"]
    assert calls == ["pkg/once_parsed.py"]
    edited = SourceFile(src.path, "code", "python", text + "\nX = 1\n", 0.0, "sha-two", len(text) + 7)
    chunk_file(edited)
    assert calls == ["pkg/once_parsed.py", "pkg/once_parsed.py"]  # a new version is parsed again
