"""issue 14: how a stated value compares with what ran (``caas_tui/review/execute/statedvalues.py``).

Spec first: each correct wording a doc writer uses (a rounding, an example value, a repr spelled with
spaces, a set in another order, a value holding an address or a time) next to its defect twin, which
must still compare as different.
"""

from __future__ import annotations

import pytest

from caas_tui.review.execute.statedvalues import (
    approx_match,
    example_only,
    literal_equal,
    same_expression,
    volatile_match,
)


@pytest.mark.parametrize(("want", "got", "ok"), [
    ("about 0.33", "0.3333333333333333", True),
    ("about 0.5", "0.3333333333333333", False),
    ("~0.333", "0.3333333333333333", True),
    ("~0.666", "0.3333333333333333", False),
    ("≈ 3.14", "3.141592653589793", True),
    ("approximately 2.7", "2.718281828459045", True),
    ("roughly 100", "103", True),  # a round number states its precision: to the nearest 100
    ("roughly 100", "170", False),
    ("about 7", "7.4", True),
    ("about 7", "8", False),
    ("~1.5 s", "1.52 s", True),
    ("~1.5 s", "1.52 ms", False),  # the words around the number still compare
])
def test_approximate_values_compare_as_roundings(want, got, ok):
    assert approx_match(want, got) is ok


@pytest.mark.parametrize("want", ["0.33", "1.37", "Point(1, 2)", "about", "~", "~/.cache"])
def test_no_approximation_marker_means_no_opinion(want):
    assert approx_match(want, "0.3333333333333333") is None


@pytest.mark.parametrize(("want", "example"), [
    ("e.g. 1.37", True), ("E.g. 1.37", True), ("eg 1.37", True), ("for example 1.37", True),
    ("something like 1.37", True), ("e.g.: 1.37", True),
    ("1.37", False), ("False", False), ("like 1.37", False), ("'e.g.'", False),
])
def test_an_example_value_is_not_compared(want, example):
    assert example_only(want) is example


@pytest.mark.parametrize(("want", "got", "ok"), [
    ("Point(x = 1, y = 2)", "Point(x=1, y=2)", True),
    ("Point(x = 1, y = 3)", "Point(x=1, y=2)", False),
    ("Money( '4.00' )", "Money('4.00')", True),
    ("Money('4.00')", 'Money("4.00")', True),  # the same str either way
    ("Money('4.0')", "Money('4.00')", False),
    ("f(1)", "f(1.0)", False),
    ("f(True)", "f(1)", False),
    ("<Job 3>", "<Job 3>", False),  # not an expression: compared elsewhere
    ("hello world", "hello  world", False),
])
def test_reprs_equal_when_they_parse_to_the_same_expression(want, got, ok):
    assert same_expression(want, got) is ok


@pytest.mark.parametrize(("want", "got", "ok"), [
    ("{'a', 'b', 'c', 'd', 'e'}", "{'b', 'c', 'a', 'd', 'e'}", True),
    ("{'a', 'b', 'c', 'd', 'f'}", "{'d', 'e', 'a', 'c', 'b'}", False),
    ("{'port': 8080, 'host': 'x'}", "{'host': 'x', 'port': 8080}", True),
    ("{'port': 8081, 'host': 'x'}", "{'host': 'x', 'port': 8080}", False),
    ("[1, 2]", "[2, 1]", False),
    ("1", "1.0", False),  # equal numbers of another type print differently
    ("{1, 2}", "frozenset({1, 2})", False),
])
def test_literal_outputs_compare_as_values(want, got, ok):
    assert literal_equal(want, got) is ok


@pytest.mark.parametrize(("want", "got", "ok"), [
    # the address varies; the class name does not
    ("<appcfg.config.Config object at 0x7f3a2c1d5e80>", "<appcfg.config.Config object at 0x7f11aa22bb90>", True),
    ("<appcfg.config.Settings object at 0x7f3a2c1d5e80>", "<appcfg.config.Config object at 0x7f11aa22bb90>", False),
    ("<Config object at 0x7f3a2c1d5e80>", "<appcfg.config.Config object at 0x7f11aa22bb90>", True),
    ("<Settings object at 0x7f3a2c1d5e80>", "<appcfg.config.Config object at 0x7f11aa22bb90>", False),
    ("<Config object at ...>", "<appcfg.config.Config object at 0x7f11aa22bb90>", True),
    # a time or a date varies; the rest does not
    ("Job('nightly', created=2024-05-01 12:00:00)", "Job('nightly', created=2026-12-02 06:09:50)", True),
    ("Job('weekly', created=2024-05-01 12:00:00)", "Job('nightly', created=2026-12-02 06:09:50)", False),
    ("started at 12:00:01.5", "started at 06:09:50.123456", True),
    # a uuid varies
    ("3f2b8c1e-9a4d-4e2b-8f1a-2c3d4e5f6a7b", "52147c61-e420-481a-ae76-43b4fd09a016", True),
    ("UUID('3f2b8c1e-9a4d-4e2b-8f1a-2c3d4e5f6a7b')", "UUID('52147c61-e420-481a-ae76-43b4fd09a016')", True),
    ("Task('3f2b8c1e-9a4d-4e2b-8f1a-2c3d4e5f6a7b')", "UUID('52147c61-e420-481a-ae76-43b4fd09a016')", False),
    # the sandbox's working directory stands for the reader's own
    ("/home/me/project/.cache", "/tmp/caas-exec-k2j4h5/.cache", True),
    ("~/.cache", "/tmp/caas-exec-k2j4h5/.cache", True),
    ("/home/me/project/.config", "/tmp/caas-exec-k2j4h5/.cache", False),
    ("PosixPath('/home/me/app/.cache')", "PosixPath('/tmp/caas-exec-k2j4h5/.cache')", True),
    # a volatile part on one side only is a real difference
    ("<Config object at 0x7f3a2c1d5e80>", "Config(port=8080)", False),
])
def test_volatile_parts_are_masked_and_the_rest_compared(want, got, ok):
    assert volatile_match(want, got) is ok


@pytest.mark.parametrize(("want", "got"), [("8080", "8080"), ("8081", "8080"), ("'abc'", "'abd'"),
                                            ("/etc/hosts", "/etc/hosts")])
def test_nothing_volatile_means_no_opinion(want, got):
    assert volatile_match(want, got) is None
