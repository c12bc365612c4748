"""Claims whose sentence names no API inherit their subject from context (issue 14): the
paragraph's earlier sentence, the code block just above in the same section, the section
heading's code name (a FAQ question too), or a docstring's owner, bridged by a pronoun
("It returns ...") or a definite description naming the class ("The store's ...").

Each defect has a correct twin in the same style (chatty Markdown tutorial, terse reST
reference, FAQ headings, numbered steps, docstring prose) that must not be flagged, and an
ambiguous context (two candidates, a pronoun that is not the subject) must bind nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer
from caas_tui.review.static.reviewer import context_for
from caas_tui.review.static.subjects import bind_subject

from .conftest import write

FLAGS = ("contradicted", "incomplete")

STORE = '''
class MemoryStore:
    """A key-value store in memory."""

    def __init__(self, timeout: float = 1.0) -> None:
        self.timeout = timeout


class DiskStore:
    """A key-value store on disk."""

    def __init__(self, path: str, timeout: float = 5.0) -> None:
        self.path = path
        self.timeout = timeout
        self._data: dict[str, str] = {}

    def fetch(self, key: str) -> str:
        if key not in self._data:
            raise KeyError(key)
        return self._data[key]


def load(path: str, strict: bool = False) -> dict[str, str]:
    """Read ``path`` into a mapping.

    It returns a ``list`` of rows.
    """
    return {"path": path}


def dump(data: dict[str, str], path: str) -> dict[str, str]:
    """Write ``data`` to ``path``.

    It returns a ``dict`` of what was written.
    """
    return dict(data)
'''

TUTORIAL = '''
# Getting started

## Reading a file

`load` reads a file into a mapping. It returns a `list` of rows, one per line.

## Reading a file again

`load` reads a file into a mapping. It returns a `dict` keyed by field name.

## Opening a store

Open a store on a file:

```python
from shop import DiskStore

store = DiskStore("data.db")
```

The store's `timeout` defaults to 10 seconds, which suits slow disks.

## Opening a store again

Open a store on a file:

```python
from shop import DiskStore

store = DiskStore("data.db")
```

The store's `timeout` defaults to 5 seconds, which suits most disks.

## Two things at once

```python
from shop import DiskStore, load

store = DiskStore(load("x")["path"])
```

It returns a `list` of rows.

## Loading rows

```python
rows = load("orders.csv")
```

It returns a `list` of rows.

## Dumping rows

```python
written = dump(rows, "orders.csv")
```

It returns a `dict` of what was written.

## Memory and disk

`MemoryStore` keeps rows in memory.

```python
store = DiskStore("data.db")
```

The store keeps one file open.

## Both stores

```python
a = MemoryStore()
b = DiskStore("x")
```

The store keeps its rows.

The memory store forgets its rows on exit.

## Far back

`DiskStore` keeps rows on disk.

```python
print("hello")
```

A store keeps one file open.

## `load(path)` again

`dump` writes a file.

It returns a `list` of rows.

## A pronoun about something else

`load` reads a file. Then `dump` writes it back.

It is recommended to keep files small.
'''

FAQ = '''
# FAQ

### Does `DiskStore.fetch` raise on a missing key?

Yes: it raises `ValueError` for a key that is not there.

### Does `DiskStore.fetch` raise for an unknown key?

Yes, it raises `KeyError` for a key that is not there.

### Loading

**Does `load` give back rows?**
Yes: it returns a `list` of rows.

**Does `dump` give back what it wrote?**
Yes: it returns a `dict` of what was written.
'''

STEPS = '''
# Steps

1. Call `load(path)` to read the file. It returns a `list` of rows.
2. Call `dump(data, path)` to write it. It returns a `dict` of what was written.
'''

API = '''
API
===

.. function:: load(path, strict=False)

   Read a file.

   It returns a :class:`list` of rows.

.. function:: dump(data, path)

   Write a file.

   It returns a :class:`dict` of what was written.

.. function:: load(path, strict=False)
   :noindex:

   Returns a :class:`tuple` of rows.

.. function:: dump(data, path)
   :noindex:

   Returns a :class:`dict` of what was written.
'''

TABLE = '''
# Functions

| Function | What it does |
|---|---|
| `load(path)` | Reads a file. Returns a `tuple` of rows. |
| `dump(data, path)` | Writes a file. Returns a `dict` of what was written. |
| `DiskStore.fetch(key)` | Looks a key up. Raises `ValueError` for a missing key. |
| `DiskStore.fetch(key)` | Looks a key up. Raises `KeyError` for a missing key. |
'''


def _project(root: Path) -> None:
    files = {"shop/__init__.py": '"""A shop."""\nfrom shop.store import DiskStore, MemoryStore, dump, load\n',
             "shop/store.py": STORE, "docs/tutorial.md": TUTORIAL, "docs/faq.md": FAQ,
             "docs/steps.md": STEPS, "docs/api.rst": API, "docs/table.md": TABLE, "README.md": "# shop\n"}
    for rel, text in files.items():
        write(root, rel, text)


DOCS = ("docs/tutorial.md", "docs/faq.md", "docs/steps.md", "docs/api.rst", "docs/table.md", "shop/store.py")


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[Claim, Verdict]]]:
    root = tmp_path_factory.mktemp("shop") / "proj"
    _project(root)
    eng = Engine.open(root)
    try:
        return {d: review_doc(eng, d, StaticReviewer()).pairs() for d in DOCS}
    finally:
        eng.close()


def _verdict(reviewed: dict[str, list[tuple[Claim, Verdict]]], doc: str, section: str, part: str) -> Verdict:
    hits = [v for c, v in reviewed[doc] if part in c.text and section in (c.section or "")]
    assert len(hits) == 1, (doc, section, part, [(c.section, c.text) for c, _ in reviewed[doc]])
    return hits[0]


# (doc, section, sentence part, flagged?)
CASES = [
    ("docs/tutorial.md", "> Reading a file", "It returns a `list`", True),
    ("docs/tutorial.md", "Reading a file again", "It returns a `dict`", False),
    ("docs/tutorial.md", "> Opening a store", "defaults to 10 seconds", True),
    ("docs/tutorial.md", "Opening a store again", "defaults to 5 seconds", False),
    ("docs/tutorial.md", "Loading rows", "It returns a `list`", True),
    ("docs/tutorial.md", "Dumping rows", "It returns a `dict`", False),
    ("docs/faq.md", "missing key", "it raises `ValueError`", True),
    ("docs/faq.md", "unknown key", "it raises `KeyError`", False),
    ("docs/faq.md", "Loading", "it returns a `list`", True),
    ("docs/faq.md", "Loading", "it returns a `dict`", False),
    ("docs/steps.md", "", "It returns a `list`", True),
    ("docs/steps.md", "", "It returns a `dict`", False),
    ("docs/api.rst", "", "It returns a :class:`list`", True),
    ("docs/api.rst", "", "It returns a :class:`dict`", False),
    ("docs/api.rst", "", "Returns a :class:`tuple`", True),
    ("docs/api.rst", "", "Returns a :class:`dict`", False),
    ("docs/table.md", "", "Returns a `tuple`", True),
    ("docs/table.md", "", "Returns a `dict`", False),
    ("docs/table.md", "", "Raises `ValueError`", True),
    ("docs/table.md", "", "Raises `KeyError`", False),
    ("shop/store.py", "load", "It returns a ``list``", True),
    ("shop/store.py", "dump", "It returns a ``dict``", False),
]


@pytest.mark.parametrize(("doc", "section", "part", "flagged"), CASES)
def test_inherited_subject(reviewed: dict[str, list[tuple[Claim, Verdict]]], doc: str, section: str, part: str,
                           flagged: bool) -> None:
    v = _verdict(reviewed, doc, section, part)
    assert (v.verdict in FLAGS) is flagged, (v.verdict, v.rationale)


@pytest.mark.parametrize(("section", "part"), [
    ("Two things at once", "It returns a `list`"),  # two APIs in the block: ambiguous
    ("something else", "It is recommended"),  # "it" is no API
])
def test_ambiguous_context_binds_nothing(reviewed: dict[str, list[tuple[Claim, Verdict]]], section: str,
                                         part: str) -> None:
    v = _verdict(reviewed, "docs/tutorial.md", section, part)
    assert v.verdict == "unverified", (v.verdict, v.rationale)
    assert not any(c.startswith("subject:") for c in v.coverage)


@pytest.mark.parametrize(("doc", "section", "part", "where", "name"), [
    ("docs/tutorial.md", "Loading rows", "It returns a `list`", "the code block above", "load"),
    ("docs/tutorial.md", "> Reading a file", "It returns a `list`", "the sentence before", "load"),
    ("docs/faq.md", "missing key", "it raises `ValueError`", "the heading", "DiskStore.fetch"),
    ("docs/steps.md", "", "It returns a `list`", "the sentence before", "load"),
    ("docs/api.rst", "", "It returns a :class:`list`", "the directive", "load"),
    ("docs/api.rst", "", "Returns a :class:`tuple`", "the directive", "load"),
    ("docs/table.md", "", "Returns a `tuple`", "the table row", "load"),
])
def test_binding_is_recorded(reviewed: dict[str, list[tuple[Claim, Verdict]]], doc: str, section: str, part: str,
                             where: str, name: str) -> None:
    v = _verdict(reviewed, doc, section, part)
    assert f"subject:subject taken from {where} `{name}`" in v.coverage, v.coverage
    assert f"subject taken from {where}" in v.rationale


@pytest.mark.parametrize(("section", "part", "bound"), [
    ("Memory and disk", "The store keeps", ("the code block above", "DiskStore")),
    ("Both stores", "The store keeps its", None),  # both classes are stores
    ("Both stores", "The memory store forgets", None),  # names the class in words: the checks see it
    ("Far back", "A store keeps", ("the text above", "DiskStore")),
    ("something else", "It is recommended", None),
    ("again", "It returns a `list`", None),  # the paragraph before names `dump`: not the heading's `load`
    ("Reading a file again", "`load` reads", None),  # names its subject itself
])
def test_description_binding(tmp_path: Path, section: str, part: str, bound: tuple[str, str] | None) -> None:
    _project(tmp_path)
    eng = Engine.open(tmp_path)
    try:
        ctx = context_for(eng)
        claims = [c for c in ctx.doc_claims("docs/tutorial.md") if part in c.text and section in (c.section or "")]
        assert len(claims) == 1
        b = bind_subject(ctx, claims[0])
        assert (None if b is None else (b.where, b.name)) == bound
    finally:
        eng.close()
