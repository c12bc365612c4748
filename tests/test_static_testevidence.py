"""The project's tests as evidence: what ``testruns`` reads from a test file, and when a test is
(and is not) allowed to decide a behaviour claim."""

from __future__ import annotations

from pathlib import Path

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.testevidence.statedoutcomes import concepts
from caas_tui.review.static.testevidence.testinputs import kept_duplicate, repeats_a_key
from caas_tui.review.static.testevidence.testruns import test_runs as runs_of

from .conftest import verdict_containing, write

API = '''\
"""Opaque loaders: the work happens in an engine loaded at run time."""

import importlib


def _engine():
    return importlib.import_module("engine_" + "impl")


def load(path, missing_ok=False):
    run = _engine().load
    return run(path, missing_ok)


def size(n):
    run = _engine().size
    return run(n)


def read(path):
    run = _engine().read
    return run(path)


def probe(text):
    run = _engine().probe
    return run(text)


class Box:
    def get(self, key):
        run = _engine().get
        return run(key)
'''

TESTS = '''\
import unittest

import pytest

from kit.api import Box, load, probe, read, size


def make_box():
    b = Box()
    return b


@pytest.fixture
def box():
    made = Box()
    return made


def test_missing_file_is_allowed_with_missing_ok(tmp_path):
    assert load(tmp_path / "absent.cfg", missing_ok=True) == []


@pytest.mark.parametrize("n", [-1, -7])
def test_negative(n):
    assert size(n) == 0


def test_read_existing(tmp_path):
    path = tmp_path / "here.cfg"
    path.write_text("x")
    assert read(path) == "x"


def test_helper_box():
    b = make_box()
    with pytest.raises(KeyError, match="nope"):
        b.get("nope")


def test_fixture_box(box):
    assert box.get("a") is None


def test_in_try_and_loop():
    try:
        probe("a")
    except ValueError:
        pass
    for text in ("b", "c"):
        probe(text)


@pytest.mark.skip(reason="flaky")
def test_skipped():
    assert probe("z") == 1


class TestProbe(unittest.TestCase):
    def test_callable_form(self):
        self.assertRaises(TypeError, probe, 3)
'''

GUIDE = """\
# Kit guide

`load(path)` raises `FileNotFoundError` when the path does not exist.

`read(path)` raises `FileNotFoundError` when the path does not exist.

`probe(text)` returns `None` for an unknown key.
"""


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root: Path = tmp_path_factory.mktemp("tevid") / "proj"
    write(root, "kit/__init__.py", '"""Kit."""\n')
    write(root, "kit/api.py", API)
    write(root, "tests/test_kit.py", TESTS)
    write(root, "docs/guide.md", GUIDE)
    write(root, "README.md", "# kit\n")
    eng = Engine.open(root)
    yield eng
    eng.close()


@pytest.fixture(scope="module")
def pairs(engine: Engine) -> list[tuple[Claim, Verdict]]:
    return review_doc(engine, "docs/guide.md", StaticReviewer()).pairs()


def _runs(engine: Engine, name: str) -> list:
    ctx = ReviewContext(engine)
    res = ctx.resolver.resolve(name)
    assert res.found and res.target is not None
    return runs_of(ctx, res.target)


def test_parametrize_rows_are_the_argument_values(engine: Engine) -> None:
    (run,) = _runs(engine, "kit.api.size")
    assert run.outcome == "returns" and run.expected == 0
    assert run.arg_values("0") == (-1, -7)


def test_helper_and_fixture_objects_tie_method_calls(engine: Engine) -> None:
    runs = {r.test: r for r in _runs(engine, "kit.api.Box.get")}
    assert sorted(runs) == ["test_fixture_box", "test_helper_box"]
    assert runs["test_helper_box"].outcome == "raises" and runs["test_helper_box"].exc_name == "KeyError"
    assert runs["test_fixture_box"].outcome == "returns" and runs["test_fixture_box"].expected is None


def test_try_loop_and_skipped_calls_do_not_count(engine: Engine) -> None:
    runs = _runs(engine, "kit.api.probe")
    assert [(r.outcome, r.exc_name, r.test) for r in runs] == [("raises", "TypeError", "TestProbe.test_callable_form")]


def test_a_path_the_test_creates_is_not_missing(engine: Engine) -> None:
    (run,) = _runs(engine, "kit.api.read")
    assert run.missing_paths == frozenset()
    (loaded,) = _runs(engine, "kit.api.load")
    assert loaded.missing_paths == frozenset({"0"})


def test_an_option_the_claim_does_not_name_keeps_the_test_from_contradicting(pairs: list[tuple[Claim, Verdict]]) -> None:
    v = verdict_containing(pairs, "`load(path)` raises")
    assert v.verdict not in ("contradicted", "incomplete"), v.rationale


def test_a_test_not_tied_to_the_condition_is_named_not_compared(pairs: list[tuple[Claim, Verdict]]) -> None:
    v = verdict_containing(pairs, "`read(path)` raises")
    assert v.verdict == "unverified"
    assert "test_read_existing" in v.rationale and "not compared" in v.rationale
    assert any(e.path == "tests/test_kit.py" for e in v.evidence)


def test_a_raise_on_an_unrelated_input_does_not_contradict(pairs: list[tuple[Claim, Verdict]]) -> None:
    v = verdict_containing(pairs, "`probe(text)` returns")
    assert v.verdict not in ("contradicted", "incomplete"), v.rationale


def test_concepts_of_conditions_and_test_names() -> None:
    assert concepts("when the path does not exist") == {"missing-path"}
    assert "missing-path" in concepts("test missing ini file gives no flags")
    assert concepts("for an unknown key") == {"missing:key"} == concepts("test get missing keys returns none")
    assert concepts("if the key is not stored") == {"missing:key"}
    assert concepts("for an unknown variant") != concepts("for an unknown flag")
    assert concepts("an empty list when the file is missing") == {"missing-path"}
    assert concepts("if a key is repeated") == {"duplicate"}
    assert concepts("returns the rows") == frozenset()


def test_repeated_keys_in_literal_input() -> None:
    assert repeats_a_key('{"a": 1, "a": 2}') and repeats_a_key(["x", "x"])
    assert not repeats_a_key('{"a": 1, "b": 2}') and not repeats_a_key("not json")
    assert kept_duplicate('{"a": 1, "a": 2}', {"a": 2}) == "last"
    assert kept_duplicate('{"a": 1, "a": 2}', {"a": 1}) == "first"
    assert kept_duplicate('{"a": 1, "a": 2}', {"a": 3}) is None
