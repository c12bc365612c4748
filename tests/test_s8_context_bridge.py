"""The subject slot of a sentence that names no API (issue 14): which openings bridge to a
subject in context (pronouns, definite descriptions spelling a class's name) and which do
not (an impersonal "it", "this is why", a noun phrase that is no API's name)."""

from __future__ import annotations

import pytest

from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.subjects.binding import describes
from caas_tui.review.static.subjects.bridge import find_bridge, find_subjectless, rewrite


@pytest.mark.parametrize(("text", "named"), [
    ("It returns a `list` of rows.", "`load` returns a `list` of rows."),
    ("Yes: it raises `KeyError` for a missing key.", "Yes: `load` raises `KeyError` for a missing key."),
    ("Then it writes a checkpoint after every batch.", "Then `load` writes a checkpoint after every batch."),
    ("Note that it keeps the original.", "Note that `load` keeps the original."),
    ("Its `timeout` defaults to 5 seconds.", "`load`'s `timeout` defaults to 5 seconds."),
    ("It is never `None`.", "`load` is never `None`."),
])
def test_pronoun_bridges(text: str, named: str) -> None:
    bridge = find_bridge(text)
    assert bridge is not None and bridge.kind == "pronoun"
    assert rewrite(text, bridge, "load") == named


@pytest.mark.parametrize(("text", "words"), [
    ("The store's `timeout` defaults to 10 seconds.", ("store",)),
    ("A source opens itself the first time you iterate over it.", ("source",)),
    ("Two transforms compare equal when their fields are equal.", ("transform",)),
    ("A rule's `rollout` is a fraction.", ("rule",)),
    ("The ttl cache expires entries after `ttl` seconds.", ("ttl", "cache")),
    ("Each pipeline keeps its own checkpoint.", ("pipeline",)),
    ("This method never returns `None`.", ("method",)),
    ("The function returns a list.", ("function",)),
])
def test_description_bridges(text: str, words: tuple[str, ...]) -> None:
    bridge = find_bridge(text)
    assert bridge is not None and bridge.kind == "description" and bridge.words == words


@pytest.mark.parametrize("text", [
    "It is recommended to keep files small.",
    "It's worth pinning the version.",
    "This is why the cache exists.",
    "It depends on your data.",
    "Cached evaluations expire early.",  # no determiner: no description
    "moneta settles that the polite way.",
    "Quoted fields may contain commas.",
    "`load` returns a dict.",
    "Also here this works in both directions:",  # a real guide: "this" is the example above
    "This returns the same object again.",
])
def test_no_bridge(text: str) -> None:
    assert find_bridge(text) is None


def _cls(name: str) -> Def:
    return Def("class", f"pkg.{name}", None, None)


def _fn(name: str) -> Def:
    return Def("function", f"pkg.{name}", None, None)


@pytest.mark.parametrize(("text", "defn", "fits"), [
    ("The store's `timeout` defaults to 10 seconds.", _cls("DiskStore"), True),
    ("The store's `timeout` defaults to 10 seconds.", _cls("StoreConfig"), False),
    ("The disk store keeps a file open.", _cls("DiskStore"), True),
    ("A source opens itself.", _cls("CsvSource"), True),
    ("A source opens itself.", _fn("open_source"), False),
    ("The function returns a list.", _fn("load"), True),
    ("The function returns a list.", _cls("Loader"), False),
    ("The file is big.", _cls("DiskStore"), False),
    ("It returns a list.", _cls("DiskStore"), True),
])
def test_description_must_spell_the_name(text: str, defn: Def, fits: bool) -> None:
    bridge = find_bridge(text)
    assert bridge is not None
    assert describes(bridge, defn) is fits


@pytest.mark.parametrize("text", ["This is not a bug: floats round that way.", "This means the file stays open."])
def test_this_for_the_preceding_statement(text: str) -> None:
    assert find_bridge(text) is None


@pytest.mark.parametrize(("text", "named"), [
    ("Returns a `tuple` of rows.", "`load` returns a `tuple` of rows."),
    ("Raises `KeyError` for a missing key.", "`load` raises `KeyError` for a missing key."),
    ("Return the rows as a list.", "`load` return the rows as a list."),
])
def test_subjectless_reference_sentence(text: str, named: str) -> None:
    bridge = find_subjectless(text)
    assert bridge is not None and rewrite(text, bridge, "load") == named


@pytest.mark.parametrize("text", ["Handlers run synchronously.", "Components hold state.", "Vectors are immutable.",
                                  "Does `matches` need the whole value?", "Returns are cached."])
def test_plural_nouns_are_no_subjectless_verbs(text: str) -> None:
    assert find_subjectless(text) is None
