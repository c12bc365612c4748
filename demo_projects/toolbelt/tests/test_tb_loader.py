from __future__ import annotations

import json

import pytest
from toolbelt import Context, LoaderError, RuleSyntaxError
from toolbelt.loader import dump_json, load_ini, load_json, loads_json

DOC = {
    "flags": [
        {"key": "checkout", "variants": {"old": 1, "new": 2}, "weights": {"new": 1}, "default": "old", "off": "old",
         "rules": [{"if": ["country in [FR, BE]"], "serve": "new"}]},
        {"key": "beta", "rollout": 100},
    ]
}


def test_round_trip(tmp_path):
    path = tmp_path / "flags.json"
    path.write_text(json.dumps(DOC))
    flags = load_json(path)
    again = loads_json(dump_json(flags))
    assert [f.key for f in again] == ["checkout", "beta"]
    assert again[0].evaluate(Context("a", {"country": "FR"})).value == 2


def test_bad_json_and_bad_layout_raise_loader_error():
    with pytest.raises(LoaderError):
        loads_json("{")
    with pytest.raises(LoaderError):
        loads_json('{"flag": []}')


def test_bad_rule_raises_rule_syntax_error_not_loader_error():
    with pytest.raises(RuleSyntaxError):
        loads_json('{"flags": [{"key": "x", "rules": [{"if": "country", "serve": "on"}]}]}')


def test_missing_json_file_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_json(tmp_path / "absent.json")


def test_duplicate_json_keys_last_one_wins():
    flags = loads_json('{"flags": [{"key": "a", "rollout": 0, "rollout": 100}]}')
    assert flags[0].rollout == 100.0


def test_ini(tmp_path):
    path = tmp_path / "flags.ini"
    path.write_text("[Beta]\nEnabled = yes\nrollout = 12.5\nwhen = country eq FR and plan eq pro\n")
    (flag,) = load_ini(path)
    assert flag.key == "Beta" and flag.enabled and flag.rollout == 12.5
    assert flag.evaluate(Context("a", {"country": "FR", "plan": "pro"})).variant == "on"


def test_missing_ini_file_gives_no_flags(tmp_path):
    assert load_ini(tmp_path / "absent.ini") == []
