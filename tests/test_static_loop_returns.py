"""Return and yield behaviour read from code shapes: the fallback a function returns for a
missing key, the trailing partial group of a batching generator, which duplicate a dedupe
loop keeps, and how many values a ``range(n - k)`` loop yields. Each in docstring fields
(Sphinx, Google, NumPy), prose with inline code, reST roles and Markdown, wrong and right.

A small feed-reading project written for these tests (real Engine, real index)."""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer
from caas_tui.review.static.outcomes.retfallback import stated_fallbacks
from tests.conftest import verdict_containing as by_text

from .conftest import write

PACKAGE = {
    "feeds/__init__.py": '"""Reading feeds."""\n',
    "feeds/defaults.py": "MISSING_TITLE = 'untitled'\nPAGE = 50\n",
    "feeds/items.py": '''
        """Feed items.

        :class:`Unique` keeps the first item seen for each key.
        :class:`Latest` keeps the first entry seen for each key.
        """
        from feeds.defaults import MISSING_TITLE


        class Item:
            def __init__(self, fields: dict[str, str]) -> None:
                self.fields = fields

            def field(self, name: str, default: str | None = None) -> str | None:
                """Look a field up.

                :param name: the field name.
                :returns: the value, or an empty string when the item has no such field.
                """
                return self.fields.get(name, default)

            def title(self) -> str:
                """The title.

                Returns:
                    str: The title, or ``None`` if the item has no title.
                """
                return self.fields.get("title", MISSING_TITLE)

            def author(self) -> str | None:
                """The author.

                Returns
                -------
                str or None
                    The author, ``None`` when the item is missing one.
                """
                return self.fields.get("author")

            def tags(self, name: str) -> list[str]:
                """Tags of ``name``; ``None`` if it is missing."""
                if name == "all":
                    return list(self.fields)
                return self.fields.get(name, [])


        def find(items: list[Item], title: str) -> Item | None:
            """The first item titled ``title``, or ``None`` if no item matches."""
            for item in items:
                if item.fields.get("title") == title:
                    return item
            return None


        def first_tag(items: list[Item]) -> str:
            """The first tag found; ``None`` when no item has a tag."""
            for item in items:
                if "tag" in item.fields:
                    return item.fields["tag"]
            return ""


        def mean(values: list[float]) -> float | None:
            """The mean of ``values``; ``None`` if ``values`` is empty."""
            if not values:
                return 0.0
            return sum(values) / len(values)


        def median(values: list[float]) -> float:
            """The median; returns ``0`` if *values* is empty."""
            if len(values) == 0:
                return 0
            return sorted(values)[len(values) // 2]


        class Registry:
            def __init__(self) -> None:
                self._kinds: dict[str, type] = {}
                self._names: dict[str, str] = {}

            def kind(self, name: str, default: type | None = None) -> type | None:
                """The class registered as ``name``, or ``None`` if no such name is registered."""
                if name not in self._kinds:
                    return default
                return self._kinds[name]

            def label(self, name: str) -> str:
                """The label of ``name``; ``None`` when the name is unknown."""
                try:
                    return self._names[name]
                except KeyError:
                    return "?"


        def first_value(multi: dict[str, list[str]], name: str) -> str | None:
            """The first value of ``name``, or ``None`` if the name is missing."""
            values = multi.get(name, [])
            return values[0] if values else ""


        def header(headers: dict[str, str], name: str) -> str:
            """The header ``name``; an empty string if it is missing."""
            value = headers.get(name.lower())
            if value is None:
                return ""
            return value.strip()


        class Unique:
            def apply(self, items):
                seen = set()
                for item in items:
                    key = item.fields.get("id")
                    if key in seen:
                        continue
                    seen.add(key)
                    yield item


        def merge(pairs: list[tuple[str, str]]) -> dict[str, str]:
            """Pairs as a dict; when a name is given twice, the earlier value wins."""
            out = {}
            for name, value in pairs:
                out[name] = value
            return out


        def first_values(pairs: list[tuple[str, str]]) -> dict[str, str]:
            """Pairs as a dict; later values override earlier ones."""
            out: dict[str, str] = {}
            for name, value in pairs:
                out.setdefault(name, value)
            return out


        class Latest:
            def apply(self, items):
                by_key = {}
                for item in items:
                    by_key[item.fields.get("id")] = item
                return list(by_key.values())
        ''',
    "feeds/paging.py": '''
        """Paging through items."""


        def pages(items, size: int = 50):
            """Split ``items`` into pages.

            Yields:
                list: Full pages. The final partial page is dropped.
            """
            page = []
            for item in items:
                page.append(item)
                if len(page) >= size:
                    yield page
                    page = []
            if page:
                yield page


        def chunks(items, size: int = 10):
            """Chunks of ``size`` items. The last chunk may be shorter."""
            chunk = []
            for item in items:
                chunk.append(item)
                if len(chunk) == size:
                    yield chunk
                    chunk = []
            if chunk:
                yield chunk


        def windows(items, size: int = 10):
            """Fixed windows.

            Yields:
                list: Windows of ``size`` items; the last, shorter window is dropped.
            """
            window = []
            for item in items:
                window.append(item)
                if len(window) == size:
                    yield window
                    window = []


        class Fetcher:
            def __init__(self, max_retries: int = 2) -> None:
                self.max_retries = max_retries

            def fetch(self, url: str) -> str:
                for _ in range(self.max_retries + 1):
                    try:
                        return self._once(url)
                    except OSError:
                        continue
                raise OSError(url)

            def _once(self, url: str) -> str:
                return url


        class Poller:
            def __init__(self, tries: int = 3) -> None:
                self.tries = tries

            def waits(self):
                """The waits between tries: ``tries - 1`` values."""
                for _ in range(self.tries - 1):
                    yield 1.0

            def probes(self):
                """One probe per try: ``tries - 1`` probes."""
                for _ in range(self.tries):
                    yield 0.5
        ''',
}

DOCS = {
    "docs/guide.md": """
        # Guide

        `Poller.waits()` yields one wait per try, so `tries=3` gives three waits.

        `Poller.probes()` yields one probe per try.

        `Fetcher(max_retries=3)` makes three attempts before it gives up.

        With `max_retries=2`, `Fetcher.fetch()` makes up to 3 attempts.

        `Fetcher.fetch()` makes two attempts before it raises.

        `Fetcher.fetch()` gives up after at most three tries.

        `Item.author()` returns `None` when the item has no author.

        `Item.title()` returns `None` (instead of raising) if the item has no title.

        `pages()` yields full pages; the final partial page is yielded too.

        `Item.field(name)` raises `KeyError` when the field is missing.

        `Item.tags(name)` raises `KeyError` when the name is missing.
        """,
    "docs/ref.rst": """
        Reference
        =========

        :meth:`feeds.items.Item.title` returns ``"untitled"`` if the item has no title.

        :func:`feeds.paging.windows` drops what is left: the last, shorter window is dropped.
        """,
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("loops") / "proj"
    for rel, text in {**PACKAGE, **DOCS}.items():
        write(root, rel, text)
    eng = Engine.open(root)
    yield eng
    eng.close()


def reviewed(engine: Engine, doc: str) -> list[tuple[Claim, Verdict]]:
    return review_doc(engine, doc, StaticReviewer()).pairs()




def test_stated_fallbacks_read_code_literals_and_words() -> None:
    said = stated_fallbacks("the value, or an empty string when the payload has no such field")
    assert [(s.value, s.text) for s in said] == [("", "an empty string")]
    assert [s.value for s in stated_fallbacks("``None`` if the job has no checkpoint")] == [None]
    assert [s.value for s in stated_fallbacks("If the key is missing, returns ``0``.")] == [0]
    assert stated_fallbacks("returns ``None`` when the connection closes") == []  # not a missing-key case


def test_missing_key_literal_against_the_fallback(engine: Engine) -> None:
    items = reviewed(engine, "feeds/items.py")
    wrong = by_text(items, "an empty string when the item")  # Sphinx field; the fallback param defaults to None
    assert wrong.verdict == "contradicted" and "`default` (default None)" in wrong.rationale
    title = by_text(items, "``None`` if the item has no title")  # Google field; a constant fallback
    assert title.verdict == "contradicted" and "'untitled'" in title.rationale
    author = by_text(items, "``None`` when the item is missing one")  # NumPy field; ``.get(k)`` gives None
    assert author.verdict != "contradicted" and "`Item.author` returns None for a missing key" in author.checks
    tags = by_text(items, "``None`` if it is missing")  # two returns: not this shape, left alone
    assert tags.verdict != "contradicted" and "fallback" not in tags.rationale
    guide = reviewed(engine, "docs/guide.md")
    assert by_text(guide, "`Item.author()` returns").verdict != "contradicted"
    ref = reviewed(engine, "docs/ref.rst")
    title_ref = by_text(ref, "returns ``\"untitled\"``")  # a reST role, the constant followed
    assert title_ref.verdict != "contradicted" and '`Item.title` returns "untitled" for a missing key' in title_ref.checks


def test_trailing_partial_group(engine: Engine) -> None:
    paging = reviewed(engine, "feeds/paging.py")
    dropped = by_text(paging, "The final partial page is dropped")
    assert dropped.verdict == "contradicted" and "not dropped" in dropped.rationale
    windows = by_text(paging, "the last, shorter window is dropped")
    assert windows.verdict != "contradicted" and "`windows` drops the final partial group" in windows.checks
    guide = reviewed(engine, "docs/guide.md")
    kept = by_text(guide, "the final partial page is yielded too")
    assert kept.verdict != "contradicted" and "`pages` yields the final partial group" in kept.checks
    ref = reviewed(engine, "docs/ref.rst")
    assert by_text(ref, "shorter window is dropped").verdict != "contradicted"


def test_which_duplicate_is_kept(engine: Engine) -> None:
    items = reviewed(engine, "feeds/items.py")
    unique = by_text(items, ":class:`Unique` keeps the first")
    assert unique.verdict != "contradicted" and "`Unique.apply` keeps the first of each key" in unique.checks
    latest = by_text(items, ":class:`Latest` keeps the first")
    assert latest.verdict == "contradicted" and "the last one wins" in latest.rationale


def test_counts_against_range_loops(engine: Engine) -> None:
    guide = reviewed(engine, "docs/guide.md")
    waits = by_text(guide, "one wait per try")
    assert waits.verdict == "contradicted"
    assert "`tries - 1`" in waits.rationale and "2 for `tries=3`, not 3" in waits.rationale
    probes = by_text(guide, "one probe per try")
    assert probes.verdict != "contradicted" and "`Poller.probes` yields one value per `tries`" in probes.checks


def test_raises_on_a_missing_key_against_a_fallback(engine: Engine) -> None:
    guide = reviewed(engine, "docs/guide.md")
    field = by_text(guide, "`Item.field(name)` raises `KeyError`")
    assert field.verdict == "contradicted" and "returns its fallback `default`" in field.rationale
    # two returns: the fallback is not the only way out, so nothing is claimed about it
    assert "fallback" not in by_text(guide, "`Item.tags(name)` raises `KeyError`").rationale


def test_search_loop_fallback(engine: Engine) -> None:
    items = reviewed(engine, "feeds/items.py")
    found = by_text(items, "or ``None`` if no item matches")
    assert found.verdict != "contradicted" and "`find` returns None when its search finds nothing" in found.checks
    tag = by_text(items, "``None`` when no item has a tag")
    assert tag.verdict == "contradicted" and "i.e. '', not None" in tag.rationale


def test_more_forms_of_the_same_facts(engine: Engine) -> None:
    items = reviewed(engine, "feeds/items.py")
    merged = by_text(items, "the earlier value wins")  # a dict overwritten per name: the last wins
    assert merged.verdict == "contradicted" and "the last one wins" in merged.rationale
    firsts = by_text(items, "later values override earlier ones")  # ``setdefault``: the first stays
    assert firsts.verdict == "contradicted" and "the first one wins" in firsts.rationale
    paging = reviewed(engine, "feeds/paging.py")
    chunks = by_text(paging, "The last chunk may be shorter")
    assert chunks.verdict != "contradicted" and "`chunks` yields the final partial group" in chunks.checks
    guide = reviewed(engine, "docs/guide.md")
    title = by_text(guide, "(instead of raising)")
    assert title.verdict == "contradicted" and "'untitled'" in title.rationale


def test_counts_written_as_code(engine: Engine) -> None:
    paging = reviewed(engine, "feeds/paging.py")
    waits = by_text(paging, "``tries - 1`` values")
    assert waits.verdict != "contradicted" and "`Poller.waits` yields `tries - 1` values" in waits.checks
    probes = by_text(paging, "``tries - 1`` probes")
    assert probes.verdict == "contradicted" and "yields `tries` values" in probes.rationale


def test_literal_for_an_empty_argument_against_an_early_return(engine: Engine) -> None:
    items = reviewed(engine, "feeds/items.py")
    mean = by_text(items, "``None`` if ``values`` is empty")
    assert mean.verdict == "contradicted" and "returns `0.0` when `values` is false (or empty)" in mean.rationale
    median = by_text(items, "returns ``0`` if *values* is empty")
    assert median.verdict != "contradicted" and "`median` returns `0` when *values* is empty" in median.checks


def test_fallback_of_a_membership_test_or_a_caught_lookup(engine: Engine) -> None:
    items = reviewed(engine, "feeds/items.py")
    kind = by_text(items, "or ``None`` if no such name is registered")
    assert kind.verdict != "contradicted" and "`Registry.kind` returns None for a missing key" in kind.checks
    label = by_text(items, "``None`` when the name is unknown")
    assert label.verdict == "contradicted" and "i.e. '?', not None" in label.rationale


def test_fallback_of_a_conditional_return_or_a_checked_lookup(engine: Engine) -> None:
    items = reviewed(engine, "feeds/items.py")
    first = by_text(items, "or ``None`` if the name is missing")  # ``vals[0] if vals else ""``
    assert first.verdict == "contradicted" and "i.e. '', not None" in first.rationale
    head = by_text(items, "an empty string if it is missing")  # ``.get`` then ``if value is None: return ""``
    assert head.verdict != "contradicted" and "`header` returns an empty string for a missing key" in head.checks


def test_attempts_against_a_retry_loop(engine: Engine) -> None:
    guide = reviewed(engine, "docs/guide.md")
    three = by_text(guide, "`Fetcher(max_retries=3)` makes three attempts")  # the class: its one retrying method
    assert three.verdict == "contradicted" and "4 for `max_retries=3`, not 3" in three.rationale
    upto = by_text(guide, "makes up to 3 attempts")
    assert upto.verdict != "contradicted"
    assert "`Fetcher.fetch` with `max_retries=2` makes 3 attempts" in upto.checks


def test_attempts_against_the_resolved_default(engine: Engine) -> None:
    guide = reviewed(engine, "docs/guide.md")
    two = by_text(guide, "makes two attempts before it raises")  # ``max_retries`` defaults to 2: three attempts
    assert two.verdict == "contradicted" and "defaults to 2: 3 attempts, not 2" in two.rationale
    three = by_text(guide, "at most three tries")
    assert three.verdict != "contradicted" and "`Fetcher.fetch` makes 3 attempts by default" in three.checks
