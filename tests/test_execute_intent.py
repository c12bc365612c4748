"""issue 14: a raise the doc shows on purpose, or owes to state set up outside Python
(``caas_tui/review/execute/intent.py``).

Spec first: each correct wording (a comment or a sentence announcing the error, a shell ``export``,
a placeholder token, two alternatives registering one name) next to its defect twin, whose raise
must still read as a defect (another type, a call the signature rejects, a name no block registered).
"""

from __future__ import annotations

import pytest

from caas_tui.review.execute.intent import (
    announced_error,
    block_line,
    expected_by_prose,
    missing_in_workdir,
    prose_around,
    raise_as_stated,
    registered_before,
    runs_after,
    sandbox_lacks,
    session_namespace,
    set_outside_python,
    stated_raise_at,
    with_placeholder,
)
from caas_tui.review.execute.session import Frame, RaisedError
from caas_tui.review.execute.statedvalues import comment_raise

PROJECT = "/proj/appcfg/config.py"
MRO = {
    "KeyError": ("KeyError", "LookupError", "Exception", "BaseException", "object"),
    "TypeError": ("TypeError", "Exception", "BaseException", "object"),
    "ValueError": ("ValueError", "Exception", "BaseException", "object"),
    "ValidationError": ("ValidationError", "ConfigError", "Exception", "BaseException", "object"),
    "AuthError": ("AuthError", "ConfigError", "Exception", "BaseException", "object"),
    "ImportError": ("ImportError", "Exception", "BaseException", "object"),
}


def err(kind: str, message: str, *files: str, line: int = 1) -> RaisedError:
    frames = tuple(Frame(f, line if f.startswith("<block") else 10, "f") for f in files or ("<block 0>",))
    return RaisedError(kind, "builtins", MRO[kind], message, f"{kind}: {message}", frames)


IN_PROJECT = ("<block 0>", PROJECT)


# --- a comment states the raise ------------------------------------------------------------------

@pytest.mark.parametrize(("comment", "names", "detail"), [
    ("# raises KeyError", ("KeyError",), ""),
    ("# Raises KeyError", ("KeyError",), ""),
    ("# raises `KeyError`", ("KeyError",), ""),
    ("# -> KeyError: 'nope'", ("KeyError",), "'nope'"),
    ("# => ValueError", ("ValueError",), ""),
    ("# This raises ValidationError: ports stop at 65535", ("ValidationError",), "ports stop at 65535"),
    ("# raises appcfg.ValidationError because ports stop at 65535", ("ValidationError",), "because ports stop at 65535"),
    ("# KeyError", ("KeyError",), ""),
    ("# KeyError: 'nope'", ("KeyError",), "'nope'"),
    ("# throws InvalidAmount", ("InvalidAmount",), ""),
    ("# fails with a TypeError", ("TypeError",), ""),
    ("# raises KeyError or ValueError", ("KeyError", "ValueError"), ""),
])
def test_a_comment_states_a_raise(comment, names, detail):
    got = comment_raise(comment)
    assert got is not None
    assert got.names == names
    assert got.detail == detail


@pytest.mark.parametrize("comment", ["# -> Point(x=1, y=2)", "# -> 8080", "# Config", "# -> True", "# returns None",
                                     "# raises KeyError if the key is missing", "# may raise KeyError",
                                     "# would raise KeyError", "# raises KeyError when it is closed",
                                     "# does not raise KeyError", "# never raises", "# raises", "# the port",
                                     "# -> Money"])
def test_other_comments_state_no_raise(comment):
    assert comment_raise(comment) is None


def test_only_a_verb_states_a_raise_for_certain():
    assert comment_raise("# raises KeyError").explicit
    assert not comment_raise("# KeyError").explicit  # ``print(type(e).__name__)  # KeyError`` names a value
    assert not comment_raise("# -> KeyError: 'nope'").explicit


def test_the_raising_line_is_found_in_the_block_frames():
    e = err("KeyError", "'nope'", "<block 3:2>", PROJECT, line=1)
    assert block_line(e) == 2  # 0-based in the block: the piece starts at line 2, its line 1
    assert block_line(err("KeyError", "'x'", "<block 0>", line=4)) == 3
    assert block_line(err("KeyError", "'x'", PROJECT)) is None


BLOCK = ('from appcfg import Config\ncfg = Config({})\ncfg.get("nope")  # raises KeyError\n'
         '# This raises ValidationError: ports stop at 65535\nvalidate_port(\n    70000,\n)\nprint(1)  # 1')


def test_the_stated_raise_of_the_raising_statement():
    assert stated_raise_at(BLOCK, 2).names == ("KeyError",)  # a trailing comment
    assert stated_raise_at(BLOCK, 4).names == ("ValidationError",)  # the comment line above
    assert stated_raise_at(BLOCK, 5).names == ("ValidationError",)  # any line of a statement spanning lines
    assert stated_raise_at(BLOCK, 1) is None
    assert stated_raise_at(BLOCK, 7) is None


def test_what_a_raise_leaves_unrun():
    assert runs_after(BLOCK, 2)  # the statements after ``cfg.get("nope")``
    assert runs_after(BLOCK, 5)
    assert not runs_after(BLOCK, 7)
    assert not runs_after("def f():\n    g()\n\nf()", 3)
    assert not runs_after("try:\n    f()\nexcept KeyError:\n    pass", 1)


def test_a_stated_raise_holds_by_mro_name():
    held = raise_as_stated(comment_raise("# raises KeyError"), err("KeyError", "'nope'", *IN_PROJECT))
    assert held.holds and held.complete
    base = raise_as_stated(comment_raise("# raises LookupError"), err("KeyError", "'nope'", *IN_PROJECT))
    assert base.holds
    other = raise_as_stated(comment_raise("# raises KeyError"), err("TypeError", "config keys are strings, not int",
                                                                    *IN_PROJECT))
    assert not other.holds
    assert "KeyError" in other.note


def test_a_stated_message_is_compared_and_a_reason_is_not():
    assert raise_as_stated(comment_raise("# -> KeyError: 'nope'"), err("KeyError", "'nope'", *IN_PROJECT)).complete
    wrong = raise_as_stated(comment_raise("# -> KeyError: 'port'"), err("KeyError", "'nope'", *IN_PROJECT))
    assert not wrong.holds  # a quoted message is what the run prints: this one is stale
    reason = raise_as_stated(comment_raise("# This raises ValidationError: ports stop at 65535"),
                             err("ValidationError", "port 70000 is out of range", *IN_PROJECT))
    assert reason.holds and not reason.complete  # the type held; the wording was not compared
    assert "ports stop at 65535" in reason.note


def test_a_call_the_signature_rejects_never_holds():
    rejected = err("TypeError", "get() missing 1 required positional argument: 'key'")
    assert not raise_as_stated(comment_raise("# raises TypeError"), rejected).holds


# --- prose around the block announces the error --------------------------------------------------

DOC_TEXT = """# Guide

If you forget the `port` key, you get a `KeyError`:

```python
Config({}).get("port")
```

This raises `ValidationError` because ports stop at 65535.

With the key set it works:

```python
print(1)
```
"""
DOC = DOC_TEXT.split("\n")


def test_the_prose_right_before_and_after_a_block():
    before, after = prose_around(DOC, 6, 6)
    assert before == "If you forget the `port` key, you get a `KeyError`:"
    assert after == "This raises `ValidationError` because ports stop at 65535."
    before, after = prose_around(DOC, 14, 14)
    assert before == "With the key set it works:"
    assert after == ""


@pytest.mark.parametrize(("before", "after", "names"), [
    ("If you forget the `port` key, you get a `KeyError`:", "", ("KeyError",)),
    ("The following fails, because the config has no `port` key:", "", ()),
    ("Don't pass the port as a string:", "", ()),
    ("Do not call `close` twice:", "", ()),
    ("", "This raises `ValidationError` because ports stop at 65535.", ("ValidationError",)),
    ("", "That fails with :exc:`~appcfg.AuthError`.", ("AuthError",)),
    ("Passing a negative port raises a `ValueError`:", "", ("ValueError",)),
    ("Calling it twice throws `RuntimeError`.", "", ("RuntimeError",)),
    ("Without the key this results in an error:", "", ()),
    ("Wrong: the port as a string", "", ()),
    ("Passing a negative port raises `ValidationError`. For example:", "", ("ValidationError",)),
])
def test_prose_announces_an_error(before, after, names):
    got = announced_error(before, after)
    assert got is not None
    assert got.names == names


@pytest.mark.parametrize(("before", "after"), [
    ("With the key set it works:", ""),
    ("Subclass `Config` and override `get`:", ""),
    ("This never raises, even for a missing key:", ""),
    ("It does not fail when the key is missing:", ""),
    ("", "With the key set it works:"),  # the intro of the next block, not a remark on this one
    ("", "Errors are reported by `ConfigError`."),  # no word pointing back at the block
    ("Load it without error:", ""),
    ("If you call `load` twice you get the same `Config`:", ""),  # an outcome, not a failure
    ("Don't forget to close the client:", ""),
    ("To avoid incorrect results, pass a str:", ""),
    ("Loading fails without a file. For example:", ""),  # a connector hands over a named class only
    ("Bad files raise `ConfigError`. Load a good one instead:", ""),
])
def test_other_prose_announces_nothing(before, after):
    assert announced_error(before, after) is None


def test_an_announced_error_expects_the_named_type_or_a_callee_refusing():
    named = announced_error("If you forget the `port` key, you get a `KeyError`:", "")
    assert expected_by_prose(named, err("KeyError", "'port'", *IN_PROJECT))
    assert not expected_by_prose(named, err("TypeError", "config keys are strings, not int", *IN_PROJECT))
    unnamed = announced_error("Don't pass the port as a string:", "")
    assert expected_by_prose(unnamed, err("TypeError", "a port is an int, not str", *IN_PROJECT))
    # the doc's call does not fit the signature: a stale example, whatever the intro says
    assert not expected_by_prose(unnamed, err("TypeError", "validate_port() got an unexpected keyword argument "
                                                           "'number'"))
    assert not expected_by_prose(unnamed, err("ImportError", "cannot import name 'Conf' from 'appcfg'"))
    assert not expected_by_prose(unnamed, err("ValueError", "bad", "<block 0>"))  # raised by the doc's own line


# --- state set up outside Python -----------------------------------------------------------------

ENV_ERR = err("KeyError", "'APP_PORT'", "<block 1>", PROJECT, "<frozen os>")


@pytest.mark.parametrize("doc", [
    "```bash\nexport APP_PORT=8080\n```\n",
    "```console\n$ APP_PORT=8080 python app.py\n```\n",
    "Set the environment variable `APP_PORT` to `8080`, then:\n",
    "```powershell\n$env:APP_PORT = 8080\n```\n",
])
def test_an_environment_variable_the_doc_sets_outside_python(doc):
    assert "APP_PORT" in (set_outside_python(ENV_ERR, doc) or "")


def test_other_key_errors_are_not_the_environment():
    assert set_outside_python(ENV_ERR, "Nothing about the environment here.\n") is None
    not_environ = err("KeyError", "'APP_PORT'", "<block 1>", PROJECT)  # a dict's KeyError, not os.environ's
    assert set_outside_python(not_environ, "```bash\nexport APP_PORT=8080\n```\n") is None
    assert set_outside_python(err("TypeError", "str expected, not int", "<block 1>", PROJECT, "<frozen os>"),
                              "```bash\nexport APP_PORT=8080\n```\n") is None


@pytest.mark.parametrize("literal", ['"<your-token>"', '"YOUR_API_KEY"', "'xxxx'", '"changeme"', '"your-api-key"',
                                     '"<token>"', '"..."', '"REPLACE_ME"'])
def test_a_placeholder_makes_the_projects_refusal_inconclusive(literal):
    block = f"from appcfg import connect\nclient = connect(token={literal})"
    assert with_placeholder(block, (), err("AuthError", "the server rejected the token", "<block 0>", PROJECT,
                                           line=2)) is not None


def test_no_placeholder_or_a_defect_stays_a_defect():
    real = 'client = connect(token="tok_123")'
    assert with_placeholder(real, (), err("AuthError", "rejected", "<block 0>", PROJECT)) is None
    ph = 'client = connect(tokn="<your-token>")'
    assert with_placeholder(ph, (), err("TypeError", "connect() got an unexpected keyword argument 'tokn'")) is None
    # a placeholder bound in an earlier block still explains a refusal here
    assert with_placeholder("client.fetch()", ('TOKEN = "<your-token>"',),
                            err("AuthError", "rejected", "<block 1>", PROJECT)) is not None
    # a placeholder after the raising line does not
    assert with_placeholder('x.load()\ny = connect(token="<your-token>")', (),
                            err("AuthError", "rejected", "<block 0>", PROJECT, line=1)) is None


def test_alternatives_registering_one_name():
    first = '@register("upper")\ndef upper(text):\n    return text.upper()'
    second = 'register("upper", str.upper)'
    again = err("ValueError", "'upper' is already registered", "<block 1>", PROJECT)
    assert "upper" in (registered_before(again, second, (first,)) or "")
    assert registered_before(again, second, ()) is None  # no earlier block registered it: a real clash
    assert registered_before(err("TypeError", "a handler's name is a str", "<block 1>", PROJECT), second,
                             (first,)) is None
    assert registered_before(err("ValueError", "'lower' already exists", "<block 1>", PROJECT), second,
                             (first,)) is None


# --- the sandbox's empty working directory and its namespace -------------------------------------

def _caused(kind: str, message: str, causes, *files: str) -> RaisedError:
    e = err(kind, message, *files)
    return RaisedError(e.type, e.module, e.bases, e.message, e.text, e.frames, causes=causes)


def test_a_project_error_over_a_missing_file_is_the_empty_working_directory():
    wrapped = _caused("ValidationError", "cannot read the settings", ((("FileNotFoundError", "OSError"), 2),),
                      *IN_PROJECT)
    assert missing_in_workdir(wrapped, 'load("settings.toml")', ()) is not None
    # the message names a relative file the block passes: a file a reader has next to them
    named = err("ValidationError", "no such file: 'conf/app.toml'", *IN_PROJECT)
    assert missing_in_workdir(named, 'cfg = load("conf/app.toml")', ()) is not None
    assert missing_in_workdir(named, 'cfg = load("other.toml")', ()) is None
    # a value the block passes that the message quotes is not a file
    amount = err("ValueError", "bad amount '1.25'", *IN_PROJECT)
    assert missing_in_workdir(amount, 'Money("1.25")', ()) is None
    module = err("ValueError", "cannot load plugin 'appcfg.yaml': it defines no Loader", *IN_PROJECT)
    assert missing_in_workdir(module, 'use("appcfg.yaml")', ()) is not None  # worded as a file: inconclusive
    assert missing_in_workdir(err("ValueError", "plugin 'appcfg.yaml' defines no Loader", *IN_PROJECT),
                              'use("appcfg.yaml")', ()) is None
    plain = err("ValidationError", "port 70000 is out of range", *IN_PROJECT)
    assert missing_in_workdir(plain, 'load("settings.toml")', ()) is None
    rejected = err("TypeError", "load() got an unexpected keyword argument 'strict'")
    assert missing_in_workdir(rejected, 'load("settings.toml", strict=True)', ()) is None


def test_pickling_a_block_function_is_the_session_namespace():
    e = err("ValueError", "x", *IN_PROJECT)
    pickled = RaisedError("PicklingError", "_pickle", ("PicklingError", "PickleError", "Exception"),
                          "Can't pickle <function work at 0x7f>: attribute lookup work on __main__ failed",
                          "_pickle.PicklingError: ...", e.frames)
    assert session_namespace(pickled) is not None
    assert session_namespace(e) is None


def test_what_the_sandbox_lacks():
    def raised(kind, module, mro, message, errno=None):
        return RaisedError(kind, module, mro, message, f"{kind}: {message}", (Frame(PROJECT, 3, "f"),), errno=errno)

    assert sandbox_lacks(raised("EOFError", "builtins", ("EOFError", "Exception"), "EOF when reading a line"))
    assert sandbox_lacks(raised("OSError", "builtins", ("OSError", "Exception"), "[Errno 6] No such device", 6))
    assert sandbox_lacks(raised("Error", "locale", ("Error", "Exception"), "unsupported locale setting"))
    assert sandbox_lacks(raised("ZoneInfoNotFoundError", "zoneinfo", ("ZoneInfoNotFoundError", "KeyError"),
                                "'No time zone found with key Europe/Berlin'"))
    assert sandbox_lacks(raised("PackageNotFoundError", "importlib.metadata",
                                ("PackageNotFoundError", "ModuleNotFoundError", "ImportError"), "No package metadata"))
    assert sandbox_lacks(raised("EOFError", "builtins", ("EOFError", "Exception"), "truncated record")) is None
    assert sandbox_lacks(raised("Error", "appcfg.config", ("Error", "Exception"), "bad")) is None


# --- wired in: a stated raise is its own checked piece, so the block goes on after it ------------

def test_a_stated_raise_is_planned_as_its_own_check():
    from caas_tui.review.execute.stated import pieces, plan_stated

    text = 'cfg = {}\ncfg["nope"]  # raises KeyError\n# raises ValueError\nint("x")\nprint(1)  # 1'
    stated = plan_stated(text)
    assert [s.kind for s in stated] == ["raises", "raises", "output"]
    assert [p.get("raises") for p in pieces(text, stated) if p.get("check") is not None] == [["KeyError"],
                                                                                             ["ValueError"], None]
    # a conditional raise, or one inside a compound statement, is not this statement's stated outcome
    assert not plan_stated('cfg["nope"]  # raises KeyError if the key is missing')
    assert [s.kind for s in plan_stated('with open("f") as fh:  # raises OSError\n    pass')] == []


def test_a_planned_raise_is_judged_on_what_the_child_saw():
    from caas_tui.review.execute.stated import StatedGot, judge, plan_stated

    raised = StatedGot(0, "", True, "'nope'", "KeyError: 'nope'")
    assert judge(plan_stated('d["nope"]  # raises KeyError'), [raised])[0].status == "match"
    assert judge(plan_stated("d['nope']  # -> KeyError: 'nope'"), [raised])[0].status == "match"
    assert judge(plan_stated("d['nope']  # -> KeyError: 'port'"), [raised])[0].status == "mismatch"
    nothing = StatedGot(0, "")
    assert judge(plan_stated('d["nope"]  # raises KeyError'), [nothing])[0].status == "mismatch"
    # a bare class name may state a value (``print(type(e).__name__)  # KeyError``): not a defect
    assert judge(plan_stated("print(type(e).__name__)  # KeyError"), [StatedGot(0, "KeyError\n")])[0].status == "skip"
