"""Source lifecycle."""

import pytest
from pipekit import CsvSource, IterableSource, JsonLinesSource, SourceError


def test_iterating_an_unopened_source_raises():
    source = IterableSource([{"a": 1}])
    with pytest.raises(SourceError):
        list(source)


def test_csv_source_must_be_opened(tmp_path):
    path = tmp_path / "a.csv"
    path.write_text("a\n1\n", encoding="utf-8")
    source = CsvSource(path)
    with pytest.raises(SourceError):
        next(iter(source))
    with source:
        assert [r.payload for r in source] == [{"a": "1"}]


def test_close_twice_is_fine():
    source = IterableSource([])
    source.open()
    source.close()
    source.close()
    assert not source.is_open


def test_json_lines_source_fails_on_a_bad_line(tmp_path):
    path = tmp_path / "e.jsonl"
    path.write_text('{"a": 1}\n{oops\n', encoding="utf-8")
    with JsonLinesSource(path) as source, pytest.raises(SourceError):
        list(source)


def test_offsets_count_from_zero(numbers):
    with numbers:
        assert [r.offset for r in numbers][:3] == [0, 1, 2]
