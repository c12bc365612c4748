"""Raise claims a condition settles (issue 14): the exception a callee deeper down raises on
the stated condition, an exception a docstring names without importing it, a parameter
annotated with a project class (``book.get(...)``), a clock or hook the caller passes in, a
condition worded as a called operation failing, a fallback promised before the raise, and
what dividing by a zero parameter, looking a missing key up in a plain ``dict`` or converting
a text that is not a number raises.

Each defect is written in several forms (Google / NumPy / Sphinx fields, prose in a
docstring, Markdown with inline code, reST roles) with a correct twin that must stay
unflagged; a claim the code does not settle (untyped operands, a validator call, a changed
decimal context) must stay unflagged too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer

from .conftest import write

FLAGS = ("contradicted", "incomplete")

ERRORS = '''
class LedgerError(Exception):
    """Base of the ledger's errors."""


class NotFound(LedgerError, LookupError):
    """No entry under a key."""


class Expired(LedgerError):
    """The entry is too old."""


class Refused(LedgerError, ValueError):
    """Bad input."""
'''

ENTRIES = '''
from ledger.errors import Expired


class Entry:
    def __init__(self, value: int, born: int, ttl: int) -> None:
        self.value = value
        self.born = born
        self.ttl = ttl

    def is_expired(self, now: int) -> bool:
        return now - self.born > self.ttl


def check_fresh(entry: Entry, now: int) -> Entry:
    if entry.is_expired(now):
        raise Expired("entry expired")
    return entry


def parse_number(text: object) -> int:
    if isinstance(text, float):
        raise TypeError("floats are inexact; round them to convert one on purpose")
    return int(str(text))
'''

BOOK = '''
from collections.abc import Callable

from ledger.entries import Entry, check_fresh, parse_number
from ledger.errors import NotFound


class Book:
    def __init__(self, clock: Callable[[], int]) -> None:
        self._clock = clock
        self._entries: dict[str, Entry] = {}

    def _fresh(self, entry: Entry, now: int) -> Entry:
        return check_fresh(entry, now)

    def _lookup(self, key: str, now: int) -> Entry:
        entry = self._entries.get(key)
        if entry is None:
            raise NotFound(key)
        return self._fresh(entry, now)

    def get(self, key: str) -> int:
        now = self._clock()
        return self._lookup(key, now).value

    def convert(self, key: str, raw: object) -> int:
        now = self._clock()
        return self._lookup(key, now).value * parse_number(raw)

    def get_archived(self, key: str) -> int:
        now = self._clock()
        entry = self._entries.get(key)
        if entry is not None and entry.is_expired(now):
            entry = self._entries.get(key + ".old", entry)
        if entry is None:
            raise NotFound(key)
        return check_fresh(entry, now).value

    def convert_doc(self, key: str, raw: object) -> int:
        """Scale one entry.

        Raises:
            NotFound: If the key is unknown.
            Expired: If the entry has expired.
        """
        now = self._clock()
        return self._lookup(key, now).value * parse_number(raw)
'''

# a condition that is one call failing ("cannot be converted" over ``book.convert_doc(...)``): the
# entry must name every project exception that call documents and raises and the wrapper lets out
TOTAL_DOCS = {
    "total_google": "Raises:\n    NotFound: If some key cannot be converted.",
    "total_google_ok": "Raises:\n    NotFound: If some key cannot be converted.\n    Expired: If its entry has expired.",
    "total_numpy": "Raises\n------\nNotFound\n    If the key cannot be converted.",
    "total_numpy_ok": "Raises\n------\nNotFound, Expired\n    If the key cannot be converted.",
    "total_sphinx": ":raises NotFound: if a key fails to convert.",
    "total_sphinx_ok": ":raises LedgerError: if a key fails to convert.",
    "total_caught": "Raises:\n    NotFound: If some key cannot be converted.",
    "total_md": None,
    "total_md_ok": None,
}

# docstring forms of "NotFound ... also when the entry has expired" (defect) and the split entries (twin)
FETCH_DOCS = {
    "fetch_google": "Raises:\n    NotFound: If the key is unknown. Also raised when the entry has expired.",
    "fetch_google_ok": "Raises:\n    NotFound: If the key is unknown.\n    Expired: If the entry has expired.",
    "fetch_numpy": "Raises\n------\nNotFound\n    If the key is unknown.\n    Also raised when the entry has expired.",
    "fetch_numpy_ok": "Raises\n------\nNotFound\n    If the key is unknown.\nExpired\n    If the entry has expired.",
    "fetch_sphinx": ":raises NotFound: when the entry has expired.",
    "fetch_sphinx_ok": ":raises Expired: when the entry has expired.",
    "fetch_prose": "Asking for an entry that has expired raises ``NotFound``.",
    "fetch_prose_ok": "Asking for an entry that has expired raises ``Expired``.",
    # "falls back ... before this is raised": nothing looks at ``is_expired`` before the raise does
    "fetch_back_google": "Raises:\n    Expired: If the entry has expired. An expired entry falls back to the archive"
                         " before this is raised.",
    "fetch_back_numpy": "Raises\n------\nExpired\n    If the entry has expired.\n    An expired entry falls back"
                        " to the archive before this is raised.",
    "fetch_back_sphinx": ":raises Expired: if the entry has expired. An expired entry falls back to the archive"
                         " before it is raised.",
    "fetch_back_archived": "Raises:\n    Expired: If the entry has expired. An expired entry falls back to the"
                           " archive before this is raised.",
    "fetch_back_caught": "Raises:\n    Expired: If the entry has expired. An expired entry falls back to the"
                         " archive before this is raised.",
    "fetch_md": None,
    "fetch_md_ok": None,
    # "cannot be converted" is the called operation failing: a word of an unrelated message
    # (``parse_number``'s "to convert one on purpose") must not pick its class
    "total_of": "Raises:\n    NotFound: If some key cannot be converted.",
}


def _indent(text: str, by: str) -> str:
    return "\n".join(by + ln if ln else "" for ln in text.splitlines())


def _def(name: str, doc: str | None, body: list[str]) -> list[str]:
    out = ["", f"def {name}(key: str, book: Book) -> int:"]
    if doc is not None:
        out += ['    """Use one entry.', "", _indent(doc, "    "), '    """']
    return out + [f"    {ln}" for ln in body] + [""]


def _caught(call: str, instead: str) -> list[str]:
    return ["try:", f"    return {call}", "except Expired:", f"    return {instead}"]


def _wallet() -> str:
    out = ["from __future__ import annotations", "", "from typing import TYPE_CHECKING", "",
           "from ledger.errors import Expired", "",
           "if TYPE_CHECKING:", "    from ledger.book import Book", ""]
    calls = {"total_of": "book.convert(key, 1)", "fetch_back_archived": "book.get_archived(key)"}
    for name, doc in FETCH_DOCS.items():
        call = calls.get(name, "book.get(key)")
        out += _def(name, doc, _caught(call, "book.get(key + '.old')") if name == "fetch_back_caught"
                    else [f"return {call}"])
    for name, doc in TOTAL_DOCS.items():
        call = "book.convert_doc(key, 2)"
        out += _def(name, doc, _caught(call, "0") if name == "total_caught" else [f"return {call}"])
    return "\n".join(out)


POOL = '''
from collections.abc import Callable

from ledger.errors import Refused


def _spread(total: int, weights: list[int]) -> list[int]:
    if not weights:
        raise Refused("at least one weight is required")
    whole = sum(weights)
    if whole == 0:
        raise Refused("weights must not all be zero")
    return [total * w // whole for w in weights]


class Pool:
    def __init__(self, clock: Callable[[], int]) -> None:
        self._clock = clock

    def share(self, total: int, weights: list[int]) -> list[int]:
        """Divide ``total`` by ``weights``.

        A list of weights that are all zero raises :exc:`ZeroDivisionError` because there is nothing to divide by.
        """
        self._clock()
        return _spread(total, weights)

    def share_ok(self, total: int, weights: list[int]) -> list[int]:
        """Divide ``total`` by ``weights``.

        A list of weights that are all zero raises :exc:`Refused` because there is nothing to divide by.
        """
        self._clock()
        return _spread(total, weights)
'''


def _ratio(name: str, doc: str | None, guard: str = "", typed: bool = True) -> str:
    params = "a: int, b: int" if typed else "a, b"
    lines = [f"def {name}({params}) -> float:"]
    if doc is not None:
        lines += ['    """Divide ``a`` by ``b``.', "", _indent(doc, "    "), '    """']
    if guard == "raise":
        lines += ["    if b == 0:", '        raise ValueError("b must not be zero")']
    elif guard == "call":
        lines += ["    _check(b)"]
    lines += ["    return a / b", ""]
    return "\n".join(lines)


def _parse(name: str, to: str, doc: str | None, checked: bool = False) -> str:
    lines = [f"def {name}(text: str) -> {to}:"]
    if doc is not None:
        lines += ['    """Read a number.', "", _indent(doc, "    "), '    """']
    if checked:
        lines += ["    if not text.strip().isdigit():", "        raise TypeError(text)"]
    return "\n".join(lines + [f"    return {to}(text)", ""])


AMOUNT = "\n\n".join([
    "from decimal import Decimal\n\nfrom ledger.errors import Refused\n",
    "def to_number(value: object) -> Decimal:\n    return Decimal(str(value))\n",
    "def _check(b: int) -> None:\n    if b == 0:\n        raise ValueError('b must not be zero')\n",
    "class Amount:\n    def __init__(self, value: object) -> None:\n        self._value = to_number(value)\n\n"
    "    def __truediv__(self, divisor: object) -> Amount:\n"
    "        if isinstance(divisor, bool) or not isinstance(divisor, (int, Decimal)):\n"
    "            return NotImplemented\n        return Amount(self._value / Decimal(divisor))\n",
    "class Safe:\n    def __init__(self, value: object) -> None:\n        self._value = to_number(value)\n\n"
    "    def __truediv__(self, divisor: object) -> Safe:\n"
    "        if not isinstance(divisor, (int, Decimal)):\n            return NotImplemented\n"
    "        if divisor == 0:\n            raise Refused('cannot divide by zero')\n"
    "        return Safe(self._value / Decimal(divisor))\n",
    _ratio("ratio_google", "Raises:\n    ValueError: If `b` is zero."),
    _ratio("ratio_google_ok", "Raises:\n    ValueError: If `b` is zero.", guard="raise"),
    _ratio("ratio_numpy", "Raises\n------\nValueError\n    If ``b`` is 0."),
    _ratio("ratio_numpy_ok", "Raises\n------\nValueError\n    If ``b`` is 0.", guard="raise"),
    _ratio("ratio_sphinx", ":raises ValueError: when ``b`` is zero."),
    _ratio("ratio_sphinx_ok", ":raises ZeroDivisionError: when ``b`` is zero."),
    _ratio("ratio_untyped", "Raises:\n    ValueError: If `b` is zero.", typed=False),
    _ratio("ratio_validated", "Raises:\n    ValueError: If `b` is zero.", guard="call"),
    _ratio("ratio_below", "Raises:\n    ValueError: If `b` is below zero."),
    _ratio("ratio_nonzero", "Raises:\n    ValueError: If `b` is not zero."),
    _ratio("ratio_md", None),
    _parse("parse_google", "int", "Raises:\n    TypeError: If `text` is not a number."),
    _parse("parse_google_ok", "int", "Raises:\n    ValueError: If `text` is not a number."),
    _parse("parse_numpy", "Decimal", "Raises\n------\nValueError\n    If ``text`` is not a valid number."),
    _parse("parse_numpy_ok", "Decimal", "Raises\n------\nArithmeticError\n    If ``text`` is not a valid number."),
    _parse("parse_sphinx", "float", ":raises TypeError: when ``text`` is not numeric."),
    _parse("parse_sphinx_ok", "float", ":raises TypeError: when ``text`` is not numeric.", checked=True),
    _parse("parse_md", "int", None),
    _ratio("ratio_md_ok", None, guard="raise"),
])

GUIDE = """\
# Ledger guide

`ledger.wallet.fetch_md(key, book)` raises `NotFound` when the entry has expired.

`ledger.wallet.fetch_md_ok(key, book)` raises `Expired` when the entry has expired.

`ledger.wallet.total_md(key, book)` raises `NotFound` if the key cannot be converted.

`ledger.wallet.total_md_ok(key, book)` raises `NotFound` or `Expired` if the key cannot be converted.

`Amount(1) / 0` raises `Refused`.

`Safe(1) / 0` raises `Refused`.

`ledger.amount.ratio_md(a, b)` raises `ValueError` when `b` is zero.

`ledger.amount.ratio_md_ok(a, b)` raises `ValueError` when `b` is zero.

`Registry.drop_md(name)` raises `ValueError` for an unknown name.

`ledger.amount.parse_md(text)` raises `TypeError` if `text` is not a number.

`ledger.amount.parse_md(text)` raises `ValueError` if `text` is not a number.

`Registry.drop_md(name)` raises `KeyError` for an unknown name.
"""

API = """\
Ledger reference
================

:func:`ledger.wallet.fetch_md` raises :exc:`ledger.errors.NotFound` once the entry has expired.

:func:`ledger.wallet.fetch_md_ok` raises :exc:`ledger.errors.Expired` once the entry has expired.

:func:`ledger.amount.ratio_md` raises :exc:`ValueError` if ``b`` is zero.

:func:`ledger.wallet.total_md` raises :exc:`ledger.errors.NotFound` when the key cannot be converted.

:func:`ledger.wallet.total_md_ok` raises :exc:`ledger.errors.LedgerError` when the key cannot be converted.

:func:`ledger.amount.ratio_md_ok` raises :exc:`ValueError` if ``b`` is zero.

:meth:`ledger.registry.Registry.drop_md` raises :exc:`ValueError` when the name is missing.

:func:`ledger.amount.parse_md` raises :exc:`TypeError` for a ``text`` that is not an integer.

:func:`ledger.amount.parse_md` raises :exc:`ValueError` for a ``text`` that is not an integer.

:meth:`ledger.registry.Registry.drop_md` raises :exc:`KeyError` when the name is missing.
"""


def _method(name: str, doc: str | None, body: str) -> str:
    lines = [f"    def {name}(self, name: str) -> int:"]
    if doc is not None:
        lines += ['        """Look one name up.', "", _indent(doc, "        "), '        """']
    return "\n".join(lines + [f"        {ln}" for ln in body.splitlines()]) + "\n"


POP, GET, GUARDED = "return self._items.pop(name)", "return self._items[name]", \
    "if name not in self._items:\n    raise NotFound(name)\nreturn self._items[name]"
# a plain dict's ``[]`` / ``pop`` raises KeyError for a missing key; a defaultdict hands back a value
REGISTRY = "\n".join([
    "from collections import defaultdict\n\nfrom ledger.errors import NotFound\n\n",
    "class Registry:",
    "    def __init__(self) -> None:",
    "        self._items: dict[str, int] = {}",
    "        self._counts: defaultdict[str, int] = defaultdict(int)\n",
    _method("drop_google", "Raises:\n    ValueError: If `name` is not registered.", POP),
    _method("drop_google_ok", "Raises:\n    KeyError: If `name` is not registered.", POP),
    _method("read_numpy", "Raises\n------\nValueError\n    If ``name`` is unknown.", GET),
    _method("read_numpy_ok", "Raises\n------\nKeyError\n    If ``name`` is unknown.", GET),
    _method("read_sphinx", ":raises NotFound: for a missing ``name``.", GET),
    _method("read_sphinx_ok", ":raises NotFound: for a missing ``name``.", GUARDED),
    _method("count_google", "Raises:\n    ValueError: If `name` is unknown.", "return self._counts[name]"),
    _method("drop_md", None, POP),
])


def _project(root: Path, *, context_changed: bool = False) -> None:
    amount = AMOUNT
    if context_changed:
        amount = "import decimal\n\ndecimal.getcontext().traps[decimal.DivisionByZero] = False\n" + amount
    files = {"ledger/__init__.py": '"""A small ledger."""\n', "ledger/errors.py": ERRORS,
             "ledger/entries.py": ENTRIES, "ledger/book.py": BOOK, "ledger/wallet.py": _wallet(),
             "ledger/pool.py": POOL, "ledger/amount.py": amount, "ledger/registry.py": REGISTRY, "docs/guide.md": GUIDE, "docs/api.rst": API,
             "README.md": "# ledger\n"}
    for rel, text in files.items():
        write(root, rel, text)


DOCS = ("docs/guide.md", "docs/api.rst", "ledger/wallet.py", "ledger/pool.py", "ledger/amount.py",
        "ledger/registry.py")


def _review(root: Path) -> dict[str, list[tuple[Claim, Verdict]]]:
    eng = Engine.open(root)
    try:
        return {d: review_doc(eng, d, StaticReviewer()).pairs() for d in DOCS}
    finally:
        eng.close()


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[Claim, Verdict]]]:
    root = tmp_path_factory.mktemp("ledger") / "proj"
    _project(root)
    return _review(root)


def _verdict(reviewed: dict[str, list[tuple[Claim, Verdict]]], doc: str, part: str, owner: str = "") -> Verdict:
    hits = [v for c, v in reviewed[doc] if part in c.text and (c.section or "").endswith(owner)]
    assert len(hits) == 1, (doc, part, owner, [(c.section, c.text) for c, _ in reviewed[doc]])
    return hits[0]


def _field(reviewed: dict[str, list[tuple[Claim, Verdict]]], doc: str, owner: str, part: str) -> Verdict:
    hits = [v for c, v in reviewed[doc] if (c.section or "").endswith(f".{owner}") and part in c.text]
    assert len(hits) == 1, (owner, part, [(c.section, c.text) for c, _ in reviewed[doc]])
    return hits[0]


# (doc, owner or "", text in the claim, flagged?, word the rationale must hold)
CASES = [
    ("ledger/wallet.py", "fetch_google", "Also raised when the entry has expired", True, "Expired"),
    ("ledger/wallet.py", "fetch_google_ok", "Expired: If the entry has expired", False, ""),
    ("ledger/wallet.py", "fetch_numpy", "Also raised when the entry has expired", True, "Expired"),
    ("ledger/wallet.py", "fetch_numpy_ok", "Expired", False, ""),
    ("ledger/wallet.py", "fetch_sphinx", ":raises NotFound:", True, "Expired"),
    ("ledger/wallet.py", "fetch_sphinx_ok", ":raises Expired:", False, ""),
    ("ledger/wallet.py", "fetch_prose", "raises ``NotFound``", True, "Expired"),
    ("ledger/wallet.py", "fetch_prose_ok", "raises ``Expired``", False, ""),
    ("ledger/wallet.py", "total_of", "cannot be converted", False, ""),
    ("ledger/wallet.py", "fetch_back_google", "falls back", True, "nothing falls back"),
    ("ledger/wallet.py", "fetch_back_numpy", "falls back", True, "nothing falls back"),
    ("ledger/wallet.py", "fetch_back_sphinx", "falls back", True, "nothing falls back"),
    ("ledger/wallet.py", "fetch_back_archived", "falls back", False, ""),
    ("ledger/wallet.py", "fetch_back_caught", "falls back", False, ""),
    ("ledger/wallet.py", "total_google", "cannot be converted", "incomplete", "Expired"),
    ("ledger/wallet.py", "total_google_ok", "NotFound: If some key", False, ""),
    ("ledger/wallet.py", "total_numpy", "cannot be converted", "incomplete", "Expired"),
    ("ledger/wallet.py", "total_numpy_ok", "cannot be converted", False, ""),
    ("ledger/wallet.py", "total_sphinx", "fails to convert", "incomplete", "Expired"),
    ("ledger/wallet.py", "total_sphinx_ok", "fails to convert", False, ""),
    ("ledger/wallet.py", "total_caught", "cannot be converted", False, ""),
    ("docs/guide.md", "", "total_md(key, book)` raises `NotFound`", "incomplete", "Expired"),
    ("docs/guide.md", "", "total_md_ok(key, book)` raises", False, ""),
    ("docs/api.rst", "", "total_md` raises :exc:`ledger.errors.NotFound`", "incomplete", "Expired"),
    ("docs/api.rst", "", "total_md_ok` raises", False, ""),
    ("docs/guide.md", "", "fetch_md(key, book)` raises `NotFound`", True, "Expired"),
    ("docs/guide.md", "", "fetch_md_ok(key, book)` raises `Expired`", False, ""),
    ("docs/api.rst", "", "fetch_md` raises :exc:`ledger.errors.NotFound`", True, "Expired"),
    ("docs/api.rst", "", "fetch_md_ok` raises", False, ""),
    ("ledger/pool.py", "share", "raises :exc:`ZeroDivisionError`", True, "Refused"),
    ("ledger/pool.py", "share_ok", "raises :exc:`Refused`", False, ""),
    ("docs/guide.md", "", "`Amount(1) / 0` raises `Refused`", True, "DivisionByZero"),
    ("docs/guide.md", "", "`Safe(1) / 0` raises `Refused`", False, ""),
    ("ledger/amount.py", "ratio_google", "ValueError: If `b` is zero", True, "ZeroDivisionError"),
    ("ledger/amount.py", "ratio_google_ok", "ValueError: If `b` is zero", False, ""),
    ("ledger/amount.py", "ratio_numpy", "ValueError: If ``b`` is 0", True, "ZeroDivisionError"),
    ("ledger/amount.py", "ratio_numpy_ok", "ValueError: If ``b`` is 0", False, ""),
    ("ledger/amount.py", "ratio_sphinx", ":raises ValueError:", True, "ZeroDivisionError"),
    ("ledger/amount.py", "ratio_sphinx_ok", ":raises ZeroDivisionError:", False, ""),
    ("ledger/amount.py", "ratio_validated", "ValueError", False, ""),
    ("docs/guide.md", "", "ratio_md(a, b)` raises `ValueError`", True, "ZeroDivisionError"),
    ("docs/guide.md", "", "ratio_md_ok(a, b)` raises `ValueError`", False, ""),
    ("docs/api.rst", "", "ratio_md` raises :exc:`ValueError`", True, "ZeroDivisionError"),
    ("docs/api.rst", "", "ratio_md_ok` raises", False, ""),
    ("ledger/amount.py", "parse_google", "TypeError", True, "ValueError"),
    ("ledger/amount.py", "parse_google_ok", "ValueError", False, ""),
    ("ledger/amount.py", "parse_numpy", "ValueError", True, "InvalidOperation"),
    ("ledger/amount.py", "parse_numpy_ok", "ArithmeticError", False, ""),
    ("ledger/amount.py", "parse_sphinx", "TypeError", True, "ValueError"),
    ("ledger/amount.py", "parse_sphinx_ok", "TypeError", False, ""),
    ("docs/guide.md", "", "parse_md(text)` raises `TypeError`", True, "ValueError"),
    ("docs/guide.md", "", "parse_md(text)` raises `ValueError`", False, ""),
    ("docs/api.rst", "", "parse_md` raises :exc:`TypeError`", True, "ValueError"),
    ("docs/api.rst", "", "parse_md` raises :exc:`ValueError`", False, ""),
    ("ledger/registry.py", "drop_google", "ValueError: If `name`", True, "KeyError"),
    ("ledger/registry.py", "drop_google_ok", "KeyError: If `name`", False, ""),
    ("ledger/registry.py", "read_numpy", "ValueError: If ``name``", True, "KeyError"),
    ("ledger/registry.py", "read_numpy_ok", "KeyError: If ``name``", False, ""),
    ("ledger/registry.py", "read_sphinx", ":raises NotFound:", True, "KeyError"),
    ("ledger/registry.py", "read_sphinx_ok", ":raises NotFound:", False, ""),
    ("docs/guide.md", "", "raises `ValueError` for an unknown name", True, "KeyError"),
    ("docs/guide.md", "", "raises `KeyError` for an unknown name", False, ""),
    ("docs/api.rst", "", "drop_md` raises :exc:`ValueError`", True, "KeyError"),
    ("docs/api.rst", "", "drop_md` raises :exc:`KeyError`", False, ""),
]


def _find(reviewed: dict[str, list[tuple[Claim, Verdict]]], doc: str, owner: str, part: str) -> Verdict:
    if owner:
        return _field(reviewed, doc, owner, part)
    return _verdict(reviewed, doc, part)


@pytest.mark.parametrize(("doc", "owner", "part", "flagged", "why"), CASES,
                         ids=[f"{c[1] or c[0]}:{c[2][:30]}" for c in CASES])
def test_raise_condition(reviewed: dict[str, list[tuple[Claim, Verdict]]], doc: str, owner: str, part: str,
                         flagged: bool | str, why: str) -> None:
    v = _find(reviewed, doc, owner, part)
    if flagged:
        assert v.verdict == ("contradicted" if flagged is True else flagged), (v.verdict, v.rationale)
        assert why in v.rationale, v.rationale
    else:
        assert v.verdict not in FLAGS, (v.verdict, v.rationale)


@pytest.mark.parametrize("owner", ["ratio_below", "ratio_nonzero"])
def test_other_conditions_than_zero_are_not_judged_by_the_division(
        reviewed: dict[str, list[tuple[Claim, Verdict]]], owner: str) -> None:
    """"below zero", "not zero": the parameter is not zero, so the division says nothing."""
    v = _field(reviewed, "ledger/amount.py", owner, "ValueError")
    assert "divides by" not in v.rationale, v.rationale


def test_a_defaultdict_lookup_is_not_judged(reviewed: dict[str, list[tuple[Claim, Verdict]]]) -> None:
    """``defaultdict(int)[k]`` hands back 0 for a missing key: no ``KeyError`` answer."""
    v = _field(reviewed, "ledger/registry.py", "count_google", "ValueError")
    assert "plain `dict`" not in v.rationale, v.rationale


@pytest.mark.parametrize(("doc", "owner", "part"), [("ledger/registry.py", "drop_google_ok", "KeyError"),
                                                    ("ledger/amount.py", "parse_google_ok", "ValueError")])
def test_a_correct_stdlib_raise_claim_is_consistent(reviewed: dict[str, list[tuple[Claim, Verdict]]], doc: str,
                                                    owner: str, part: str) -> None:
    v = _field(reviewed, doc, owner, part)
    assert v.verdict == "consistent", (v.verdict, v.rationale)


def test_untyped_operands_are_not_judged_by_the_division(reviewed: dict[str, list[tuple[Claim, Verdict]]]) -> None:
    """``a / b`` on unannotated parameters may run any ``__truediv__``: the division says nothing."""
    v = _field(reviewed, "ledger/amount.py", "ratio_untyped", "ValueError")
    assert "divides by" not in v.rationale, v.rationale


def test_changed_decimal_context_leaves_division_open(tmp_path: Path) -> None:
    """``traps[DivisionByZero] = False`` turns ``x / 0`` into an infinity: no answer from the division
    (the claim may still be judged otherwise: ``Refused`` is raised nowhere in reach)."""
    _project(tmp_path / "proj", context_changed=True)
    v = _verdict(_review(tmp_path / "proj"), "docs/guide.md", "`Amount(1) / 0` raises `Refused`")
    assert "DivisionByZero" not in v.rationale, v.rationale
