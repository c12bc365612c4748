"""Spec for issue 14's probes, written before the code that runs them.

A probe: a prose or docstring-field claim that states the outcome of a concrete call written in
inline code ("`f(2)` returns `4`", ":raises E: for ``f('x')``") is checked by running that
call in the doc's sandboxed session at the claim's position: names earlier code blocks of the
doc bound are visible, docstring claims see their module's globals, and the probe is isolated,
so later blocks run as if it had not.

Every cell is one sentence of a doc about one tiny package (``cellpkg``) and the label the
``execute`` verdict of the claim holding that sentence must carry:

- ``DEFECTS``: the stated outcome is false; ``contradicted`` or ``incomplete``, and the
  rationale names what the call really did;
- ``TWINS``: the correct twin of each defect, in the same form, worded a little differently so
  that only the fact differs; never flagged, ``consistent`` when the sentence is only the call
  and its outcome;
- ``INCONCLUSIVE``: a run cannot settle it (a name the doc never binds, a class where an instance
  is meant, the network, a file the doc did not create, a time, a random value, an address, a
  condition the session does not meet, an assertion besides the outcome); always ``unverified``;
- ``ISOLATION``: a probe that mutates the session's state, then a block whose stated output is
  right only if the probe did not run in the shared namespace; a probe that never returns
  (``unverified``), then a block that must still run and be judged.

Cells without state share a doc per form; a cell whose truth depends on the session's state has a
doc of its own, so one probe can never change another cell's expectation.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims import extract_claims
from caas_tui.review.execute import ExecuteReviewer, Limits
from caas_tui.review.execute.sandbox import bwrap_path
from tests.conftest import verdict_containing, write

needs_bwrap = pytest.mark.skipif(bwrap_path() is None, reason="bubblewrap not installed or not allowed to run here")

CORE = '''
import datetime
import random
import time
import urllib.request
from decimal import Decimal
from pathlib import Path


class PortError(ValueError):
    """A port number outside 1..65535."""


def double(x):
    return x * 2


def third(x):
    return x / 3


def nearest(x):
    return round(x)


def round_price(x):
    return round(x, 2)


def cents(text):
    return Decimal(text).quantize(Decimal("0.01"))


def fields(text):
    return text.split(",")


def weekday_of(text):
    return datetime.date.fromisoformat(text).weekday()


def key_for(name):
    return name.lower()


def flag(text):
    return bool(text)


def settle(table, key):
    return table.setdefault(key, [])


def lookup(table, key):
    return table[key]


def find(table, key):
    return table.get(key)


def remember(seen, item):
    seen.append(item)


def parse_port(text):
    port = int(text)
    if not 1 <= port <= 65535:
        raise PortError(f"port out of range: {port}")
    return port


def ratio(text):
    a, b = text.split("/")
    return int(a) / int(b)


def spin():
    while True:
        pass


def announce(n):
    print(f"{n} jobs queued")


def fetch(url):
    with urllib.request.urlopen(url, timeout=3) as response:
        return response.read().decode()


def load(path):
    return Path(path).read_text()


def stamp():
    return time.strftime("%H:%M:%S")


def today_iso():
    return datetime.date.today().isoformat()


def token():
    return f"{random.randrange(16**8):08x}"


class Handle:
    pass


class Money:
    def __init__(self, amount):
        self.amount = Decimal(amount)

    def __truediv__(self, parts):
        return Money(self.amount / parts)

    def __repr__(self):
        return f"Money('{self.amount}')"


class Queue:
    def __init__(self):
        self.jobs = []

    def push(self, job):
        self.jobs.append(job)

    def pop(self):
        return self.jobs.pop(0)

    def __len__(self):
        return len(self.jobs)
'''

# One module is its own doc: the module docstring and function docstrings (prose, Google
# ``Returns:`` / ``Raises:`` fields, Sphinx ``:raises E:``) state outcomes of calls to its globals.
DESCRIBED = '''
"""Helpers described in their own docstrings.

``double(4)`` returns ``8``.

``double(6)`` returns ``10``.
"""

from cellpkg.core import PortError, double, parse_port, ratio


def port_of(text):
    """The port number written in a string.

    Calling ``port_of('8080')`` gives ``8080``.

    Returns:
        int: the port, so ``port_of('22')`` returns ``22``.

    Raises:
        PortError: outside 1..65535, e.g. ``port_of('70000')``.
    """
    return parse_port(text)


def half_of(x):
    """Half of a number.

    You get ``4`` from ``half_of(10)``.

    Returns:
        float: half of it; ``half_of(6)`` returns ``2``.

    Raises:
        ValueError: for text, e.g. ``half_of('4')``.
    """
    return x / 2


def ratio_of(text):
    """The quotient of two integers written as text.

    :raises ZeroDivisionError: for ``ratio_of('2/0')``.
    :raises KeyError: for ``ratio_of('x')``.
    """
    return ratio(text)
'''

NAMES = ("Handle", "Money", "PortError", "announce", "cents", "double", "fetch", "fields", "find", "flag", "key_for",
         "load", "lookup", "nearest", "parse_port", "ratio", "remember", "round_price", "settle", "stamp", "third",
         "today_iso", "token", "weekday_of")
IMPORTS = "from cellpkg.core import (\n    " + ",\n    ".join(NAMES) + ",\n)"


def md_prose(lines: list[str]) -> str:
    paragraphs = "\n\n".join(lines)
    return f"# Guide\n\nFirst import the helpers:\n\n```python\n{IMPORTS}\n```\n\n{paragraphs}\n"


def rst_prose(lines: list[str]) -> str:
    code = "\n".join("   " + line for line in IMPORTS.split("\n"))
    paragraphs = "\n\n".join(lines)
    return f"Guide\n=====\n\nFirst import the helpers:\n\n.. code-block:: python\n\n{code}\n\n{paragraphs}\n"


def md_table(header: str) -> Callable[[list[str]], str]:
    def build(rows: list[str]) -> str:
        body = "\n".join(f"| {row} |" for row in rows)
        return (f"# Reference\n\n```python\n{IMPORTS}\n```\n\nWhat each call does:\n\n"
                f"| Call | {header} |\n|------|------|\n{body}\n")
    return build


def md_bullets(items: list[str]) -> str:
    body = "\n".join(f"- {item}" for item in items)
    return f"# Cheat sheet\n\n```python\n{IMPORTS}\n```\n\nQuick results:\n\n{body}\n"


def literal(text: str) -> Callable[[list[str]], str]:
    def build(_lines: list[str]) -> str:
        return text
    return build


QUEUE_THREE = '```python\nfrom cellpkg.core import Queue\n\nq = Queue()\nq.push("a")\nq.push("b")\nq.push("c")\n```'
QUEUE_TWO = '```python\nfrom cellpkg.core import Queue\n\nq = Queue()\nq.push("a")\nq.push("b")\n```'
QUEUE_ONE = '```python\nfrom cellpkg.core import Queue\n\nq = Queue()\nq.push("a")\n```'
PUSH_SECOND = '```python\nq.push("b")\nprint(len(q))  # 2\n```'
POP_ONE = "The first job leaves first:\n\n```python\nq.pop()\n```"
# the working directory is the session's: a file an earlier block writes is there for a later probe
WRITES_SETTINGS = ('```python\nfrom pathlib import Path\n\nfrom cellpkg.core import load\n\n'
                   'Path("settings.toml").write_text("x = 1")\n```')
POP_BOTH = "Both jobs are taken:\n\n```python\nq.pop()\nq.pop()\n```"


CLAIM = "<the cell's sentence>"


def walkthrough(*parts: str) -> Callable[[list[str]], str]:
    """A doc of code blocks and prose parts; each ``CLAIM`` part is the next cell's sentence."""
    def build(lines: list[str]) -> str:
        sentences = iter(lines)
        return "# Walkthrough\n\n" + "\n\n".join(next(sentences) if p == CLAIM else p for p in parts) + "\n"
    return build


# doc key -> (path in the project, how its text is built from the lines of its cells, in cell order)
DOCS: dict[str, tuple[str, Callable[[list[str]], str]]] = {
    "md": ("docs/guide.md", md_prose),
    "rst": ("docs/guide.rst", rst_prose),
    "table_returns": ("docs/returns.md", md_table("Returns")),
    "table_outcome": ("docs/outcomes.md", md_table("Outcome")),
    "bullets": ("docs/cheatsheet.md", md_bullets),
    "unknown": ("docs/unknown.md", md_prose),
    "docstrings": ("cellpkg/described.py", literal(DESCRIBED)),
    "queue_value_ok": ("docs/queue_value_ok.md", walkthrough(QUEUE_THREE, POP_ONE, CLAIM)),
    "queue_value_bad": ("docs/queue_value_bad.md", walkthrough(QUEUE_THREE, POP_ONE, CLAIM)),
    "queue_empty_ok": ("docs/queue_empty_ok.md", walkthrough(QUEUE_TWO, POP_BOTH, CLAIM)),
    "queue_empty_bad": ("docs/queue_empty_bad.md", walkthrough(QUEUE_TWO, POP_BOTH, CLAIM)),
    # the condition is not met where the claim stands: the queue still holds "a" and "b"
    "queue_not_empty": ("docs/queue_not_empty.md", walkthrough(QUEUE_TWO, CLAIM)),
    # ``late`` is bound only by a block after the claim
    "bound_later": ("docs/later.md", walkthrough(
        CLAIM,
        '```python\nfrom cellpkg.core import Queue\n\nlate = Queue()\nlate.push("z")\n```')),
    # the probe runs where the claim stands, before the block that pushes a second job
    "position_ok": ("docs/position_ok.md", walkthrough(QUEUE_ONE, CLAIM, PUSH_SECOND)),
    "position_bad": ("docs/position_bad.md", walkthrough(QUEUE_ONE, CLAIM, PUSH_SECOND)),
    "file_ok": ("docs/file_ok.md", walkthrough(WRITES_SETTINGS, CLAIM)),
    "file_bad": ("docs/file_bad.md", walkthrough(WRITES_SETTINGS, CLAIM)),
    "hang": ("docs/hang.md", walkthrough(
        '```python\nfrom cellpkg.core import Queue, spin\n\nq = Queue()\nq.push("a")\n```',
        CLAIM,
        '```python\nq.push("b")\nlen(q)  # -> 2\n```')),
    "isolation": ("docs/isolation.md", walkthrough(
        '```python\nfrom cellpkg.core import Queue\n\nq = Queue()\nq.push("a")\n```',
        CLAIM,
        '```python\nq.push("c")\nlen(q)  # -> 2\n```')),
}

CONSISTENT = "consistent"
UNVERIFIED = "unverified"
NOT_FLAGGED = "not flagged"  # a correct claim that asserts a little more than a run shows: any label but a defect's
DEFECT_LABELS = ("contradicted", "incomplete")


@dataclass(frozen=True)
class Cell:
    doc: str  # a key of DOCS
    text: str  # the sentence written into the doc (a table row's cells, a bullet's text); for a literal doc, a part
    # of the claim's text. Either way it picks the cell's verdict: exactly one claim of the doc contains it.
    # what the call really did, as a defect's rationale must name it (alternatives: any one will do;
    # empty where no short wording is the obvious one)
    did: str | tuple[str, ...] = ""
    expect: str = CONSISTENT  # a twin's label


# A stated outcome that is false. Keys are shared with TWINS.
DEFECTS: dict[str, Cell] = {
    "wrong_return": Cell("md", "Calling `double(21)` gives `40`.", did="42"),
    "none_for_a_value": Cell("md", "`settle({}, 'k')` returns `None`.", did="[]"),
    "value_for_none": Cell("md", "`remember([], 5)` returns `[5]`.", did="None"),
    "other_exception": Cell("md", "`lookup({}, 'y')` raises `AttributeError`.", did="KeyError"),
    "raises_but_returns": Cell("md", "`ratio('6/3')` raises `ZeroDivisionError`.", did="2.0"),
    "never_raises_but_does": Cell("md", "`parse_port('0')` never raises.", did="PortError"),
    "accepted_but_raises": Cell("md", "`parse_port('80.0')` is accepted too.", did="ValueError"),
    "is_false_wrong": Cell("md", "`flag('false')` is `False`.", did="True"),
    "negation_wrong": Cell("md", "`flag('no')` is not `True`."),  # bool('no') is True
    # the second outcome is the wrong one: checking the first call alone would call it consistent
    "second_of_two_wrong": Cell("md", "`double(1)` returns `2` and `double(2)` returns `5`.", did="4"),
    "same_but_distinct": Cell("md", "`key_for('Ann')` and `key_for('ann ')` are the same."),
    "distinct_but_equal": Cell("md", "`key_for('Eve')` and `key_for('EVE')` are distinct keys."),
    # a whole number stated for a fraction is not a rounding a reader can see: 0.67 is not 1
    "whole_for_a_fraction": Cell("md", "`third(2)` gives `1`.", did="0.6"),
    "float_round": Cell("md", "`round_price(2.675)` returns `2.68`."),  # "2.67" is in the claim's "2.675"
    "decimal_half_even": Cell("md", "`cents('2.345')` gives `Decimal('2.35')`.", did="Decimal('2.34')"),
    "split_keeps_empty": Cell("md", "`fields('a,b,')` produces `['a', 'b']`.", did="['a', 'b', '']"),
    "weekday_from_zero": Cell("md", "`weekday_of('2024-01-01')` returns `1`."),
    "prints_wrong": Cell("md", "`print(fields('p,q'))` prints `['p,q']`.", did="['p', 'q']"),
    # it prints the text and returns None: what it printed is not what it returns
    "printed_not_returned": Cell("md", "`announce(3)` returns `'3 jobs queued'`.", did="None"),
    "throws_other": Cell("rst", "``ratio('a/b')`` throws :exc:`ZeroDivisionError`.", did="ValueError"),
    "fails_with_other": Cell("rst", "``ratio('1/2/3')`` fails with :class:`IndexError`.", did="ValueError"),
    "rejected_with_superclass": Cell("rst", "``parse_port('')`` is rejected with :exc:`PortError`.", did="ValueError"),
    "decimal_zero_by_zero": Cell("rst", "``Money('0') / 0`` raises :exc:`ZeroDivisionError` as well.",
                                 did="InvalidOperation"),
    "does_not_raise_but_does": Cell("rst", "``ratio('4/0')`` does not raise.", did="ZeroDivisionError"),
    "table_round_half_even": Cell("table_returns", "`nearest(4.5)` | `5`"),  # "4" is in any rationale
    "table_raises_but_returns": Cell("table_outcome", "`find({}, 'z')` | raises `KeyError`", did="None"),
    "bullet_arrow": Cell("bullets", "`fields('a,,b')` → `['a', 'b']`", did="['a', '', 'b']"),
    "bullet_fat_arrow_rounding": Cell("bullets", "`third(2)` => `0.66`", did=("0.67", "0.666")),
    "module_docstring": Cell("docstrings", "``double(6)`` returns ``10``.", did="12"),
    "function_docstring": Cell("docstrings", "You get ``4`` from ``half_of(10)``.", did="5.0"),
    "google_returns": Cell("docstrings", "``half_of(6)`` returns ``2``.", did="3.0"),
    "google_raises": Cell("docstrings", "e.g. ``half_of('4')``.", did="TypeError"),
    "sphinx_raises": Cell("docstrings", ":raises KeyError: for ``ratio_of('x')``.", did="ValueError"),
    "earlier_block_value": Cell("queue_value_bad", "Next, `q.pop()` gives `'c'`.", did="'b'"),
    "earlier_block_raises": Cell("queue_empty_bad", "Popping once more, `q.pop()` throws `KeyError`.",
                                 did="IndexError"),
    "position_in_the_doc": Cell("position_bad", "So far `len(q)` is `2`.", did="1"),
    "file_the_doc_wrote": Cell("file_bad", "`load('settings.toml')` now returns `''`.", did="x = 1"),
}

TWINS: dict[str, Cell] = {
    "wrong_return": Cell("md", "You get `40` from `double(20)`."),
    "none_for_a_value": Cell("md", "`settle({'k': [1]}, 'k')` comes back as `[1]`."),
    "value_for_none": Cell("md", "`remember([], 3)` returned `None`."),
    "other_exception": Cell("md", "`lookup({}, 'x')` raises `LookupError`."),  # KeyError is a LookupError
    "raises_but_returns": Cell("md", "`ratio('6/0')` raises a `ZeroDivisionError`."),
    "never_raises_but_does": Cell("md", "`parse_port('1')` never raises an error."),
    "accepted_but_raises": Cell("md", "`parse_port(' 443 ')` is accepted."),
    "is_false_wrong": Cell("md", "`flag('')` is `False`."),
    "negation_wrong": Cell("md", "`flag('')` is not `True`."),
    "second_of_two_wrong": Cell("md", "`double(3)` gives `6`, and `double(5)` gives `10`."),
    "same_but_distinct": Cell("md", "`key_for('Bob')` and `key_for('BOB')` are equal."),
    "distinct_but_equal": Cell("md", "`key_for('Al')` and `key_for('Al ')` are distinct keys."),
    "whole_for_a_fraction": Cell("md", "`third(3)` gives `1`."),  # 1.0
    "float_round": Cell("md", "`round_price(2.675)` evaluates to `2.67`."),
    "decimal_half_even": Cell("md", "`cents('2.355')` gives `Decimal('2.36')`."),
    "split_keeps_empty": Cell("md", "`fields('a,b')` produces `['a', 'b']`."),
    "weekday_from_zero": Cell("md", "`weekday_of('2024-01-07')` will return `6`."),
    "prints_wrong": Cell("md", "`print(fields('x,y'))` prints `['x', 'y']`."),
    "printed_not_returned": Cell("md", "`announce(2)` prints `2 jobs queued`."),
    "throws_other": Cell("rst", "``ratio('1/0')`` throws :exc:`ZeroDivisionError`."),
    "fails_with_other": Cell("rst", "``ratio('3')`` fails with :class:`ValueError`."),
    "rejected_with_superclass": Cell("rst", "``parse_port('-1')`` is rejected with :exc:`PortError`."),
    # decimal.DivisionByZero is a ZeroDivisionError; 0 / 0 raises InvalidOperation, which is not
    "decimal_zero_by_zero": Cell("rst", "``Money('5') / 0`` raises :exc:`ZeroDivisionError`."),
    "does_not_raise_but_does": Cell("rst", "``ratio('4/2')`` does not raise an exception."),
    "table_round_half_even": Cell("table_returns", "`nearest(5.5)` | `6`"),
    "table_raises_but_returns": Cell("table_outcome", "`lookup({}, 'z')` | raises `KeyError`"),
    "bullet_arrow": Cell("bullets", "`fields('a,b,c')` → `['a', 'b', 'c']`"),
    "bullet_fat_arrow_rounding": Cell("bullets", "`third(1)` => `0.33`"),  # a stated rounding
    "module_docstring": Cell("docstrings", "``double(4)`` returns ``8``."),
    "function_docstring": Cell("docstrings", "Calling ``port_of('8080')`` gives ``8080``."),
    # the field's type and description ("int: the port") are more than the run shows
    "google_returns": Cell("docstrings", "``port_of('22')`` returns ``22``.", expect=NOT_FLAGGED),
    "google_raises": Cell("docstrings", "e.g. ``port_of('70000')``.", expect=NOT_FLAGGED),
    "sphinx_raises": Cell("docstrings", ":raises ZeroDivisionError: for ``ratio_of('2/0')``."),
    "earlier_block_value": Cell("queue_value_ok", "At this point `q.pop()` returns `'b'`."),
    # the run meets the condition ("once the queue is empty") but does not read it
    "earlier_block_raises": Cell("queue_empty_ok", "`q.pop()` raises `IndexError` once the queue is empty.",
                                 expect=NOT_FLAGGED),
    "position_in_the_doc": Cell("position_ok", "So far `len(q)` is `1`."),
    "file_the_doc_wrote": Cell("file_ok", "After that, `load('settings.toml')` returns `'x = 1'`."),
}

# A run cannot settle these: always ``unverified``, whatever the call does.
INCONCLUSIVE: dict[str, Cell] = {
    "placeholder_names": Cell("unknown", "`cache.get(key)` returns `None` for a missing key."),
    "class_for_an_instance": Cell("unknown", "`Money / 0` raises `ZeroDivisionError`."),
    "network": Cell("unknown", "`fetch('https://example.org/status')` returns `'ok'`."),
    "file_the_doc_never_wrote": Cell("unknown", "`load('settings.toml')` returns `''`."),
    "a_clock_time": Cell("unknown", "`stamp()` returns `'12:00:00'`."),
    "a_date_from_the_clock": Cell("unknown", "`today_iso()` gives `'2024-05-01'`."),
    "random": Cell("unknown", "`token()` gives `'3fa2c1d0'`."),
    "an_address": Cell("unknown", "`Handle()` evaluates to `<cellpkg.core.Handle object at 0x7f3a2c1d0b50>`."),
    "a_reason_besides": Cell("unknown", "`cents('1.5')` returns `Decimal('1.50')` because it caches the parsed value."),
    "an_effect_besides": Cell("unknown", "`parse_port('22')` returns `22` and logs a warning."),
    "no_outcome_stated": Cell("unknown", "Call `double(2)` whenever you need twice a value."),
    "condition_not_met_here": Cell("queue_not_empty", "`q.pop()` raises `IndexError` once the queue is empty."),
    "bound_by_a_later_block": Cell("bound_later", "`late.pop()` returns `'z'`."),
}

# The probe ``q.push('b')`` must not change what the next block sees; a probe that never returns is
# stopped (its time is the block's) and the doc's next block still runs, with the names bound before.
ISOLATION: dict[str, Cell] = {
    "the_probe": Cell("isolation", "`q.push('b')` returns `None`."),
    "the_block_after_it": Cell("isolation", "len(q)  # -> 2"),
    "a_probe_that_never_returns": Cell("hang", "`spin()` returns `None`.", expect=UNVERIFIED),
    "the_block_after_the_hang": Cell("hang", "len(q)  # -> 2"),
}

# the claim states no outcome: not a probe, so any reason to leave it unverified will do
NO_PROBE = {"no_outcome_stated"}
_FIRST_NAME = re.compile(r"`+([A-Za-z_]\w*)")

ALL_CELLS = [*DEFECTS.values(), *TWINS.values(), *INCONCLUSIVE.values(), *ISOLATION.values()]


def _docs() -> dict[str, tuple[str, str]]:
    """doc key -> (path, text)."""
    lines: dict[str, list[str]] = {key: [] for key in DOCS}
    for cell in ALL_CELLS:
        lines[cell.doc].append(cell.text)
    return {key: (path, build(lines[key])) for key, (path, build) in DOCS.items()}


def _project(root: Path) -> dict[str, tuple[str, str]]:
    write(root, "cellpkg/__init__.py", "")
    write(root, "cellpkg/core.py", CORE)
    docs = _docs()
    for path, text in docs.values():
        write(root, path, text)
    return {key: (path, (root / path).read_text(encoding="utf-8")) for key, (path, _) in docs.items()}


Pairs = dict[str, list[tuple[Claim, Verdict]]]


@pytest.fixture(scope="module", params=[pytest.param(None, marks=needs_bwrap, id="bwrap"),
                                        pytest.param(False, id="rlimits")])
def reviewed(request, tmp_path_factory) -> Pairs:
    root = tmp_path_factory.mktemp("probes") / "proj"
    docs = _project(root)
    engine = Engine.open(root)
    try:
        claims = [c for path, text in docs.values() for c in extract_claims(path, text)]
        reviewer = ExecuteReviewer(limits=Limits(block_seconds=10, doc_seconds=30), use_bwrap=request.param)
        verdicts = reviewer.review(claims, engine)
    finally:
        engine.close()
    by_path: dict[str, list[tuple[Claim, Verdict]]] = {path: [] for path, _ in docs.values()}
    for claim, verdict in zip(claims, verdicts, strict=True):
        by_path[claim.doc_path].append((claim, verdict))
    return {key: by_path[path] for key, (path, _) in docs.items()}


def _verdict(reviewed: Pairs, cell: Cell) -> Verdict:
    return verdict_containing(reviewed[cell.doc], cell.text)


def _alternatives(did: str | tuple[str, ...]) -> tuple[str, ...]:
    return tuple(d for d in ((did,) if isinstance(did, str) else did) if d)


def _ids(cells: dict[str, Cell]) -> list[str]:
    return list(cells)


def test_every_cell_is_one_claim_of_its_doc(tmp_path):
    """The matrix itself: each marker picks exactly one claim (no reviewer involved)."""
    docs = _project(tmp_path / "proj")
    assert DEFECTS.keys() == TWINS.keys()
    for cell in ALL_CELLS:
        path, text = docs[cell.doc]
        claims = extract_claims(path, text)
        hits = [c for c in claims if cell.text in c.text]
        assert len(hits) == 1, (cell.text, [c.text for c in claims])
        assert (hits[0].kind == "code") == ("#" in cell.text), hits[0].text
    for key, cell in DEFECTS.items():
        assert cell.doc.split("_")[0] == TWINS[key].doc.split("_")[0], key  # the same form
        # a defect's rationale quotes its claim: what the call did must be something the claim does not say
        assert not any(d in cell.text for d in _alternatives(cell.did)), key


@pytest.mark.parametrize("key", _ids(DEFECTS))
def test_defect_is_flagged(reviewed, key):
    v = _verdict(reviewed, DEFECTS[key])
    assert v.verdict in DEFECT_LABELS, (v.verdict, v.rationale)


@pytest.mark.parametrize("key", [k for k, c in DEFECTS.items() if c.did])
def test_defect_says_what_the_call_did(reviewed, key):
    v = _verdict(reviewed, DEFECTS[key])
    assert v.verdict in DEFECT_LABELS, (v.verdict, v.rationale)
    assert any(d in v.rationale for d in _alternatives(DEFECTS[key].did)), v.rationale


@pytest.mark.parametrize("key", _ids(TWINS))
def test_correct_twin(reviewed, key):
    cell = TWINS[key]
    v = _verdict(reviewed, cell)
    if cell.expect == NOT_FLAGGED:
        assert v.verdict not in DEFECT_LABELS, v.rationale
    else:
        assert v.verdict == CONSISTENT, (v.verdict, v.rationale)


@pytest.mark.parametrize("key", _ids(INCONCLUSIVE))
def test_inconclusive_stays_unverified(reviewed, key):
    v = _verdict(reviewed, INCONCLUSIVE[key])
    assert v.verdict == "unverified", (v.verdict, v.rationale)


def _called(cell: Cell) -> str:
    """The name the cell's first inline code starts with: ``cache`` of ``cache.get(key)``."""
    found = _FIRST_NAME.search(cell.text)
    assert found, cell.text
    return found.group(1)


@pytest.mark.parametrize("key", [k for k in INCONCLUSIVE if k not in NO_PROBE]
                         + [f"twin:{k}" for k, c in TWINS.items() if c.expect == NOT_FLAGGED])
def test_an_undecided_probe_says_what_it_could_not_settle(reviewed, key):
    """``unverified`` with what was and was not checked: the rationale names the call, never a
    generic "not a code block" (a cell whose claim states an outcome is a probe, decided or not)."""
    cell = TWINS[key.removeprefix("twin:")] if key.startswith("twin:") else INCONCLUSIVE[key]
    v = _verdict(reviewed, cell)
    if v.verdict != CONSISTENT:
        assert _called(cell) in v.rationale, (v.verdict, v.rationale)


@pytest.mark.parametrize("key", _ids(ISOLATION))
def test_a_probe_does_not_leak_into_later_blocks(reviewed, key):
    v = _verdict(reviewed, ISOLATION[key])
    assert v.verdict == ISOLATION[key].expect, (v.verdict, v.rationale)


@pytest.mark.parametrize(("key", "symbol"), [("wrong_return", "cellpkg.core.double"),
                                             ("other_exception", "cellpkg.core.lookup"),
                                             ("earlier_block_value", "cellpkg.core.Queue.pop"),
                                             ("google_raises", "cellpkg.described.half_of")])
def test_defect_points_at_the_called_definition(reviewed, key, symbol):
    v = _verdict(reviewed, DEFECTS[key])
    assert v.verdict in DEFECT_LABELS and symbol in [e.symbol for e in v.evidence], (v.rationale, v.evidence)
