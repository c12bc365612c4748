"""issue 14: prose and field claims that state the outcome of a concrete inline call are decided by
running that call ("probes"), in the doc's session, isolated in a fork.

Three layers: the plan (which spans are probed and what outcome each sentence states, no run), the
verdicts on a tiny project in a real sandbox (both tiers where bubblewrap runs: a defect twin and a
correct twin per cell, plus inconclusive cells), and the merge of a run's verdict with a static one.
"""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims import extract_claims
from caas_tui.review.execute import ExecuteReviewer, Limits
from caas_tui.review.execute.blocks import plan_doc
from caas_tui.review.execute.probes import plan_probes, probe_expression
from caas_tui.review.execute.sandbox import bwrap_path
from caas_tui.review.merge import deciding_verdict
from tests.conftest import write

needs_bwrap = pytest.mark.skipif(bwrap_path() is None, reason="bubblewrap not installed or not allowed to run here")


def _claim(text: str, kind: str = "prose") -> Claim:
    return Claim("c", "docs/x.md", 1, 1, text, kind)


# sentence -> [(source, kind, want or other)], rest
PLANS: dict[str, tuple[str, list[tuple[str, str, str]], bool]] = {
    "returns_code": ("`f(2)` returns `4`.", [("f(2)", "value", "4")], False),
    "gives_prose_value": ("`parse('€1,5')` gives you 1.50 EUR.", [("parse('€1,5')", "value", "1.50 EUR")], False),
    "is_code": ("``Money('1').cents()`` is ``100``.", [("Money('1').cents()", "value", "100")], False),
    "evaluates_to": ("`a[0] + 1` evaluates to `2`.", [("a[0] + 1", "value", "2")], False),
    "comes_back_as": ("`load('x')` comes back as `None`.", [("load('x')", "value", "None")], False),
    "arrow": ("`f(1)` → `2`", [("f(1)", "value", "2")], False),
    "is_true_word": ("`check(3)` is True.", [("check(3)", "value", "True")], False),
    "raises_code": ("`f(-1)` raises `ValueError`.", [("f(-1)", "raises", "ValueError")], False),
    "raises_role": ("``f(-1)`` raises :exc:`~pkg.errors.BadInput`.", [("f(-1)", "raises", "BadInput")], False),
    "raises_word_with_adverb": ("`f(1.5)` now raises TypeError.", [("f(1.5)", "raises", "TypeError")], False),
    "throws": ("`f(None)` throws `KeyError`.", [("f(None)", "raises", "KeyError")], False),
    "fails_with": ("`f('')` fails with `ValueError`.", [("f('')", "raises", "ValueError")], False),
    "rejected_with": ("`f('')` is rejected with `ValueError`.", [("f('')", "raises", "ValueError")], False),
    "never_raises": ("`f(0)` never raises.", [("f(0)", "no-raise", "")], False),
    "is_accepted": ("`f(Fraction(1, 3))` is accepted.", [("f(Fraction(1, 3))", "no-raise", "")], False),
    "equal_pair": ("`M('1.0')` and `M('1.00')` are equal.", [("M('1.0')", "equal", "M('1.00')")], False),
    "same_pair": ("`M('1.0')` and `M('1.00')` are the same key.", [("M('1.0')", "equal", "M('1.00')")], False),
    "distinct_pair": ("`M('1.0')` and `M('1.00')` are two distinct keys in a `dict`.",
                      [("M('1.0')", "distinct", "M('1.00')")], True),
    "coordinated_predicate": ("`parse('x,5')` sees the comma, switches mode, and gives `0.5`.",
                              [("parse('x,5')", "value", "0.5")], True),
    "reverse_order": ("You get `4` from `f(2)`.", [("f(2)", "value", "4")], False),
    "because_clause_is_rest": ("`f(-1)` raises `ValueError` because negatives are refused.",
                               [("f(-1)", "raises", "ValueError")], True),
    "two_probes": ("`f(1)` is `2` and `f(2)` is `4`.", [("f(1)", "value", "2"), ("f(2)", "value", "4")], False),
    "bare_call_under_a_condition": ("`split()` raises `AllocationError` when the amount is too small.",
                                    [("split()", "raises", "AllocationError")], True),
    "past_tense": ("`f(3)` returned `None`.", [("f(3)", "value", "None")], False),
    "negated_value": ("`f(3)` is not `True`.", [("f(3)", "value", "True")], False),
    "future_tense": ("`f(3)` will return `6`.", [("f(3)", "value", "6")], False),
    "google_raises_field": ("Raises: ValueError: for text, e.g. ``half('4')``.", [("half('4')", "raises", "ValueError")],
                            True),
    "sphinx_raises_field": (":raises KeyError: for ``ratio('x')``.", [("ratio('x')", "raises", "KeyError")], False),
    "field_returns": ("Returns: int: ``f(2)`` is ``4``.", [("f(2)", "value", "4")], False),
}

NOT_PROBES = {
    "bare_name": "`parse` returns a `Money`.",
    "signature_with_markers": "`convert(to, book, *, at=None)` returns `Money`.",
    "ellipsis": "`f(a, ...)` returns `1`.",
    "no_outcome": "`f(2)` doubles its argument.",
    "prose_after_returns": "`get_currency('usd')` returns the US dollar.",
    "negated_is": "``Money('1.005', 'USD')`` is not rounded to cents.",
    "number": "`-2.5` becomes `-2`.",
    "described_number": "`load('q')` returns 5 items.",
}


@pytest.mark.parametrize("cell", list(PLANS))
def test_plan(cell):
    text, want, rest = PLANS[cell]
    kind = "field" if text.startswith(("Returns:", "Raises:", ":raises")) else "prose"
    plan = plan_probes(_claim(text, kind))
    got = [(p.source, p.kind, p.other or p.want) for p in plan.probes]
    assert got == want
    assert plan.rest is rest


@pytest.mark.parametrize("cell", list(NOT_PROBES))
def test_not_a_probe(cell):
    assert plan_probes(_claim(NOT_PROBES[cell])).probes == ()


def test_a_condition_is_read():
    plan = plan_probes(_claim("`q.pop()` raises `IndexError` once the queue is empty."))
    assert plan.condition == "once" and plan.rest
    assert plan_probes(_claim("Popping once more, `q.pop()` throws `KeyError`.")).condition == ""


def test_table_rows():
    def row(text: str, header: str) -> Claim:
        return Claim("c", "docs/x.md", 1, 1, text, "prose", context=f"Ref\n\ntable ({header}): {text}")
    value = plan_probes(row("`nearest(4.5)` | `5`", "Call | Returns"))
    assert [(p.source, p.kind, p.want) for p in value.probes] == [("nearest(4.5)", "value", "5")] and not value.rest
    raised = plan_probes(row("`find({}, 'z')` | raises `KeyError`", "Call | Outcome"))
    assert [(p.kind, p.want) for p in raised.probes] == [("raises", "KeyError")]
    # a column of possible exceptions next to a signature states no outcome of a concrete call
    assert plan_probes(row("`find(d, k)` | `d`: dict | `KeyError`", "Call | Parameters | Raises")).probes == ()


def test_code_claims_are_not_probed():
    assert plan_probes(_claim("f(2)  # returns 4", "code")).probes == ()
    assert probe_expression("a + b") and probe_expression("x[0]") and not probe_expression("a.b")


SHOP = '''
from decimal import Decimal


class BadAmount(ValueError):
    pass


class Money:
    def __init__(self, amount):
        if isinstance(amount, float):
            raise TypeError("no floats")
        self.amount = Decimal(amount)

    def __eq__(self, other):
        return isinstance(other, Money) and self.amount == other.amount

    def __hash__(self):
        return hash(self.amount)

    def __repr__(self):
        return f"Money('{self.amount}')"

    def __str__(self):
        return f"{self.amount} EUR"

    def cents(self):
        return int(self.amount * 100)


def parse(text):
    return Money(text.strip("€").replace(",", ""))


def check(n):
    if n < 0:
        raise BadAmount("negative")
    return n % 2 == 1


def fetch(url):
    import urllib.request
    return urllib.request.urlopen(url, timeout=1).read()


def spin(n):
    while True:
        pass


def draw(n):
    import random
    return random.random()


def stamp(n):
    return object()


class Queue:
    def __init__(self):
        self.jobs = []

    def push(self, job):
        self.jobs.append(job)

    def __len__(self):
        return len(self.jobs)


def note(text):
    with open("notes.txt", "a") as f:
        f.write(text)
    return len(text)
'''

DOC = """# Guide

```python
from shop.money import Money, Queue, check, draw, fetch, note, parse, spin, stamp
q = Queue()
q.push("a")
```

{body}

```python
import os
print(len(q), os.path.exists("notes.txt"))  # -> 1 False
```
"""

CHECKED, PARTLY, NOT = "consistent", "unverified", "unverified"
# cell -> (correct sentence, its label, defect sentence); a defect is always contradicted
CELLS: dict[str, tuple[str, str, str]] = {
    "value": ("`parse('€12,50')` gives 1250 EUR.", CHECKED, "`parse('€12,50')` gives 12.50 EUR."),
    "repr_value": ("`Money('2') == Money('2.0')` is `True`.", CHECKED, "`Money('2') == Money('3')` is `True`."),
    "code_value_evaluated": ("`parse('3')` returns `Money('3')`.", CHECKED, "`parse('3')` returns `Money('4')`."),
    "raises_subclass": ("`check(-1)` raises `ValueError`.", CHECKED, "`check(-1)` raises `KeyError`."),
    "raises_not": ("`Money(1.5)` raises `TypeError`.", CHECKED, "`Money('1.5')` raises `TypeError`."),
    "no_raise": ("`Money(' 2 ')` is accepted.", CHECKED, "`Money(2.5)` is accepted."),
    "returns_none": ("`q.push('b')` returns `None`.", CHECKED, "`len(q)` returns `None`."),
    "one_key": ("`Money('1.0')` and `Money('1.00')` are equal.", CHECKED,
                "`Money('1.0')` and `Money('1.00')` are distinct."),
    "partly": ("`check(3)` is `True` because odd numbers pass.", PARTLY,
               "`check(4)` is `True` because even numbers pass."),
    "bool_word": ("`check(2)` is False.", CHECKED, "`check(5)` is False."),
    "negated": ("`check(2)` is not `True`.", CHECKED, "`check(3)` is not `True`."),
    "writes_a_file": ("`note('abc')` returns `3`.", CHECKED, "`note('abcd')` returns `3`."),
    "a_type": ("`parse('2')` returns `Money`.", CHECKED, "`check(2)` returns `Money`."),
}
INCONCLUSIVE = {
    "placeholder": "`cache.get(key)` returns `None`.",
    "class_as_instance": "`Money / 0` raises `ZeroDivisionError`.",
    "network": "`fetch('http://probe.invalid/')` returns `b''`.",
    "address": "`stamp(1)` returns `<object object at 0x7f00deadbeef>`.",
    "hang": "`spin(1)` returns `1`.",
    "unevaluable_stated_code": "`parse('1')` is `O(n)`.",
    "after_another_call": "After `q.push('b')`, `len(q)` is `5`.",
    "random": "`draw(1)` returns `0.5`.",
    "bare_call_refused": "`check()` raises `ValueError` for negative numbers.",
}


@pytest.fixture(scope="module", params=[pytest.param(None, marks=needs_bwrap, id="bwrap"),
                                        pytest.param(False, id="rlimits")])
def reviewed(request, tmp_path_factory):
    root = tmp_path_factory.mktemp("probes") / "proj"
    write(root, "shop/__init__.py", "")
    write(root, "shop/money.py", SHOP)
    docs: dict[tuple[str, str], str] = {}
    for cell, (ok, _, bad) in CELLS.items():
        for twin, sentence in (("ok", ok), ("bad", bad)):
            docs[(cell, twin)] = sentence
    for cell, sentence in INCONCLUSIVE.items():
        docs[(cell, "unsure")] = sentence
    # one doc per sentence: a probe's outcome never depends on another cell's
    for n, sentence in enumerate(docs.values()):
        write(root, f"docs/d{n}.md", DOC.format(body=sentence))
    engine = Engine.open(root)
    try:
        claims = [c for n in range(len(docs)) for c in extract_claims(f"docs/d{n}.md",
                                                                      (root / f"docs/d{n}.md").read_text())]
        reviewer = ExecuteReviewer(limits=Limits(block_seconds=10, doc_seconds=30), use_bwrap=request.param)
        verdicts = reviewer.review(claims, engine)
    finally:
        engine.close()
    by_text = {c.text: (c, v) for c, v in zip(claims, verdicts, strict=True) if c.kind == "prose"}
    after = {c.doc_path: v for c, v in zip(claims, verdicts, strict=True)
             if c.kind == "code" and c.text.startswith("import os")}
    out = {}
    for key, sentence in docs.items():
        claim, verdict = by_text[sentence]
        out[key] = (verdict, after[claim.doc_path])
    return out


@pytest.mark.parametrize("cell", list(CELLS))
def test_correct_twin(reviewed, cell):
    v, _ = reviewed[(cell, "ok")]
    assert v.reviewer == "execute" and "ran the call" in v.rationale
    assert v.verdict == CELLS[cell][1], v.rationale
    if CELLS[cell][1] == PARTLY:
        assert "the rest of the sentence was not" in v.rationale and "behaviour:unchecked" in v.coverage


@pytest.mark.parametrize("cell", list(CELLS))
def test_defect_twin(reviewed, cell):
    v, _ = reviewed[(cell, "bad")]
    assert v.reviewer == "execute" and v.verdict == "contradicted", v.rationale
    assert "ran the call" in v.rationale and "the doc says" in v.rationale


def test_contradiction_states_what_the_run_gave(reviewed):
    v, _ = reviewed[("value", "bad")]
    assert "gives 1250 EUR" in v.rationale
    assert v.fix is not None and "gives 1250 EUR." in v.fix.replacement
    assert any(e.path == "shop/money.py" for e in v.evidence)
    raised, _ = reviewed[("raises_not", "bad")]
    assert "does not raise" in raised.rationale
    wrong, _ = reviewed[("raises_subclass", "bad")]
    assert "raises BadAmount" in wrong.rationale and any(e.note == "raised here" for e in wrong.evidence)


@pytest.mark.parametrize("cell", list(INCONCLUSIVE))
def test_inconclusive(reviewed, cell):
    v, _ = reviewed[(cell, "unsure")]
    assert v.reviewer == "execute" and v.verdict == "unverified", v.rationale
    assert "ran the stated call" in v.rationale  # probed, and said why the run decides nothing


def test_hang_is_killed_and_the_doc_goes_on(reviewed):
    v, after = reviewed[("hang", "unsure")]
    assert "timed out" in v.rationale
    assert after.verdict == "consistent", after.rationale


@pytest.mark.parametrize("key", [("returns_none", "ok"), ("no_raise", "ok"), ("writes_a_file", "ok")])
def test_a_probe_cannot_change_later_blocks(reviewed, key):
    """``q.push('b')`` ran in a fork, ``note`` wrote in a copy of the working directory: the block
    after them still sees one job and no file."""
    _, after = reviewed[key]
    assert after.verdict == "consistent", after.rationale


def test_probes_sit_in_document_order():
    text = DOC.format(body="`len(q)` is `1`.")
    kinds = [b.mode for b in plan_doc(extract_claims("docs/a.md", text))]
    assert kinds == ["exec", "probe", "exec"]


def _v(reviewer: str, label: str, *coverage: str) -> Verdict:
    return Verdict("c", label, reviewer, "why", coverage=coverage)  # type: ignore[arg-type]


def test_merge_a_run_contradiction_beats_a_static_guess():
    ran_bad = _v("execute", "contradicted", "runs:checked", "returns:checked")
    assert deciding_verdict([_v("static", "unverified"), ran_bad]) is ran_bad
    assert deciding_verdict([_v("static", "consistent", "names:checked"), ran_bad]) is ran_bad


def test_merge_a_match_decides_only_what_it_checked():
    ran_ok = _v("execute", "consistent", "runs:checked", "returns:checked")
    on_names = _v("static", "contradicted", "names:checked", "returns:unchecked")
    on_returns = _v("static", "contradicted", "returns:checked")
    on_default = _v("static", "contradicted", "default:checked")
    no_coverage = _v("static", "contradicted")
    assert deciding_verdict([on_names, ran_ok]) is ran_ok  # the call ran as written: the names hold
    assert deciding_verdict([on_returns, ran_ok]) is ran_ok  # the stated result was run
    assert deciding_verdict([ran_ok, on_default]) is on_default  # the run never looked at a default
    assert deciding_verdict([no_coverage, ran_ok]) is no_coverage
    block_ok = _v("execute", "consistent")
    assert deciding_verdict([on_returns, block_ok]) is on_returns  # a code block's run checked no return claim
    assert deciding_verdict([on_names, block_ok]) is block_ok



# --- derived probes: a ``Raises`` field with no call written (built from the project's own calls) ---
UNITS = '''
"""Units."""


class BadSize(ValueError):
    pass


def chunk(items, size):
    """Split ``items`` into lists of ``size``.

    Raises:
        BadSize: If ``size`` is smaller than 1.
        TypeError: If ``items`` is None.
    """
    if size < 1:
        raise BadSize(size)
    return [items[i:i + size] for i in range(0, len(items), size)]


def scale(value, factor):
    """Multiply.

    Raises:
        ValueError: If ``factor`` is negative, or when ``value`` is a float.
        KeyError: If ``factor`` is zero.
    """
    if factor < 0:
        raise ValueError(factor)
    return value * factor
'''
UNITS_TEST = '''
import pytest

from shop.units import chunk, scale


def test_chunk():
    assert chunk([1, 2, 3], 2) == [[1, 2], [3]]


def test_scale():
    assert scale(2, 3) == 6
    with pytest.raises(ValueError):
        scale(2, -5)
'''


@pytest.fixture(scope="module")
def derived(tmp_path_factory):
    root = tmp_path_factory.mktemp("derived") / "proj"
    write(root, "shop/__init__.py", "")
    write(root, "shop/units.py", UNITS)
    write(root, "tests/test_units.py", UNITS_TEST)
    engine = Engine.open(root)
    try:
        claims = extract_claims("shop/units.py", (root / "shop/units.py").read_text())
        verdicts = ExecuteReviewer(limits=Limits(block_seconds=10, doc_seconds=30), use_bwrap=False).review(
            claims, engine)
    finally:
        engine.close()
    return {c.text: v for c, v in zip(claims, verdicts, strict=True) if c.kind == "field"}


def _field(derived: dict[str, Verdict], start: str) -> Verdict:
    (v,) = [v for text, v in derived.items() if text.startswith(start)]
    return v


def test_derived_probe_holds(derived):
    v = _field(derived, "Raises: BadSize:")
    assert v.verdict == "unverified" and "built from `chunk([1, 2, 3], 2)`" in v.rationale, v.rationale
    assert "chunk([1, 2, 3], 0)" in v.rationale and "the rest of the sentence was not" in v.rationale


def test_derived_probe_contradicts(derived):
    v = _field(derived, "Raises: KeyError:")
    assert v.verdict == "contradicted" and "scale(2, 0)" in v.rationale and "does not raise" in v.rationale


def test_derived_probe_per_disjunct(derived):
    # ``factor`` negative raises ValueError (held); ``value`` a float does not raise: contradicted
    v = _field(derived, "Raises: ValueError:")
    assert v.verdict == "contradicted" and "scale(1.5, 3)" in v.rationale, v.rationale


def test_derived_probe_needs_one_value(derived):
    """``items`` None: the base call passes a list, None is one value: probed; the failing test input
    (inside ``pytest.raises``) is never a base call."""
    v = _field(derived, "Raises: TypeError:")
    assert "chunk(None, 2)" in v.rationale and v.verdict == "unverified"
    assert "scale(2, -5)" not in _field(derived, "Raises: ValueError:").rationale
