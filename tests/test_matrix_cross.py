"""Form-coverage matrix for cross-file and cross-system claims (#14).

One small project (``tidekit``) with upstream pages, and per cell one defect and one correct
twin, each in its own doc (or module) so that neither sees the other. Cells cross what the
truth depends on -- a helper one or two hops away in another module, a base class or mixin,
a property computed by a helper, a constant in another module, an upstream rule, a wrapper
overriding an upstream default, a platform (stdlib) behaviour -- with the forms a claim takes:
prose with inline code, reST roles, docstring fields (Google, NumPy, Sphinx), module and
class docstrings, code blocks. A defect must be flagged; its twin must not be.

Cells the reviewer cannot decide yet are marked ``xfail(strict=True)`` with the reason, so a
cell that starts passing is noticed.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer

from .conftest import write

FLAGS = ("contradicted", "incomplete")

CODE = {
    "tidekit/__init__.py": '"""Tide tables and small storage helpers."""\n',
    "tidekit/constants.py": '''
        """Shared settings."""

        DEFAULT_TIMEOUT = 10.0
        FLUSH_INTERVAL = 0.5
        ''',
    "tidekit/backend.py": '''
        """Storage backends."""


        class MemoryBackend:
            def __init__(self) -> None:
                self._data: dict[str, str] = {}

            def lookup(self, key: str) -> str | None:
                return self._data.get(key)

            def fetch(self, key: str) -> str:
                return self._data[key]

            def keys(self) -> list[str]:
                return list(self._data)

            def sorted_keys(self) -> list[str]:
                return sorted(self._data)


        class Index:
            def __init__(self) -> None:
                self.backend = MemoryBackend()

            def find(self, key: str) -> str | None:
                return self.backend.lookup(key)

            def need(self, key: str) -> str:
                return self.backend.fetch(key)
        ''',
    "tidekit/mixins.py": '''
        """Behaviour shared by stores."""


        class DescribeMixin:
            def describe(self) -> str:
                return type(self).__name__


        class BaseStore:
            def __init__(self) -> None:
                self._closed = False

            def clear(self) -> None:
                self._closed = False

            def close(self) -> None:
                if self._closed:
                    raise RuntimeError("already closed")
                self._closed = True
        ''',
    "tidekit/sums.py": '''
        """Arithmetic helpers."""


        def compute_total(values: list[float]) -> float:
            return float(sum(values))


        def compute_count(values: list[float]) -> int:
            return len(values)
        ''',
    "tidekit/store.py": '''
        """The key-value store."""

        from tidekit.backend import Index, MemoryBackend
        from tidekit.constants import DEFAULT_TIMEOUT, FLUSH_INTERVAL
        from tidekit.mixins import BaseStore, DescribeMixin
        from tidekit.sums import compute_count, compute_total


        class Store(BaseStore, DescribeMixin):
            def __init__(self, timeout: float = DEFAULT_TIMEOUT, flush_every: float = FLUSH_INTERVAL) -> None:
                super().__init__()
                self.backend = MemoryBackend()
                self.index = Index()
                self.timeout = timeout
                self.flush_every = flush_every
                self.amounts: list[float] = []

            def get(self, key: str) -> str | None:
                return self.backend.lookup(key)

            def require(self, key: str) -> str:
                return self.backend.fetch(key)

            def find(self, key: str) -> str | None:
                return self.index.find(key)

            def need(self, key: str) -> str:
                return self.index.need(key)

            def names(self) -> list[str]:
                return self.backend.keys()

            def sorted_names(self) -> list[str]:
                return self.backend.sorted_keys()

            @property
            def total(self):
                return compute_total(self.amounts)

            @property
            def count(self):
                return compute_count(self.amounts)
        ''',
    "tidekit/registry.py": '''
        """Named entries."""


        class Registry:
            def __init__(self) -> None:
                self._items: dict[str, int] = {}

            def add(self, name: str, value: int) -> None:
                self._items[name] = value

            def names(self) -> list[str]:
                return list(self._items)

            def sorted_names(self) -> list[str]:
                return sorted(self._items)
        ''',
    "tidekit/clock.py": '''
        """Timestamps."""

        import datetime
        import time


        def stamp() -> datetime.datetime:
            return datetime.datetime.now()


        def utc_stamp() -> datetime.datetime:
            return datetime.datetime.now(datetime.timezone.utc)


        class Timer:
            def __init__(self) -> None:
                self._start = time.time()

            def elapsed(self) -> float:
                return time.time() - self._start


        class SteadyTimer:
            def __init__(self) -> None:
                self._start = time.monotonic()

            def elapsed(self) -> float:
                return time.monotonic() - self._start
        ''',
    "tidekit/money.py": '''
        """Money and numbers."""

        import math
        from decimal import ROUND_HALF_UP, Decimal


        def to_cents(amount: float) -> int:
            return round(amount * 100)


        def to_cents_half_up(amount: float) -> int:
            return int(Decimal(str(amount * 100)).quantize(Decimal("1"), rounding=ROUND_HALF_UP))


        def whole(x: float) -> int:
            return int(x)


        def nearest(x: float) -> int:
            return round(x)


        def lowest(x: float) -> int:
            return math.floor(x)
        ''',
    "tidekit/export.py": '''
        """JSON export."""

        import json


        def dump_tags(tags: set[str]) -> str:
            return json.dumps(tags)


        def dump_tags_sorted(tags: set[str]) -> str:
            return json.dumps(sorted(tags))
        ''',
    "tidekit/patterns.py": '''
        """Pattern tests."""

        import re


        def matches(pattern: str, text: str) -> bool:
            return re.match(pattern, text) is not None


        def contains(pattern: str, text: str) -> bool:
            return re.search(pattern, text) is not None


        def is_token(text: str) -> bool:
            return re.match(r"[a-z]+", text) is not None


        def is_word(text: str) -> bool:
            return re.fullmatch(r"[a-z]+", text) is not None
        ''',
    "tidekit/session.py": '''
        """Sessions over the tidewire library."""

        import tidewire


        def open_session(host: str):
            return tidewire.connect(host, timeout=None)


        def open_quick(host: str):
            return tidewire.connect(host)


        def push(msg: bytes):
            return tidewire.send(msg, retries=0)


        def push_default(msg: bytes):
            return tidewire.send(msg)
        ''',
    "tidekit/http.py": '''
        """Checking responses."""


        class HttpError(Exception):
            pass


        class Response:
            def __init__(self, status: int) -> None:
                self.status_code = status


        def check(resp: Response) -> Response:
            if resp.status_code >= 500:
                raise HttpError(resp.status_code)
            return resp


        def check_all(resp: Response) -> Response:
            if resp.status_code >= 400:
                raise HttpError(resp.status_code)
            return resp


        def should_retry(status: int) -> bool:
            return status in (502, 503, 504)
        ''',
    "upstream/tidewire-protocol.md": """
        # Tidewire protocol (excerpt)

        Tidewire message names are case-insensitive.

        A Tidewire session expires after 300 seconds of inactivity.

        The Tidewire heartbeat interval is given in milliseconds.

        A client MUST NOT resend a message that the server acknowledged.

        A server MUST send a heartbeat frame on every open session.

        The maximum Tidewire frame size is 65536 bytes.
        """,
    "upstream/tidewire-library.md": """
        # tidewire client library (reference excerpt)

        `tidewire.connect(host, timeout=30)` opens a session. The `timeout` defaults to 30 seconds;
        `None` waits forever.

        `tidewire.send(msg, retries=3)` sends one message and retries a failed send 3 times by default.
        """,
}


@dataclass(frozen=True)
class Cell:
    name: str
    bad: tuple[str, str]  # (doc path, a part of the defect claim's text)
    good: tuple[str, str]
    xfail: str = ""


DOCS: dict[str, str] = {}
CELLS: list[Cell] = []


def md(name: str, bad: str, good: str, *, probe: tuple[str, str] | None = None, xfail: str = "") -> None:
    """A prose cell: each claim in its own Markdown page."""
    for which, text in (("bad", bad), ("good", good)):
        DOCS[f"docs/{name}_{which}.md"] = f"# Notes on {name.replace('_', ' ')}\n\n{text}\n"
    pb, pg = probe or (bad.strip().splitlines()[0][:40], good.strip().splitlines()[0][:40])
    CELLS.append(Cell(name, (f"docs/{name}_bad.md", pb), (f"docs/{name}_good.md", pg), xfail))


def rst(name: str, bad: str, good: str, *, probe: tuple[str, str] | None = None, xfail: str = "") -> None:
    for which, text in (("bad", bad), ("good", good)):
        title = f"Notes on {name.replace('_', ' ')}"
        DOCS[f"docs/{name}_{which}.rst"] = f"{title}\n{'=' * len(title)}\n\n{text}\n"
    pb, pg = probe or (bad.strip().splitlines()[0][:40], good.strip().splitlines()[0][:40])
    CELLS.append(Cell(name, (f"docs/{name}_bad.rst", pb), (f"docs/{name}_good.rst", pg), xfail))


def module(name: str, bad: str, good: str, probe: tuple[str, str], *, xfail: str = "") -> None:
    """A docstring cell: each variant is a module of its own."""
    DOCS[f"tidekit/m_{name}_bad.py"] = bad
    DOCS[f"tidekit/m_{name}_good.py"] = good
    CELLS.append(Cell(name, (f"tidekit/m_{name}_bad.py", probe[0]), (f"tidekit/m_{name}_good.py", probe[1]), xfail))


# -- a claim about delegated behaviour ---------------------------------------------------------
md("deleg1_raise_prose",
   "`Store.get(key)` raises `KeyError` when the key is missing.",
   "`Store.require(key)` raises `KeyError` when the key is missing.")
md("deleg1_none_prose",
   "`Store.require(key)` gives back `None` for a key that was never stored.",
   "`Store.get(key)` gives back `None` for a key that was never stored.")
md("deleg2_raise_prose",
   "An unknown key makes `Store.find(key)` raise `KeyError`.",
   "An unknown key makes `Store.need(key)` raise `KeyError`.")
md("deleg2_none_prose",
   "`Store.need(key)` returns `None` if nothing is stored under `key`.",
   "`Store.find(key)` returns `None` if nothing is stored under `key`.")
rst("deleg1_raise_roles",
    ":meth:`Store.get` raises :exc:`KeyError` for a missing key.",
    ":meth:`Store.require` raises :exc:`KeyError` for a missing key.")
module("deleg_google_raises",
       '''
       """A vault over the memory backend."""

       from tidekit.backend import MemoryBackend


       class Vault:
           def __init__(self) -> None:
               self.backend = MemoryBackend()

           def read(self, key: str) -> str | None:
               """Read one entry.

               Raises:
                   KeyError: if the key was never written.
               """
               return self.backend.lookup(key)
       ''',
       '''
       """A vault over the memory backend."""

       from tidekit.backend import MemoryBackend


       class Vault:
           def __init__(self) -> None:
               self.backend = MemoryBackend()

           def read(self, key: str) -> str:
               """Read one entry.

               Raises:
                   KeyError: if the key was never written.
               """
               return self.backend.fetch(key)
       ''',
       ("KeyError: if the key was never written", "KeyError: if the key was never written"))
module("deleg_sphinx_returns",
       '''
       """A ledger over the index."""

       from tidekit.backend import Index


       class Ledger:
           def __init__(self) -> None:
               self.index = Index()

           def entry(self, key: str):
               """One entry.

               :returns: ``None`` when the key is unknown.
               """
               return self.index.need(key)
       ''',
       '''
       """A ledger over the index."""

       from tidekit.backend import Index


       class Ledger:
           def __init__(self) -> None:
               self.index = Index()

           def entry(self, key: str):
               """One entry.

               :returns: ``None`` when the key is unknown.
               """
               return self.index.find(key)
       ''',
       (":returns: ``None`` when the key is unknown", ":returns: ``None`` when the key is unknown"))
md("deleg_codeblock",
   "Reading a key that was never stored:\n\n```python\nfrom tidekit.store import Store\n\nstore = Store()\n"
   "store.require(\"nope\")  # returns None\n```",
   "Reading a key that was never stored:\n\n```python\nfrom tidekit.store import Store\n\nstore = Store()\n"
   "store.get(\"nope\")  # returns None\n```",
   probe=("store.require", "store.get"))

# -- a method on a base class or a mixin ---------------------------------------------------------
md("base_return_prose",
   "`Store.clear()` returns the number of entries it removed as an `int`.",
   "`Store.clear()` returns `None`.")
md("base_return_plain",
   "Calling `Store.clear()` gives you an `int` back; `Store.clear()` returns an `int`.",
   "`Store.clear()` returns `None`.",
   probe=("gives you an `int` back", "returns `None`"))
md("base_raise_prose",
   "Closing a closed store is an error: `Store.close()` raises `ValueError` the second time.",
   "Closing a closed store is an error: `Store.close()` raises `RuntimeError` the second time.")
rst("mixin_return_roles",
    ":meth:`Store.describe` returns a :class:`dict` summary.",
    ":meth:`Store.describe` returns a :class:`str` summary.")
module("base_class_docstring",
       '''
       """A cache store."""

       from tidekit.mixins import BaseStore


       class Cache(BaseStore):
           """A store in memory. :meth:`close` raises :exc:`ValueError` when called twice."""
       ''',
       '''
       """A cache store."""

       from tidekit.mixins import BaseStore


       class Cache(BaseStore):
           """A store in memory. :meth:`close` raises :exc:`RuntimeError` when called twice."""
       ''',
       ("raises :exc:`ValueError`", "raises :exc:`RuntimeError`"))

# -- a property computed by a helper in another module -----------------------------------------------
md("prop_helper_type",
   "`Store.total` returns a `str`: the sum of the amounts.",
   "`Store.total` returns a `float`: the sum of the amounts.")
md("prop_helper_type2",
   "`Store.count` is a `str`.",
   "`Store.count` is an `int`.")

# -- a constant in another module ---------------------------------------------------------------
md("const_default_prose",
   "By default `Store` gives up after 30 seconds (`timeout`).",
   "By default `Store` gives up after 10 seconds (`timeout`).",
   xfail="factchecks ties no parameter named after the quantity in parentheses to the quantity")
md("const_units_prose",
   "`Store(flush_every=...)` defaults to 250 ms.",
   "`Store(flush_every=...)` defaults to 500 ms.")
md("const_units_words",
   "`Store` takes `flush_every`, which defaults to 250 ms.",
   "`Store` takes `flush_every`, which defaults to 500 ms.")
md("const_default_words",
   "The `timeout` of `Store` defaults to 30 seconds.",
   "The `timeout` of `Store` defaults to 10 seconds.")
module("const_numpy_field",
       '''
       """Opening stores."""

       from tidekit.constants import DEFAULT_TIMEOUT


       def open_store(timeout: float = DEFAULT_TIMEOUT) -> None:
           """Open a store.

           Parameters
           ----------
           timeout : float
               Seconds to wait. Defaults to 30.
           """
       ''',
       '''
       """Opening stores."""

       from tidekit.constants import DEFAULT_TIMEOUT


       def open_store(timeout: float = DEFAULT_TIMEOUT) -> None:
           """Open a store.

           Parameters
           ----------
           timeout : float
               Seconds to wait. Defaults to 10.
           """
       ''',
       ("Defaults to 30", "Defaults to 10"))

# -- an upstream rule restated with the wrong polarity, number, unit or keyword -----------------------
md("up_polarity_prose",
   "Tidewire message names are case-sensitive, so `Ping` and `ping` differ.",
   "Tidewire message names are case-insensitive, so `Ping` and `ping` are the same.")
rst("up_polarity_rst",
    "Per the Tidewire protocol, message names are case-sensitive (see :mod:`tidekit.session`).",
    "Per the Tidewire protocol, message names are case-insensitive (see :mod:`tidekit.session`).")
md("up_number_prose",
   "A Tidewire session expires after 30 minutes of inactivity.",
   "A Tidewire session expires after 5 minutes of inactivity.")
md("up_unit_prose",
   "The Tidewire heartbeat interval is given in seconds.",
   "The Tidewire heartbeat interval is given in milliseconds.")
md("up_keyword_prose",
   "A Tidewire client may resend a message that the server acknowledged.",
   "A Tidewire client must not resend a message that the server acknowledged.")
md("up_keyword_required",
   "In Tidewire, a server may send a heartbeat frame on every open session.",
   "In Tidewire, a server must send a heartbeat frame on every open session.")
md("up_size_prose",
   "The maximum Tidewire frame size is 64 MiB.",
   "The maximum Tidewire frame size is 64 KiB.")
module("up_module_docstring",
       '''
       """Frames for the Tidewire protocol. A Tidewire session expires after 30 minutes of inactivity."""
       ''',
       '''
       """Frames for the Tidewire protocol. A Tidewire session expires after 300 seconds of inactivity."""
       ''',
       ("expires after 30 minutes", "expires after 300 seconds"))

# -- the project's wrapper overrides an upstream default ------------------------------------------
md("wrap_timeout_prose",
   "`open_session(host)` gives up after 30 seconds, the tidewire library's default timeout.",
   "`open_quick(host)` gives up after 30 seconds, the tidewire library's default timeout.")
md("wrap_retries_prose",
   "`push(msg)` retries a failed send 3 times, as tidewire does.",
   "`push_default(msg)` retries a failed send 3 times, as tidewire does.")
module("wrap_docstring",
       '''
       """Quick sessions."""

       import tidewire


       def dial(host: str):
           """Open a session; it times out after 30 seconds."""
           return tidewire.connect(host, timeout=None)
       ''',
       '''
       """Quick sessions."""

       import tidewire


       def dial(host: str):
           """Open a session; it times out after 30 seconds."""
           return tidewire.connect(host, timeout=30)
       ''',
       ("times out after 30 seconds", "times out after 30 seconds"))

# -- HTTP status classes (RFC 9110) against the code's status test --------------------------------
_NO_STATUS = ("no check compares HTTP status classes with the code's status test yet: a first one (H8, session 5) "
              "flagged a correct claim of a held-out project and was withdrawn")
md("http_raise_prose",
   "`check(resp)` raises `HttpError` for 4xx and 5xx responses.",
   "`check_all(resp)` raises `HttpError` for 4xx and 5xx responses.", xfail=_NO_STATUS)
rst("http_raise_roles",
    ":func:`tidekit.http.check` raises :exc:`~tidekit.http.HttpError` on client errors.",
    ":func:`tidekit.http.check_all` raises :exc:`~tidekit.http.HttpError` on client errors.", xfail=_NO_STATUS)
md("http_retry_codes",
   "`should_retry(status)` is true for every 5xx status.",
   "`should_retry(status)` is true for the statuses 502, 503 and 504.", xfail=_NO_STATUS)
module("http_success_docstring",
       '''
       """Success tests."""


       def is_ok(status: int) -> bool:
           """Tell whether the status is a success: any 2xx status counts."""
           return status == 200
       ''',
       '''
       """Success tests."""


       def is_ok(status: int) -> bool:
           """Tell whether the status is a success: any 2xx status counts."""
           return 200 <= status < 300
       ''',
       ("any 2xx status counts", "any 2xx status counts"), xfail=_NO_STATUS)

# -- platform (stdlib) behaviour the code relies on ---------------------------------------------
md("std_order_prose",
   "`Registry.names()` returns the names in alphabetical order.",
   "`Registry.sorted_names()` returns the names in alphabetical order.")
md("std_order_insertion",
   "`Registry.sorted_names()` returns the names in the order they were added.",
   "`Registry.names()` returns the names in the order they were added.")
md("std_order_delegated",
   "`Store.names()` lists the keys sorted.",
   "`Store.sorted_names()` lists the keys sorted.")
module("std_order_docstring",
       '''
       """Tag lists."""


       class Tags:
           def __init__(self) -> None:
               self._seen: dict[str, bool] = {}

           def all(self) -> list[str]:
               """Return every tag, sorted."""
               return list(self._seen.keys())
       ''',
       '''
       """Tag lists."""


       class Tags:
           def __init__(self) -> None:
               self._seen: dict[str, bool] = {}

           def all(self) -> list[str]:
               """Return every tag, sorted."""
               return sorted(self._seen.keys())
       ''',
       ("Return every tag, sorted", "Return every tag, sorted"))
md("std_utc_prose",
   "`stamp()` returns the current time in UTC.",
   "`utc_stamp()` returns the current time in UTC.")
module("std_aware_google",
       '''
       """Now."""

       import datetime


       def now() -> datetime.datetime:
           """The current time.

           Returns:
               datetime: a timezone-aware timestamp.
           """
           return datetime.datetime.now()
       ''',
       '''
       """Now."""

       import datetime


       def now() -> datetime.datetime:
           """The current time.

           Returns:
               datetime: a timezone-aware timestamp.
           """
           return datetime.datetime.now(tz=datetime.timezone.utc)
       ''',
       ("a timezone-aware timestamp", "a timezone-aware timestamp"))
rst("std_utc_module_role",
    "Timestamps from :func:`tidekit.clock.stamp` carry UTC time.",
    "Timestamps from :func:`tidekit.clock.utc_stamp` carry UTC time.")
md("std_round_prose",
   "`to_cents(amount)` rounds half a cent up.",
   "`to_cents_half_up(amount)` rounds half a cent up.")
rst("std_round_roles",
    ":func:`tidekit.money.to_cents` rounds halves away from zero.",
    ":func:`tidekit.money.to_cents_half_up` rounds halves away from zero.")
md("std_bankers",
   "`to_cents_half_up(amount)` uses banker's rounding (half to even).",
   "`to_cents(amount)` uses banker's rounding (half to even).")
md("std_int_prose",
   "`whole(x)` rounds `x` to the nearest integer.",
   "`nearest(x)` rounds `x` to the nearest integer.")
md("std_floor_prose",
   "`lowest(x)` rounds `x` up to the next integer.",
   "`lowest(x)` rounds `x` down to the next integer.")
md("std_json_set",
   "`dump_tags(tags)` writes the tag set as a JSON array.",
   "`dump_tags_sorted(tags)` writes the tag set as a JSON array.")
md("std_monotonic",
   "`Timer.elapsed()` reads a monotonic clock, so setting the system clock does not change it.",
   "`SteadyTimer.elapsed()` reads a monotonic clock, so setting the system clock does not change it.")
md("std_re_anywhere",
   "`matches(pattern, text)` finds the pattern anywhere in `text`.",
   "`contains(pattern, text)` finds the pattern anywhere in `text`.")
md("std_re_whole",
   "`is_token(text)` is true only when the whole of `text` matches.",
   "`is_word(text)` is true only when the whole of `text` matches.")
module("std_re_module_docstring",
       '''
       """Search helpers: :func:`find_at` looks for the pattern anywhere in the string."""

       import re


       def find_at(pattern: str, text: str):
           return re.match(pattern, text)
       ''',
       '''
       """Search helpers: :func:`find_at` looks for the pattern anywhere in the string."""

       import re


       def find_at(pattern: str, text: str):
           return re.search(pattern, text)
       ''',
       ("looks for the pattern anywhere", "looks for the pattern anywhere"))


DOCS["docs/numeric_type.md"] = "# Counting\n\n`Store.count` is a `float`.\n"


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("matrix") / "proj"
    for rel, text in {**CODE, **DOCS}.items():
        write(root, rel, text)
    eng = Engine.open(root)
    yield eng
    eng.close()


_PAIRS: dict[str, list[tuple[Claim, Verdict]]] = {}


def _verdict(engine: Engine, doc: str, part: str) -> Verdict:
    if doc not in _PAIRS:
        _PAIRS[doc] = review_doc(engine, doc, StaticReviewer()).pairs()
    hits = [v for c, v in _PAIRS[doc] if part in c.text]
    assert len(hits) == 1, (doc, part, [c.text for c, _ in _PAIRS[doc]])
    return hits[0]


@pytest.mark.parametrize(
    "cell", [pytest.param(c, id=c.name, marks=[pytest.mark.xfail(strict=True, reason=c.xfail)] if c.xfail else [])
             for c in CELLS])
def test_defect_flagged_and_twin_not(engine: Engine, cell: Cell) -> None:
    bad = _verdict(engine, *cell.bad)
    good = _verdict(engine, *cell.good)
    assert good.verdict not in FLAGS, (cell.name, "twin flagged", good.rationale)
    assert bad.verdict in FLAGS, (cell.name, "defect not flagged", bad.verdict, bad.rationale)


def test_numeric_types_of_a_forwarded_result_stay_unverified(engine: Engine) -> None:
    """``-> int`` against "a `float`" decides nothing (numbers widen), and must not be green."""
    verdict = _verdict(engine, "docs/numeric_type.md", "is a `float`")
    assert verdict.verdict == "unverified", verdict.rationale


def test_http_status_conditions_are_never_green(engine: Engine) -> None:
    """The statuses a raise claim names are a condition no check reads: not ``consistent``."""
    for doc, part in (("docs/http_raise_prose_bad.md", "`check(resp)`"), ("docs/http_raise_prose_good.md", "`check_all")):
        verdict = _verdict(engine, doc, part)
        assert verdict.verdict == "unverified", verdict.rationale
        assert "4xx, 5xx" in verdict.rationale


def test_matrix_has_the_planned_size() -> None:
    assert len(CELLS) >= 40
    assert len({c.name for c in CELLS}) == len(CELLS)
