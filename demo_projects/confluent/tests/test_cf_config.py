import json

import pytest

import confluent
from confluent import ConfigKeyError, Field, FrozenError, Loader, Schema
from confluent.report import by_layer, diff, explain


def make(environ=None, **kw):
    return Loader(defaults={"db": {"host": "h", "password": "pw"}, "apiToken": "t"}, environ=environ or {}, **kw).build()


def test_lookup_and_sections():
    cfg = make()
    assert cfg.get("db.nope") is None
    with pytest.raises(KeyError):
        cfg["db.nope"]
    assert len(cfg.section("missing")) == 0
    with pytest.raises(TypeError):
        cfg.section("db.host")


def test_redaction():
    cfg = make()
    assert "pw" not in repr(cfg)
    assert "'apiToken': 't'" in repr(cfg)
    assert cfg.as_dict()["db"]["password"] == "pw"
    assert json.loads(cfg.dumps())["db"]["password"] == "<redacted>"


def test_freeze_and_set():
    cfg = make()
    assert cfg.freeze() is cfg
    with pytest.raises(FrozenError):
        cfg.set("db.port", 1)
    with pytest.raises(FrozenError):
        cfg.section("db").set("port", 1)
    with pytest.raises(TypeError):
        cfg.reload()


def test_reload_drops_runtime_values_and_reports_changes():
    env = {"APP_X": "1"}
    cfg = make(environ=env)
    cfg.set("db.port", 9)
    env["APP_X"] = "2"
    changed = cfg.reload()
    assert changed == {"x", "db.port"}
    assert "db.port" not in cfg


def test_reload_keeps_old_data_on_failure():
    env = {"APP_N": "1"}
    cfg = make(environ=env, schema=Schema.from_mapping({"n": Field("int", default=0)}))
    env["APP_N"] = "x"
    with pytest.raises(confluent.ValidationError):
        cfg.reload()
    assert cfg["n"] == 1


def test_report_helpers():
    cfg = make()
    lines = list(explain(cfg))
    assert "db.password = <redacted>  [defaults]" in lines
    assert by_layer(cfg)["env"] == []
    other = make(environ={"APP_DB__HOST": "z"})
    assert diff(cfg, other) == {"db.host": ("h", "z")}
