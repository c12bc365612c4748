"""CSV and JSON Lines readers."""

import pytest
from pipekit import SourceError, read_csv, read_json_lines


def test_quoted_field_may_span_lines(tmp_path):
    path = tmp_path / "notes.csv"
    path.write_text('id,note\r\n1,"first line\r\nsecond line"\r\n2,plain\r\n', encoding="utf-8", newline="")
    rows = list(read_csv(path))
    assert rows == [{"id": "1", "note": "first line\r\nsecond line"}, {"id": "2", "note": "plain"}]


def test_doubled_quote_is_one_quote(tmp_path):
    path = tmp_path / "q.csv"
    path.write_text('name\n"a ""quoted"" word"\n', encoding="utf-8")
    assert list(read_csv(path)) == [{"name": 'a "quoted" word'}]


def test_spaces_are_kept_unless_strip(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("a, b\n1, 2\n", encoding="utf-8")
    assert list(read_csv(path)) == [{"a": "1", " b": " 2"}]
    assert list(read_csv(path, strip=True)) == [{"a": "1", "b": "2"}]


def test_without_header_fields_are_positions(tmp_path):
    path = tmp_path / "n.csv"
    path.write_text("x;y\n", encoding="utf-8")
    assert list(read_csv(path, delimiter=";", has_header=False)) == [{"0": "x", "1": "y"}]


def test_too_many_fields_is_a_source_error(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("a\n1,2\n", encoding="utf-8")
    with pytest.raises(SourceError):
        list(read_csv(path))


def test_json_lines_accepts_crlf_and_missing_final_newline(tmp_path):
    path = tmp_path / "e.jsonl"
    path.write_bytes(b'{"a": 1}\r\n{"a": 2}')
    assert list(read_json_lines(path)) == [{"a": 1}, {"a": 2}]


def test_json_lines_bad_line_raises_by_default(tmp_path):
    path = tmp_path / "e.jsonl"
    path.write_text('{"a": 1}\nnot json\n{"a": 3}\n', encoding="utf-8")
    with pytest.raises(SourceError):
        list(read_json_lines(path))
    assert list(read_json_lines(path, skip_invalid=True)) == [{"a": 1}, {"a": 3}]
