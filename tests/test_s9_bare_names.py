"""Bare backticked names of project callables (issue 14): ```read_table``` in a docstring of a
module that doesn't import it, a method unique in the project, a method the section's class
selects, a ``:func:`name``` role. Each defect claim is checked against the code; its correct
twin stays unflagged; a bare word that is also a parameter, an attribute, a doc variable or
the name of methods on two unrelated classes stays unresolved.
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

TABLES = '''
"""Tables on disk."""


def read_table(title: str) -> dict[str, int]:
    """Read one table."""
    if not title:
        raise ValueError("empty title")
    return {}


class Vault:
    def __init__(self) -> None:
        self.rows: dict[str, int] = {}
        self.limit = 3

    def seal_entry(self, key: str) -> int:
        if key not in self.rows:
            raise LookupError(key)
        return self.rows[key]

    def size(self) -> int:
        return len(self.rows)


class Alpha:
    def flush(self, force: bool = False) -> None:
        if not force:
            raise ValueError("nothing to flush")


class Beta:
    def flush(self, force: bool = False) -> None:
        if not force:
            raise RuntimeError("busy")
'''

API = '''
"""Entry points.

`read_table` raises `KeyError` when the title is empty.

`read_table` raises `ValueError` when the title is empty.

"""


def open_all() -> int:
    return 0
'''

GUIDE = """\
# Guide

## Vault

`seal_entry` raises `ValueError` when the key is missing.

`seal_entry` raises `LookupError` when the key is missing.

## Alpha

`flush` raises `RuntimeError` when force is false.

`flush` raises `ValueError` when force is false.

## Notes

`flush` raises `TypeError` when force is false.

`limit` raises `TypeError` when the key is missing.

`title` raises `TypeError` when it is empty.

```python
size = 3
```

`size` raises `TypeError` when it is empty.
"""


RST = """\
Tables
======

:func:`read_table` raises `TypeError` when the title is empty.

:func:`read_table` raises `ValueError` when the title is empty.
"""


def _project(root: Path) -> None:
    files = {"shelf/__init__.py": '"""A shelf."""\n', "shelf/tables.py": TABLES, "shelf/api.py": API,
             "docs/guide.md": GUIDE, "docs/tables.rst": RST, "README.md": "# shelf\n"}
    for rel, text in files.items():
        write(root, rel, text)


DOCS = ("docs/guide.md", "docs/tables.rst", "shelf/api.py")


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[Claim, Verdict]]]:
    root = tmp_path_factory.mktemp("shelf") / "proj"
    _project(root)
    eng = Engine.open(root)
    try:
        return {d: review_doc(eng, d, StaticReviewer()).pairs() for d in DOCS}
    finally:
        eng.close()


def _verdict(reviewed: dict[str, list[tuple[Claim, Verdict]]], doc: str, part: str, section: str = "") -> Verdict:
    hits = [v for c, v in reviewed[doc] if c.text.startswith(part) and (c.section or "").endswith(section)]
    assert len(hits) == 1, (part, [(c.section, c.text) for c, _ in reviewed[doc]])
    return hits[0]


CASES = [
    # (doc, claim part, section, flagged)
    ("shelf/api.py", "`read_table` raises `KeyError`", "", True),
    ("shelf/api.py", "`read_table` raises `ValueError`", "", False),
    ("docs/tables.rst", ":func:`read_table` raises `TypeError`", "", True),
    ("docs/tables.rst", ":func:`read_table` raises `ValueError`", "", False),
    ("docs/guide.md", "`seal_entry` raises `ValueError`", "Vault", True),
    ("docs/guide.md", "`seal_entry` raises `LookupError`", "Vault", False),
    ("docs/guide.md", "`flush` raises `RuntimeError`", "Alpha", True),
    ("docs/guide.md", "`flush` raises `ValueError`", "Alpha", False),
]


@pytest.mark.parametrize(("doc", "part", "section", "flagged"), CASES)
def test_bare_name_resolves(reviewed: dict[str, list[tuple[Claim, Verdict]]], doc: str, part: str, section: str,
                            flagged: bool) -> None:
    v = _verdict(reviewed, doc, part, section)
    if flagged:
        assert v.verdict in FLAGS, (part, v.verdict, v.rationale)
    else:
        assert v.verdict not in FLAGS, (part, v.verdict, v.rationale)


@pytest.mark.parametrize("part", ["`flush` raises `TypeError`", "`limit` raises", "`title` raises", "`size` raises"])
def test_guarded_bare_word_stays_unresolved(reviewed: dict[str, list[tuple[Claim, Verdict]]], part: str) -> None:
    # two unrelated classes' ``flush``, an attribute, a parameter, a doc variable: not a callable
    v = _verdict(reviewed, "docs/guide.md", part)
    assert v.verdict not in FLAGS, (part, v.verdict, v.rationale)
    assert not any("exists" in c for c in v.checks), v.checks
