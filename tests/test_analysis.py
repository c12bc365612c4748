"""The code-aware analyzer: identifier splitting, whole names, stemming, pickling."""

from __future__ import annotations

import pickle

import pytest

from caas_tui.index.analysis import CodeAnalyzer, code_analyzer, split_identifier


def terms(text: str, analyzer: CodeAnalyzer | None = None) -> list[str]:
    return [t.text for t in (analyzer or code_analyzer())(text)]


@pytest.mark.parametrize(
    ("token", "parts"),
    [
        ("removeBody", ["remove", "body"]),  # camelCase
        ("SceneGraph", ["scene", "graph"]),  # PascalCase
        ("HTTPServer", ["http", "server"]),  # acronym then word
        ("getHTTPResponseCode", ["get", "http", "response", "code"]),
        ("IOError", ["io", "error"]),
        ("parseJSON2Data", ["parse", "json2", "data"]),  # digits stay with their letters
        ("remove_body", ["remove", "body"]),  # snake_case
        ("__init__", ["init"]),
        ("MAX_RETRY_COUNT", ["max", "retry", "count"]),
        ("xrkit.scene.Scene.remove_body", ["xrkit", "scene", "scene", "remove", "body"]),  # dotted
        ("vec3", ["vec3"]),
        ("int8", ["int8"]),
        ("utf8Decode", ["utf8", "decode"]),
        ("get_x", ["get", "x"]),  # single letters are the analyzer's business, not this function's
        ("", []),
        ("___", []),
    ],
)
def test_split_identifier(token: str, parts: list[str]) -> None:
    assert split_identifier(token) == parts


def test_whole_identifier_and_its_parts_are_both_terms() -> None:
    got = terms("remove_body HTTPServer")
    assert {"remove_body", "remov", "bodi", "httpserver", "http", "server"} <= set(got)


def test_identifier_and_spaced_words_share_terms() -> None:
    # Query and index use the same analyzer, so these meet on the word parts.
    assert {"remov", "bodi"} <= set(terms("remove_body")) & set(terms("remove body"))
    assert {"remov", "bodi"} <= set(terms("removes bodies"))  # prose is stemmed
    assert "remove_body" not in terms("remove body")  # the exact name stays distinct


def test_dotted_names_keep_suffixes_unstemmed() -> None:
    got = terms("xrkit.scene.Scene.remove_body")
    assert {"scene.remove_body", "xrkit.scene.scene.remove_body", "remove_body"} <= set(got)
    assert "e.g" not in terms("see e.g. the docs")  # abbreviations are not names
    assert not any("." in t for t in terms("Scene.remove_body", CodeAnalyzer(dotted=0)))


def test_digits_kept_and_stop_words_and_single_letters_dropped() -> None:
    got = terms("The vec3 of int8 is a x")
    assert got == ["vec3", "int8"]


def test_stop_words_only_drop_parts_not_whole_names() -> None:
    assert "is_a" in terms("is_a")


def test_positions_put_whole_names_beside_their_first_part() -> None:
    analyzer = code_analyzer()
    got = [(t.text, t.pos) for t in analyzer("call remove_body now", positions=True)]
    assert ("remov", 1) in got and ("bodi", 2) in got and ("remove_body", 1) in got
    assert ("now", 3) in got  # the whole name takes no extra slot: phrases still line up


def test_query_syntax_characters_are_just_separators() -> None:
    assert terms('(( AND OR :* "scene"^2') == ["scene"]


def test_overlong_tokens_are_skipped() -> None:
    assert terms("a" * 500 + " render") == ["render"]


def test_pickle_round_trip_drops_cache_and_compares_equal() -> None:
    analyzer = code_analyzer()
    terms("warm the cache remove_body", analyzer)
    clone = pickle.loads(pickle.dumps(analyzer))
    assert clone == analyzer
    assert clone._cache == {}
    assert terms("remove_body", clone) == terms("remove_body", analyzer)
    assert CodeAnalyzer(dotted=0) != analyzer
