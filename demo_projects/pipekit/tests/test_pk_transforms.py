"""Transforms."""

from pipekit import Dedupe, Filter, Map, Record, Rename
from pipekit.transforms import chain


def records(*payloads):
    return [Record(p, i) for i, p in enumerate(payloads)]


def test_default_name_is_lower_case_class_name():
    assert Map(lambda r: r).name == "map"
    assert Filter(bool, name="keep").name == "keep"


def test_dedupe_keeps_the_first_record():
    out = list(Dedupe("k")(records({"k": 1, "v": "a"}, {"k": 1, "v": "b"}, {"k": 2, "v": "c"})))
    assert [r.payload["v"] for r in out] == ["a", "c"]


def test_filter_counts_dropped():
    keep_even = Filter(lambda r: r.payload["n"] % 2 == 0)
    out = list(keep_even(records(*({"n": i} for i in range(5)))))
    assert [r.payload["n"] for r in out] == [0, 2, 4]
    assert keep_even.dropped == 2


def test_rename_keeps_other_fields():
    out = list(Rename({"a": "b"})(records({"a": 1, "c": 2})))
    assert out[0].payload == {"b": 1, "c": 2}


def test_chain_applies_left_to_right():
    double = Map(lambda r: r.with_fields(n=r.payload["n"] * 2))
    plus_one = Map(lambda r: r.with_fields(n=r.payload["n"] + 1))
    assert [r.payload["n"] for r in chain(double, plus_one)(records({"n": 3}))] == [7]


def test_record_get_missing_returns_default():
    record = Record({"a": 1})
    assert record.get("b") is None
    assert record.get("b", 0) == 0
