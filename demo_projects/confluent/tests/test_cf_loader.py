import pytest

import confluent
from confluent import ConfluentError, CycleError, Field, InterpolationError, Loader, Schema, SourceError
from confluent.layers import TomlLayer


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_precedence_and_env_stays_string(tmp_path):
    base = write(tmp_path, "base.toml", "[db]\nport = 5432\nhosts = ['a', 'b']\n")
    local = write(tmp_path, "local.toml", "[db]\nhosts = ['c']\n")
    cfg = confluent.load(base, local, environ={"APP_DB__PORT": "6000", "app_db__user": "x"})
    assert cfg["db.port"] == "6000"
    assert cfg["db.hosts"] == ["c"]
    assert "db.user" not in cfg
    assert cfg.origin("db.port") == "env"


def test_cli_beats_env_and_shlex(tmp_path):
    cfg = confluent.load(environ={"APP_A": "env"}, cli_args="--a=cli 'greeting=hello world'")
    assert cfg["a"] == "cli"
    assert cfg["greeting"] == "hello world"
    with pytest.raises(ConfluentError):
        confluent.load(environ={}, cli_args="a=1 # note")


def test_schema_coerces_env(tmp_path):
    schema = Schema.from_mapping({"db.port": Field("int", default=5432)})
    cfg = confluent.load(schema=schema, environ={"APP_DB__PORT": "6000"})
    assert cfg["db.port"] == 6000


def test_interpolation_before_validation():
    schema = Schema.from_mapping({"a": Field("int", default="7"), "b": Field("str", default="${a}")})
    cfg = confluent.load(schema=schema, environ={})
    assert cfg["b"] == "7"


def test_cycles_and_missing_refs():
    with pytest.raises(CycleError) as info:
        confluent.load(defaults={"a": "${b}", "b": "${a}"}, environ={})
    assert info.value.chain == ["a", "b", "a"]
    with pytest.raises(InterpolationError) as missing:
        confluent.load(defaults={"a": "${nope}"}, environ={})
    assert not isinstance(missing.value, KeyError)


def test_profiles(tmp_path):
    path = write(tmp_path, "app.toml", "[db]\nhost = 'local'\n[profiles.prod]\ndb.host = 'db.internal'\n"
                 "[profile.prod]\ndb.host = 'old'\n")
    assert confluent.load(path, environ={}).profile == "default"
    assert confluent.load(path, environ={"CONFLUENT_PROFILE": "prod"})["db.host"] == "db.internal"


def test_missing_file_skipped_unless_required(tmp_path):
    cfg = confluent.load(tmp_path / "missing.toml", environ={})
    assert len(cfg) == 0
    with pytest.raises(SourceError):
        TomlLayer(tmp_path / "missing.toml", required=True).load()


def test_strict_rejects_unrelated_env():
    schema = Schema.from_mapping({"a": Field("int", default=1)})
    with pytest.raises(confluent.ValidationError) as info:
        confluent.load(schema=schema, environ={"APP_OTHER": "x"}, strict=True)
    assert info.value.keys() == ["other"]


def test_validate_does_not_raise():
    schema = Schema.from_mapping({"n": Field("int", min=1), "name": Field(min=2)})
    data, errors = schema.validate({"n": "0", "name": "x"})
    assert [e.key for e in errors] == ["n", "name"]
    assert data["n"] == 0


def test_toml_hex_literal_versus_env_string(tmp_path):
    path = write(tmp_path, "hex.toml", "port = 0x1F\n")
    assert confluent.load(path, environ={})["port"] == 31
    schema = Schema.from_mapping({"port": Field("int")})
    with pytest.raises(confluent.ValidationError) as info:
        confluent.load(schema=schema, environ={"APP_PORT": "0x1F"})
    assert info.value.keys() == ["port"]


def test_custom_coercer_failure_inside_schema():
    @confluent.register_coercer("cf_even")
    def to_even(value):
        number = int(value)
        if number % 2:
            raise ValueError("odd")
        return number

    with pytest.raises(confluent.CoercionError):
        confluent.coerce("3", "cf_even")
    schema = Schema.from_mapping({"n": Field("cf_even")})
    with pytest.raises(confluent.ValidationError) as info:
        confluent.load(schema=schema, environ={"APP_N": "3"})
    assert [e.key for e in info.value.errors] == ["n"]
