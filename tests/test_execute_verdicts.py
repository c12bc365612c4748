"""issue 18: how the execute reviewer turns outcomes into verdicts, and how verdicts merge."""

from __future__ import annotations

from pathlib import Path

import pytest

from caas_tui.models import Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review import deciding_verdict
from caas_tui.review.claims import extract_claims
from caas_tui.review.execute import ExecuteReviewer, Limits, outcome_of, pick_python
from tests.conftest import write

GUIDE = '''
# Guide

Install the dependencies first:

```console
$ pip install numpy
```

```python
from pkg.world import World
w = World()
print(w.count())
```

```python
w.explode()
```

```python
w.implode()
```

```python
import numpy_that_is_not_installed
```

```python
open("weights.bin").read()
```

```python
undefined_helper()
```

```python
name = input("Your name: ")
```

```pycon
>>> w.count()
0
>>> w.count() + 1
2
```

```pycon
>>> len(w.bodies)
0
```
'''

WORLD = '''
class World:
    def __init__(self) -> None:
        self.bodies = []

    def count(self) -> int:
        return len(self.bodies)

    def explode(self) -> None:
        self._boom()

    def _boom(self) -> None:
        raise RuntimeError("boom")
'''


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory):
    root = tmp_path_factory.mktemp("exec") / "proj"
    write(root, "pkg/__init__.py", "")
    write(root, "pkg/world.py", WORLD)
    write(root, "docs/guide.md", GUIDE)
    engine = Engine.open(root)
    try:
        text = (root / "docs/guide.md").read_text()
        claims = [c for c in extract_claims("docs/guide.md", text) if c.kind == "code"]
        reviewer = ExecuteReviewer(limits=Limits(block_seconds=10, doc_seconds=30))
        verdicts = reviewer.review(claims, engine)
    finally:
        engine.close()
    return root, text.split("\n"), dict(zip((c.text.split("\n")[0] for c in claims), verdicts, strict=True)), reviewer


def test_shell_block_is_not_run(reviewed):
    _, _, by_first, _ = reviewed
    v = by_first["$ pip install numpy"]
    assert (v.verdict, v.reviewer, v.rationale) == ("unverified", "execute", "unverified: shell block, not run")


def test_block_without_outputs_to_compare_ran_without_error(reviewed):
    v = reviewed[2]["from pkg.world import World"]
    assert (v.verdict, v.rationale) == ("unverified", "ran without error")
    view = outcome_of(v)
    assert view is not None and view.status == "ok" and view.output == "0\n"


def test_a_missing_attribute_points_at_the_class(reviewed):
    v = reviewed[2]["w.implode()"]
    assert v.verdict == "contradicted" and "has no attribute 'implode'" in v.rationale
    assert [(e.path, e.symbol, e.note) for e in v.evidence] == [("pkg/world.py", "pkg.world.World", "defines no 'implode'")]


def test_raise_from_project_code_is_contradicted_with_frames(reviewed):
    root, _, by_first, _ = reviewed
    v = by_first["w.explode()"]
    assert v.verdict == "contradicted" and "RuntimeError: boom" in v.rationale
    assert [(e.path, e.symbol, e.note) for e in v.evidence] == [
        ("pkg/world.py", "pkg.world.World.explode", "called from here"),
        ("pkg/world.py", "pkg.world.World._boom", "raised here"),
    ]
    lines = (root / "pkg/world.py").read_text().split("\n")
    assert "self._boom()" in lines[v.evidence[0].start_line - 1]
    assert "raise RuntimeError" in lines[v.evidence[1].start_line - 1]
    view = outcome_of(v)
    assert view is not None and view.status == "exception" and view.exception == "RuntimeError: boom"
    assert [f.split()[0].split(":")[0] for f in view.frames] == ["pkg/world.py", "pkg/world.py"]


@pytest.mark.parametrize("first, reason", [
    ("import numpy_that_is_not_installed", "third-party module 'numpy_that_is_not_installed' is not installed"),
    ("open(\"weights.bin\").read()", "the doc says to download"),
    ("undefined_helper()", "uses a name"),
    ('name = input("Your name: ")', "waits for keyboard input"),
])
def test_environment_failures_are_unverified(reviewed, first, reason):
    # the guide says "Install the dependencies first" but never "download": the file rule applies
    v = reviewed[2][first]
    assert v.verdict == "unverified" and v.evidence == ()
    if "download" in reason:
        assert "missing in the empty working directory" in v.rationale
    else:
        assert reason in v.rationale


def test_stale_doctest_output_gets_a_fix_replacing_the_expected_lines(reviewed):
    _, lines, by_first, _ = reviewed
    stale = [x for k, x in by_first.items() if k.startswith(">>>") and x.verdict == "contradicted"]
    assert len(stale) == 1
    v = stale[0]
    assert v.fix is not None and v.fix.replacement == "1"
    assert lines[v.fix.start_line - 1] == "2" and v.fix.start_line == v.fix.end_line


def test_stale_doctest_output_points_at_the_code_that_printed_it(reviewed):
    root, _, by_first, _ = reviewed
    [v] = [x for k, x in by_first.items() if k.startswith(">>>") and x.verdict == "contradicted"]
    # ``w.count() + 1``: a variable's method, found by its own name
    assert [(e.path, e.symbol, e.note) for e in v.evidence] == [
        ("pkg/world.py", "pkg.world.World.count", "called by the example whose output differs")]
    lines = (root / "pkg/world.py").read_text().split("\n")
    ev = v.evidence[0]
    assert lines[ev.start_line - 1].strip().startswith("def count") and ev.sha256


def test_called_names_of_an_example():
    from caas_tui.review.execute.reviewer import called_names

    assert called_names("w.count() + len(pkg.m.f(1))\n") == ["w.count", "len", "pkg.m.f"]
    assert called_names("await go()\n") == ["go"]
    assert called_names("World().count() + World.make(x())\n") == ["World.count", "World.make", "x"]
    assert called_names("not python (\n") == []


def test_matching_doctest_is_consistent(reviewed):
    consistent = [v for k, v in reviewed[2].items() if v.verdict == "consistent"]
    assert len(consistent) == 1 and "match" in consistent[0].rationale


def test_one_line_says_which_python(reviewed):
    notes = reviewed[3].notes
    assert any(n.startswith("executing docs with") for n in notes)


def test_project_environment_is_preferred(tmp_path):
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    exe = tmp_path / ".venv" / "bin" / "python"
    exe.write_text("")
    choice = pick_python(tmp_path, "/usr/bin/python3")
    assert choice.path == str(exe) and ".venv/" in choice.line
    other = tmp_path / "other"
    other.mkdir()
    assert pick_python(other, None).line.startswith("executing docs with caas-tui's own interpreter")


def test_a_real_traceback_beats_a_static_guess():
    static_ok = Verdict("c", "consistent", "static", "checked: exists")
    static_bad = Verdict("c", "contradicted", "static", "no such parameter")
    ran_bad = Verdict("c", "contradicted", "execute", "running it raises TypeError")
    ran_plain = Verdict("c", "unverified", "execute", "ran without error")
    assert deciding_verdict([static_ok, ran_bad]) is ran_bad
    assert deciding_verdict([static_bad, ran_plain]) is static_bad
    assert deciding_verdict([static_ok, ran_plain]) is static_ok
    assert deciding_verdict([static_bad, ran_bad]) is ran_bad
    assert deciding_verdict([ran_plain, static_bad]) is static_bad


def test_execute_config_keys(tmp_path: Path):
    from caas_tui.config import load_config
    (tmp_path / "caas.toml").write_text('[review]\nexecute = true\npython = "/usr/bin/python3"\n')
    cfg = load_config(tmp_path)
    assert cfg.review_execute is True and cfg.review_python == "/usr/bin/python3"


def test_verdict_panel_shows_the_run(reviewed):
    from rich.console import Console

    from caas_tui.tui.render import execution_view

    console = Console(width=100, record=True)
    console.print(execution_view(reviewed[2]["w.explode()"]))
    text = console.export_text()
    assert "Ran: exception  RuntimeError: boom" in text
    assert "pkg/world.py:" in text and "World._boom" in text
    assert execution_view(Verdict("c", "consistent", "static", "checked")) is None


def test_long_output_is_truncated_with_a_note(tmp_path):
    from rich.console import Console

    from caas_tui.review.execute.blocks import plan_block
    from caas_tui.review.execute.outcome import encode_outcome
    from caas_tui.review.execute.session import run_session
    from caas_tui.tui.render import execution_view

    claim = extract_claims("d.md", "```python\nfor i in range(3000):\n    print(i)\n```\n")[0]
    outcome = run_session(tmp_path, __import__("sys").executable, [plan_block(claim)]).outcomes[0]
    assert outcome.status == "ok" and outcome.output_chars > len(outcome.output)
    view = outcome_of(Verdict("c", "unverified", "execute", "ran without error", checks=encode_outcome(outcome, ())))
    assert view is not None and view.output.startswith("0\n1\n") and view.truncated > 0
    console = Console(width=100, record=True)
    console.print(execution_view(Verdict("c", "unverified", "execute", "r", checks=encode_outcome(outcome, ()))))
    assert "output truncated" in console.export_text()


DOCSTRING_MODULE = '''
def pair(a):
    """Two of ``a``.

    Example:
        >>> pair(2)
        (2, 3)
        >>> print("x"); print(""); print("y")
        x
        z
    """
    return (a, a)
'''


def test_docstring_doctest_fix_covers_every_stale_output_and_makes_it_pass(tmp_path):
    import doctest
    import importlib.util

    root = tmp_path / "proj"
    write(root, "pkg/__init__.py", "")
    path = write(root, "pkg/m.py", DOCSTRING_MODULE)
    engine = Engine.open(root)
    try:
        text = path.read_text()
        claims = extract_claims("pkg/m.py", text)
        verdicts = ExecuteReviewer().review(claims, engine)
    finally:
        engine.close()
    flagged = [v for v in verdicts if v.verdict == "contradicted"]
    assert len(flagged) == 1 and "and 1 more output" in flagged[0].rationale
    assert [(e.path, e.symbol) for e in flagged[0].evidence] == [("pkg/m.py", "pkg.m.pair")]
    fix = flagged[0].fix
    assert fix is not None
    lines = text.split("\n")
    lines[fix.start_line - 1 : fix.end_line] = fix.replacement.split("\n")
    path.write_text("\n".join(lines))
    spec = importlib.util.spec_from_file_location("fixed_m", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = doctest.testmod(module)
    assert result.attempted == 2 and result.failed == 0


def test_merge_reviews_keeps_every_verdict_and_the_app_only_sees_the_prevailing_ones():
    from caas_tui.models import Claim
    from caas_tui.review import DocReview, merge_reviews
    from caas_tui.review.merge import prevailing_pairs

    claims = tuple(Claim(f"c{i}", "d.md", i, i, f"x{i}", "code") for i in range(3))
    static = DocReview("d.md", "static", claims, (
        Verdict("c0", "consistent", "static", "exists"),
        Verdict("c1", "contradicted", "static", "no such parameter"),
        Verdict("c2", "unverified", "static", "nothing checkable"),
    ))
    ran = DocReview("d.md", "execute", claims, (
        Verdict("c0", "contradicted", "execute", "running it raises TypeError"),
        Verdict("c1", "unverified", "execute", "ran without error"),
        Verdict("c2", "unverified", "execute", "ran without error"),
    ))
    merged, every = merge_reviews(static, ran)
    assert merged.reviewer == "static+execute"
    assert [v.reviewer for v in merged.verdicts] == ["execute", "static", "static"]
    assert [len(every[c.id]) for c in claims] == [2, 2, 2]
    assert [c.id for c, _ in prevailing_pairs(ran, static)] == ["c0", "c2"]


def test_a_stale_output_verdict_goes_stale_when_the_code_it_calls_changes(tmp_path):
    from caas_tui.review.decisions.staleness import check
    from caas_tui.review.decisions.store import VerdictStore

    root = tmp_path / "proj"
    write(root, "pkg/__init__.py", "")
    write(root, "pkg/world.py", WORLD)
    write(root, "docs/d.md", "# D\n\n```pycon\n>>> from pkg.world import World\n>>> World().count()\n1\n```\n")
    engine = Engine.open(root)
    try:
        claims = [c for c in extract_claims("docs/d.md", (root / "docs/d.md").read_text()) if c.kind == "code"]
        [v] = ExecuteReviewer().review(claims, engine)
        assert v.verdict == "contradicted" and [e.symbol for e in v.evidence] == ["pkg.world.World.count"]
        with VerdictStore.open(engine.cfg) as store:
            store.record(claims[0], v)
            assert check(engine, store.all()) == []
            world = root / "pkg/world.py"
            world.write_text(world.read_text().replace("return len(self.bodies)", "return len(self.bodies) + 1"))
            engine.refresh()
            [stale] = check(engine, store.all())
            assert stale.reason.startswith("evidence pkg/world.py:")
    finally:
        engine.close()
