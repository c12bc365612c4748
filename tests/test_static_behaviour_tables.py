"""The tables behind the behaviour checks: every family member is a real standard-library
callable under its canonical name, and the one "missing key" vocabulary covers each phrase
the three outcome checks used to list apart."""

from __future__ import annotations

import importlib

import pytest

from caas_tui.review.static.behaviour.families import FAMILIES, RECEIVERS, family_of
from caas_tui.review.static.outcomes.missingwords import MISSING, MISSING_WORD


def _lookup(name: str) -> object:
    parts = name.split(".")
    for i in range(len(parts) - 1, 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise LookupError(name)


@pytest.mark.parametrize("name", sorted({n for groups in FAMILIES.values() for g in groups for n in g}))
def test_family_members_exist_and_are_callable(name: str) -> None:
    assert callable(_lookup(name))


def test_each_name_has_one_family_and_group() -> None:
    names = [n for groups in FAMILIES.values() for g in groups for n in g]
    assert len(names) == len(set(names))
    assert family_of("re.fullmatch") == ("regular-expression match", 2)
    assert family_of("time.time_ns") == family_of("time.time")
    assert family_of("re.compile") is None
    assert all(callable(_lookup(ctor)) for ctor in RECEIVERS)


@pytest.mark.parametrize("phrase", [
    "a missing key", "when the key is absent", "not found", "not present", "not stored", "not registered",
    "an unknown name", "no such entry", "the map has no entry", "does not exist", "doesn't contain it",
    "is not in the table", "a nonexistent path", "if no handler matches", "when none is found",
    "nothing matches", "there is none", "a key that was never stored", "never been registered",
    "nothing is stored", "isn't there", "an unset option",
])
def test_missing_vocabulary_covers_every_former_phrase(phrase: str) -> None:
    assert MISSING.search(phrase) and MISSING_WORD.search(phrase)


@pytest.mark.parametrize("phrase", ["the key is present", "found it", "a known name", "unknownish"])
def test_missing_vocabulary_leaves_present_cases(phrase: str) -> None:
    assert not MISSING_WORD.search(phrase)
