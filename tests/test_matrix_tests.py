"""Form-coverage matrix: the project's TESTS as evidence for behaviour claims (issue 14).

Every cell is a behaviour claim (raises E / raises nothing / returns None / returns a value /
returns empty / rejects / ignores; "every problem as E"; "the last one wins") about a project
callable whose code the static reviewer cannot read (it dispatches through ``importlib``), so only
the project's tests can settle it. Each cell is a defect (the tests show another outcome on an
input that meets the claim's condition) and a correct twin, across doc forms (prose with inline
code, Google / NumPy / Sphinx fields, reST roles, a Markdown table, FAQ Q/A) and test forms
(``pytest.raises`` with and without ``match=``, unittest ``assertRaises`` (both forms),
``assertIsNone``, ``assertEqual``, fixtures, ``parametrize``, helper-built objects, test classes).
A defect must be flagged (``contradicted`` or ``incomplete``) and cite the test; its twin must not be.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer

from .conftest import write

# Behaviours: name -> (signature after the name, kind "fn" | "method", test code using ``{fn}``).
# For methods ``{fn}`` is the method name, called on a Store the test builds.
BEHAVIOURS: dict[str, tuple[str, str, str]] = {
    "load_ini": ("(path)", "fn", '''
def test_{fn}_missing_file_gives_no_rows(tmp_path):
    assert {fn}(tmp_path / "absent.ini") == []
'''),
    "load_json": ("(path)", "fn", '''
def test_{fn}_missing_file_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        {fn}(tmp_path / "absent.json")
'''),
    "parse": ("(text)", "fn", '''
def test_{fn}_bad_layout_raises_schema_error_not_loom_error():
    with pytest.raises(SchemaError, match="rows"):
        {fn}('{{"rows": 1}}')


def test_{fn}_bad_syntax_raises_parse_error():
    with pytest.raises(ParseError):
        {fn}("{{")
'''),
    "parse_strict": ("(text)", "fn", '''
class Test_{fn}(unittest.TestCase):
    def test_bad_syntax(self):
        with self.assertRaises(ParseError):
            {fn}("{{")

    def test_unknown_name(self):
        self.assertRaises(Missing, {fn}, "{{x}}")
'''),
    "scale": ("(n)", "fn", '''
@pytest.mark.parametrize("n", [-1, -5])
def test_{fn}_negative_clamps_to_zero(n):
    assert {fn}(n) == 0
'''),
    "resize": ("(n)", "fn", '''
def test_{fn}_negative_is_refused():
    with pytest.raises(ValueError, match="negative"):
        {fn}(-1)
'''),
    "find": ("(key)", "method", '''
def test_{fn}_unknown_key_raises_key_error():
    store = make_store()
    with pytest.raises(KeyError):
        store.{fn}("nope")
'''),
    "lookup": ("(key)", "method", '''
def test_{fn}_unknown_key_gives_none(store):
    assert store.{fn}("nope") is None
'''),
    "load_text": ("(text)", "fn", '''
def test_{fn}_duplicate_keys_last_one_wins():
    assert {fn}('{{"a": 1, "a": 2}}') == {{"a": 2}}
'''),
    "load_unique": ("(text)", "fn", '''
def test_{fn}_duplicate_keys_are_rejected():
    with pytest.raises(LoomError):
        {fn}('{{"a": 1, "a": 2}}')
'''),
    "check_name": ("(name)", "fn", '''
class TestCheck_{fn}:
    def test_empty_name_passes_through(self):
        assert {fn}("") == ""
'''),
    "require_name": ("(name)", "fn", '''
class TestRequire_{fn}(unittest.TestCase):
    def test_empty_name(self):
        self.assertRaises(ValueError, {fn}, "")
'''),
    "lenient": ("(text)", "fn", '''
def test_{fn}_malformed_input_raises_parse_error():
    """Malformed input is not ignored: it raises."""
    with pytest.raises(ParseError):
        {fn}("{{")
'''),
    "skim": ("(text)", "fn", '''
def test_{fn}_malformed_input_is_ignored():
    assert {fn}("{{") == {{}}
'''),
    "count_rows": ("(text)", "fn", '''
class TestCount_{fn}(unittest.TestCase):
    def test_empty_text(self):
        self.assertEqual({fn}(""), 0)
'''),
    "first_row": ("(text)", "fn", '''
class TestFirst_{fn}(unittest.TestCase):
    def test_empty_text(self):
        self.assertIsNone({fn}(""))
'''),
}
# Regression behaviours, added with the second batch of cells (after the mechanism was built).
BEHAVIOURS.update({
    "fetch": ("(key)", "method", '''
class TestFetch_{fn}(unittest.TestCase):
    def setUp(self):
        self.store = Store()

    def test_unknown_key(self):
        with self.assertRaises(KeyError):
            self.store.{fn}("zzz")
'''),
    "peek": ("(key)", "method", '''
def test_{fn}_unknown_key_gives_none():
    assert SHARED.{fn}("zzz") is None
'''),
    "pick": ("(name, n)", "fn", '''
def test_{fn}_out_of_range():
    with pytest.raises(IndexError):
        {fn}("b", 3)
'''),
    "variant_of": ("(key)", "fn", '''
def test_{fn}_unknown_variant_raises_value_error():
    with pytest.raises(ValueError):
        {fn}("x")
'''),
    "close": ("()", "method", '''
def test_{fn}_second_time():
    s = Store.open("x")
    s.{fn}()
    with pytest.raises(RuntimeError):
        s.{fn}()
'''),
    "stop": ("()", "method", '''
def test_{fn}_second_time():
    s = Store.open("x")
    s.{fn}()
    assert s.{fn}() is None
'''),
})


@dataclass(frozen=True)
class Cell:
    id: str
    form: str  # md | rst | table | faq | google | numpy | sphinx
    defect_fn: str
    twin_fn: str
    defect: str
    twin: str


C = Cell
CELLS: list[Cell] = [
    # -- "raises E when the path does not exist" vs a test on a path it never creates ----------
    C("missing-raise-md", "md", "load_ini", "load_json",
      "`load_ini(path)` raises `FileNotFoundError` when the path does not exist.",
      "`load_json(path)` raises `FileNotFoundError` when the path does not exist."),
    C("missing-raise-google", "google", "load_ini", "load_json",
      "Raises:\n    FileNotFoundError: if the file does not exist.",
      "Raises:\n    FileNotFoundError: if the file does not exist."),
    C("missing-raise-sphinx", "sphinx", "load_ini", "load_json",
      ":raises FileNotFoundError: when the path is missing.",
      ":raises FileNotFoundError: when the path is missing."),
    C("missing-raise-rst", "rst", "load_ini", "load_json",
      "For a missing file, :func:`loom.api.load_ini` raises :exc:`FileNotFoundError`.",
      "For a missing file, :func:`loom.api.load_json` raises :exc:`FileNotFoundError`."),
    C("missing-raise-faq", "faq", "load_ini", "load_json",
      "**What if the INI file is missing?**\n`load_ini()` raises `FileNotFoundError`.",
      "**What if the JSON file is missing?**\n`load_json()` raises `FileNotFoundError`."),
    C("missing-raise-table", "table", "load_ini", "load_json",
      "| `load_ini(path)` | raises `FileNotFoundError` when the path does not exist |",
      "| `load_json(path)` | raises `FileNotFoundError` when the path does not exist |"),
    # -- "returns an empty list for a missing file" vs a test that expects a raise -------------
    C("missing-empty-md", "md", "load_json", "load_ini",
      "`load_json(path)` returns an empty list when the file does not exist.",
      "`load_ini(path)` returns an empty list when the file does not exist."),
    C("missing-empty-numpy", "numpy", "load_json", "load_ini",
      "Returns\n-------\nlist\n    The rows; an empty list when the file does not exist.",
      "Returns\n-------\nlist\n    The rows; an empty list when the file does not exist."),
    # -- "reports every problem as E" vs a test expecting an unrelated exception ---------------
    C("every-md", "md", "parse", "parse_strict",
      "`parse(text)` reports every problem in the text as `LoomError`.",
      "`parse_strict(text)` reports every problem in the text as `LoomError`."),
    C("every-rst", "rst", "parse", "parse_strict",
      ":func:`loom.api.parse` reports every problem in the document as :exc:`~loom.errors.LoomError`.",
      ":func:`loom.api.parse_strict` reports every problem in the document as :exc:`~loom.errors.LoomError`."),
    C("every-google", "google", "parse", "parse_strict",
      "Raises:\n    LoomError: for every problem in the text.",
      "Raises:\n    LoomError: for every problem in the text."),
    C("every-sphinx", "sphinx", "parse", "parse_strict",
      ":raises LoomError: on any error in the text.",
      ":raises LoomError: on any error in the text."),
    C("any-error-md", "md", "parse", "parse_strict",
      "Any error in the text makes `parse` raise `LoomError`.",
      "Any error in the text makes `parse_strict` raise `LoomError`."),
    C("all-errors-numpy", "numpy", "parse", "parse_strict",
      "Raises\n------\nLoomError\n    All errors in the text are raised as this.",
      "Raises\n------\nLoomError\n    All errors in the text are raised as this."),
    # -- "raises E if n is negative" vs a parametrized test that clamps -------------------------
    C("negative-raise-md", "md", "scale", "resize",
      "`scale(n)` raises `ValueError` if `n` is negative.",
      "`resize(n)` raises `ValueError` if `n` is negative."),
    C("negative-raise-numpy", "numpy", "scale", "resize",
      "Raises\n------\nValueError\n    If n is negative.",
      "Raises\n------\nValueError\n    If n is negative."),
    C("negative-returns-md", "md", "resize", "scale",
      "`resize(n)` returns `0` when `n` is negative.",
      "`scale(n)` returns `0` when `n` is negative."),
    # -- "returns None for an unknown key" vs raises, on helper-built objects and fixtures -----
    C("unknown-none-md", "md", "find", "lookup",
      "`Store.find(key)` returns `None` for an unknown key.",
      "`Store.lookup(key)` returns `None` for an unknown key."),
    C("unknown-none-google", "google", "find", "lookup",
      "Returns:\n    None if the key is unknown.",
      "Returns:\n    None if the key is unknown."),
    C("unknown-raise-sphinx", "sphinx", "lookup", "find",
      ":raises KeyError: if the key is unknown.",
      ":raises KeyError: if the key is unknown."),
    C("unknown-raise-rst", "rst", "lookup", "find",
      ":meth:`loom.api.Store.lookup` raises :exc:`KeyError` for an unknown key.",
      ":meth:`loom.api.Store.find` raises :exc:`KeyError` for an unknown key."),
    # -- duplicates: rejected vs the last one wins ----------------------------------------------
    C("duplicate-rejected-md", "md", "load_text", "load_unique",
      "A document that repeats a key is rejected by `load_text` with `LoomError`.",
      "A document that repeats a key is rejected by `load_unique` with `LoomError`."),
    C("duplicate-raise-google", "google", "load_text", "load_unique",
      "Raises:\n    LoomError: if a key is repeated.",
      "Raises:\n    LoomError: if a key is repeated."),
    C("duplicate-first-md", "md", "load_text", "load_text",
      "When a key repeats, `load_text` keeps the first one.",
      "When a key repeats, `load_text` keeps the last one."),
    C("duplicate-wins-faq", "faq", "load_text", "load_text",
      "**What if a key appears twice?**\nWith `load_text()` the first one wins.",
      "**What if a key appears twice?**\nWith `load_text()` the last one wins."),
    # -- "rejects an empty name" vs a test where it returns normally ----------------------------
    C("empty-rejects-md", "md", "check_name", "require_name",
      "`check_name(name)` rejects an empty name.",
      "`require_name(name)` rejects an empty name."),
    C("empty-raise-sphinx", "sphinx", "check_name", "require_name",
      ":raises ValueError: if the name is empty.",
      ":raises ValueError: if the name is empty."),
    C("empty-raise-table", "table", "check_name", "require_name",
      "| `check_name(name)` | raises `ValueError` for an empty `name` |",
      "| `require_name(name)` | raises `ValueError` for an empty `name` |"),
    # -- "ignores malformed input" vs a test that expects a raise -------------------------------
    C("ignores-md", "md", "lenient", "skim",
      "`lenient(text)` ignores malformed input.",
      "`skim(text)` ignores malformed input."),
    C("never-raises-md", "md", "lenient", "skim",
      "`lenient(text)` never raises, whatever the input.",
      "`skim(text)` never raises, whatever the input."),
    C("ignores-google", "google", "lenient", "skim",
      "Returns:\n    dict: the parsed rows; malformed input is ignored.",
      "Returns:\n    dict: the parsed rows; malformed input is ignored."),
    # -- "returns None for empty text" vs assertEqual / assertIsNone in unittest classes --------
    C("empty-none-md", "md", "count_rows", "first_row",
      "`count_rows(text)` returns `None` for an empty `text`.",
      "`first_row(text)` returns `None` for an empty `text`."),
    C("empty-none-sphinx", "sphinx", "count_rows", "first_row",
      ":returns: ``None`` when ``text`` is empty.",
      ":returns: ``None`` when ``text`` is empty."),
    C("empty-raise-numpy", "numpy", "check_name", "require_name",
      "Raises\n------\nValueError\n    If name is empty.",
      "Raises\n------\nValueError\n    If name is empty."),
]
# Second batch, written after the first batch passed: unittest ``setUp`` objects, module-level
# objects, the very call the claim writes, the noun of "unknown X", a FAQ question as a heading.
CELLS += [
    C("setup-none-md", "md", "fetch", "peek",
      "`Store.fetch(key)` returns `None` for an unknown key.",
      "`Store.peek(key)` returns `None` for an unknown key."),
    C("setup-raise-sphinx", "sphinx", "peek", "fetch",
      ":raises KeyError: if the key is unknown.",
      ":raises KeyError: if the key is unknown."),
    C("same-call-md", "md", "pick", "pick",
      '`pick("b", 3)` raises `KeyError`.',
      '`pick("b", 3)` raises `IndexError`.'),
    C("noun-md", "md", "variant_of", "variant_of",
      "`variant_of(key)` raises `KeyError` for an unknown variant.",
      "`variant_of(key)` raises `KeyError` for an unknown flag."),
    C("faq-heading", "faqheading", "load_ini", "load_json",
      "## What happens when the INI file is missing?\n\nThen `load_ini()` raises `FileNotFoundError`.",
      "## What happens when the JSON file is missing?\n\nThen `load_json()` raises `FileNotFoundError`."),
]
# Third batch (after the second passed): an object a project factory builds, a second call.
CELLS += [
    C("again-md", "md", "stop", "close",
      "Calling `Store.stop()` again raises `RuntimeError`.",
      "Calling `Store.close()` again raises `RuntimeError`."),
    C("again-google", "google", "close", "stop",
      "Returns:\n    None; calling it again does nothing.",
      "Returns:\n    None; calling it again does nothing."),
]
FIRST_BATCH = 34  # cells 0-33: written before the reviewer changed (then 35 / 69 passed: no defect flagged
# citing a test); all three batches against the session's starting reviewer: 42 / 83.
FIELD_FORMS = ("google", "numpy", "sphinx")

ERRORS = '''\
class LoomError(Exception):
    pass


class ParseError(LoomError):
    pass


class Missing(LoomError):
    pass


class SchemaError(Exception):
    """Not a LoomError: layout problems come from the schema library."""
'''

# The code dispatches to an engine the reviewer cannot read (a callable held in a variable may raise
# anything): only the tests show behaviour.
API_HEAD = '''\
"""The loom API."""

import importlib


def _engine():
    return importlib.import_module("loom_engine_" + "impl")
'''


def _slug(cell: Cell, side: str) -> str:
    return re.sub(r"\W", "_", f"{cell.id}_{side}")


def _doc(doc: str | None, indent: str) -> list[str]:
    if doc is None:
        return []
    return [f'{indent}"""Loom helper.', ""] + [f"{indent}{ln}" if ln else "" for ln in doc.splitlines()] + [
        f'{indent}"""']


def _copies() -> list[tuple[str, str, str | None]]:
    """(behaviour, defined name, docstring): the base callables and one copy per field cell side."""
    out: list[tuple[str, str, str | None]] = [(b, b, None) for b in BEHAVIOURS]
    for cell in CELLS:
        if cell.form in FIELD_FORMS:
            out.append((cell.defect_fn, f"{cell.defect_fn}_{_slug(cell, 'd')}", cell.defect))
            out.append((cell.twin_fn, f"{cell.twin_fn}_{_slug(cell, 't')}", cell.twin))
    return out


def _api() -> str:
    funcs, methods = [], []
    for behaviour, name, doc in _copies():
        sig, kind, _ = BEHAVIOURS[behaviour]
        if kind == "fn":
            funcs.append("\n".join([f"def {name}{sig}:", *_doc(doc, "    "),
                                    f"    run = _engine().{behaviour}", f"    return run{sig}"]))
        else:
            params = sig.strip("()")
            methods.append("\n".join([f"    def {name}(self, {params}):", *_doc(doc, "        "),
                                      f"        run = _engine().{behaviour}", f"        return run(self._items, {params})"]))
    store = ("class Store:\n    def __init__(self, items=None):\n        self._items = dict(items or {})\n\n"
             "    @classmethod\n    def open(cls, name: str) -> \"Store\":\n        return cls()\n\n"
             "    def put(self, key, value):\n        self._items[key] = value\n\n" + "\n\n".join(methods))
    return API_HEAD + "\n\n" + "\n\n\n".join(funcs) + "\n\n\n" + store + "\n"


def _tests() -> str:
    names = sorted({name for b, name, _doc in _copies() if BEHAVIOURS[b][1] == "fn"})
    head = ("import unittest\n\nimport pytest\n\n"
            f"from loom.api import Store, {', '.join(names)}\n"
            "from loom.errors import LoomError, Missing, ParseError, SchemaError\n\n\n"
            "def make_store():\n    s = Store()\n    s.put(\"a\", 1)\n    return s\n\n\n"
            "@pytest.fixture\ndef store():\n    return Store(items={\"a\": 1})\n\n\nSHARED = Store()\n")
    bodies = [BEHAVIOURS[b][2].format(fn=name).strip("\n") for b, name, _ in _copies()]
    return head + "\n\n" + "\n\n\n".join(bodies) + "\n"


def _docs() -> dict[str, str]:
    md, rst, faq = ["# Loom guide", ""], ["Loom reference", "==============", ""], ["# FAQ", ""]
    table = ["# Loom behaviour table", "", "| call | behaviour |", "|---|---|"]
    for cell in CELLS:
        for text in (cell.defect, cell.twin):
            if cell.form == "md":
                md += [text, ""]
            elif cell.form == "rst":
                rst += [text, ""]
            elif cell.form in ("faq", "faqheading"):
                faq += [text, ""]
            elif cell.form == "table":
                table.append(text)
    return {"docs/guide.md": "\n".join(md), "docs/api.rst": "\n".join(rst), "docs/faq.md": "\n".join(faq),
            "docs/table.md": "\n".join(table) + "\n"}


def _project(root: Path) -> None:
    files = {"loom/__init__.py": '"""Loom: rows from text."""\n', "loom/errors.py": ERRORS, "loom/api.py": _api(),
             "tests/test_loom.py": _tests(), **_docs()}
    for rel, text in files.items():
        write(root, rel, text)


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("tmatrix") / "proj"
    _project(root)
    write(root, "README.md", "# loom\n")
    eng = Engine.open(root)
    yield eng
    eng.close()


DOCS = ("docs/guide.md", "docs/api.rst", "docs/faq.md", "docs/table.md", "loom/api.py")


@pytest.fixture(scope="module")
def reviewed(engine: Engine) -> dict[str, list[tuple[Claim, Verdict]]]:
    return {d: review_doc(engine, d, StaticReviewer()).pairs() for d in DOCS}


def _verdict(reviewed: dict[str, list[tuple[Claim, Verdict]]], cell: Cell, side: str) -> Verdict:
    text = cell.defect if side == "d" else cell.twin
    fn = cell.defect_fn if side == "d" else cell.twin_fn
    if cell.form in FIELD_FORMS:
        owner = f"{fn}_{_slug(cell, side)}"
        hits = [v for c, v in reviewed["loom/api.py"] if (c.section or "").endswith(owner) and c.kind == "field"]
    else:
        doc = {"md": "docs/guide.md", "rst": "docs/api.rst", "faq": "docs/faq.md", "faqheading": "docs/faq.md",
               "table": "docs/table.md"}[cell.form]
        last = text.splitlines()[-1].strip("| ").split(" | ")[-1]
        hits = [v for c, v in reviewed[doc] if (c.text.strip() == last if cell.form.startswith("faq") else last in c.text)
                and (cell.form != "table" or text.split("|")[1].strip() in c.text)]
    assert len(hits) == 1, (cell.id, side, len(hits))
    return hits[0]


FLAGS = ("contradicted", "incomplete")


@pytest.mark.parametrize("cell", CELLS, ids=[c.id for c in CELLS])
def test_defect_is_flagged_citing_the_test(reviewed: dict[str, list[tuple[Claim, Verdict]]], cell: Cell) -> None:
    v = _verdict(reviewed, cell, "d")
    assert v.verdict in FLAGS, (v.verdict, v.rationale)
    assert any(e.path == "tests/test_loom.py" for e in v.evidence), v.evidence
    assert "test" in v.rationale


@pytest.mark.parametrize("cell", CELLS, ids=[c.id for c in CELLS])
def test_twin_is_not_flagged(reviewed: dict[str, list[tuple[Claim, Verdict]]], cell: Cell) -> None:
    v = _verdict(reviewed, cell, "t")
    assert v.verdict not in FLAGS, (v.verdict, v.rationale)


def test_matrix_covers_every_form() -> None:
    assert {c.form for c in CELLS} == {"md", "rst", "table", "faq", "faqheading", "google", "numpy", "sphinx"}
    assert len(CELLS) >= 30 and len({c.id for c in CELLS}) == len(CELLS)
