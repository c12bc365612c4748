"""issue 14 (session 10): the reader's setup the doc shows outside Python, and one failure repeated.

A guide has the reader ``export`` variables and save files it shows by name before its Python runs;
the sandbox starts clean, so correct code failed there and was flagged. The run now replays what the
doc shows (nothing invented, nothing written outside the working directory); setup it cannot
reproduce (a variable named without a value, a file named and never shown) makes a raise
``unverified``; and a later block raising the very failure an earlier one raised inside library code
points at the first instead of being a second defect. Each case has a twin that stays flagged.
"""

from __future__ import annotations

import sys

import pytest

from caas_tui.models import Claim
from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims import extract_claims
from caas_tui.review.execute import ExecuteReviewer, Limits
from caas_tui.review.execute.blocks import plan_block
from caas_tui.review.execute.docsetup import doc_setup, safe_name
from caas_tui.review.execute.session import run_session
from tests.conftest import write

SETTINGS = '''
import os


class SettingsError(ValueError):
    """A setting that cannot be read."""


def _coerce(raw):
    try:
        return int(raw)
    except ValueError:
        raise SettingsError(f"cannot coerce {raw!r} to int") from None


def port():
    return _coerce(os.environ.get("APP_PORT", "unset"))


def load(path):
    import tomllib

    with open(path, "rb") as fh:
        return tomllib.load(fh)


def overrides(path="extra.toml"):
    try:
        fh = open(path, "rb")
    except OSError:
        fh = None
    if fh is None:  # raised outside the handler: nothing ties it to the missing file but the open
        raise SettingsError("no overrides found")
    with fh:
        return fh.read()


def debug():
    return os.environ.get("APP_DEBUG", "0") == "1"


def backend():
    raise LookupError("no backend configured")


def other_backend():
    raise LookupError("no backend configured")
'''

DOCS = {
    "docs/exported.md": '''# Port

Set the port first:

```bash
export APP_PORT=8080
```

```pycon
>>> from pkg.settings import port
>>> port()
8080
```
''',
    "docs/prefix_only.md": '''# Port

```bash
APP_PORT=8080 python serve.py
```

```pycon
>>> from pkg.settings import port
>>> port()
8080
```
''',
    "docs/not_named.md": '''# Port

```pycon
>>> from pkg.settings import port
>>> port()
8080
```
''',
    "docs/no_value.md": '''# Port

Set the `APP_PORT` environment variable to the port you serve on.

```pycon
>>> from pkg.settings import port
>>> port()
8080
```
''',
    "docs/placeholder.md": '''# Port

```console
$ export APP_PORT=<your-port>
```

```pycon
>>> from pkg.settings import port
>>> port()
8080
```
''',
    "docs/files.md": '''# Config

Save this as `app.toml`:

```toml
[server]
port = 8080
```

```pycon
>>> from pkg.settings import load
>>> load("app.toml")["server"]["port"]
8080
```

```yaml title="conf/other.toml"
name = "other"
```

```pycon
>>> load("conf/other.toml")["name"]
'other'
```
''',
    "docs/files.rst": '''Config
======

.. code-block:: toml
   :caption: app.toml

   [server]
   port = 8080

.. code-block:: pycon

   >>> from pkg.settings import load
   >>> load("app.toml")["server"]["port"]
   8080
''',
    "docs/file_named.md": '''# Overrides

Put your own overrides in `extra.toml`.

```python
from pkg.settings import overrides
overrides()
```
''',
    "docs/file_unnamed.md": '''# Overrides

```python
from pkg.settings import overrides
overrides()
```
''',
    "docs/unlinked.md": '''# Debugging

Set the `APP_DEBUG` environment variable to turn on debugging.

```python
from pkg.settings import backend, debug
debug()
backend()
```
''',
    "docs/repeated.md": '''# Backends

```python
from pkg.settings import backend, other_backend
backend()
```

```python
backend()
```

```python
other_backend()
```

```python
backend(1)
```

```python
backend(2)
```
''',
}


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    root = tmp_path_factory.mktemp("execenv") / "proj"
    write(root, "pkg/__init__.py", "")
    write(root, "pkg/settings.py", SETTINGS)
    for doc, text in DOCS.items():
        write(root, doc, text)
    engine = Engine.open(root)
    out = {}
    try:
        for doc in DOCS:
            claims = [c for c in extract_claims(doc, (root / doc).read_text()) if c.kind == "code"]
            got = ExecuteReviewer(limits=Limits(block_seconds=10, doc_seconds=60)).review(claims, engine)
            shown = (">>>", "from", "backend", "other")
            out[doc] = [(c, v) for c, v in zip(claims, got, strict=True) if c.text.lstrip().startswith(shown)]
    finally:
        engine.close()
    return out


def labels(verdicts, doc):
    return [v.verdict for _, v in verdicts[doc]]


def test_an_exported_variable_is_replayed_before_the_blocks_after_it(verdicts):
    assert labels(verdicts, "docs/exported.md") == ["consistent"]


def test_a_command_prefix_is_no_export_and_a_doc_never_naming_the_variable_stays_flagged(verdicts):
    assert labels(verdicts, "docs/not_named.md") == ["contradicted"]
    # ``APP_PORT=8080 cmd`` sets it for that command only: not replayed, and not invented either
    v = verdicts["docs/prefix_only.md"][0][1]
    assert v.verdict == "unverified" and "APP_PORT" in v.rationale


def test_a_variable_named_without_a_value_or_with_a_placeholder_is_unverified(verdicts):
    v = verdicts["docs/no_value.md"][0][1]
    assert v.verdict == "unverified" and "APP_PORT" in v.rationale and "never gives it a value" in v.rationale
    v = verdicts["docs/placeholder.md"][0][1]
    assert v.verdict == "unverified" and "placeholder" in v.rationale


def test_files_shown_under_a_caption_or_a_title_are_written_first(verdicts):
    assert labels(verdicts, "docs/files.md") == ["consistent", "consistent"]
    assert "(app.toml) was replayed" in verdicts["docs/files.md"][0][1].rationale
    assert labels(verdicts, "docs/files.rst") == ["consistent"]


def test_a_file_the_doc_names_and_never_shows_is_unverified_and_its_twin_flagged(verdicts):
    v = verdicts["docs/file_named.md"][0][1]
    assert v.verdict == "unverified" and "extra.toml" in v.rationale
    assert labels(verdicts, "docs/file_unnamed.md") == ["contradicted"]


def test_a_variable_looked_up_off_the_failing_call_chain_is_no_excuse(verdicts):
    # ``debug()`` looked ``APP_DEBUG`` up and returned; ``backend()`` failed on its own
    assert labels(verdicts, "docs/unlinked.md") == ["contradicted"]


def test_one_failure_repeated_is_one_root_cause(verdicts):
    got = verdicts["docs/repeated.md"]
    first, again, elsewhere, sig1, sig2 = (v for _, v in got)
    assert first.verdict == "contradicted"
    line = got[0][0].start_line
    assert again.verdict == "unverified" and f"same failure as the block at line {line}" in again.rationale
    assert elsewhere.verdict == "contradicted"  # the same message raised at another line: another place to fix
    # the call the signature rejects is raised at each block's own line: each one's own claim
    assert sig1.verdict == "contradicted" and sig2.verdict == "contradicted"


def test_doc_setup_reads_exports_and_named_files_only():
    text = ("```bash\nexport A=1 B='two words'\nC=3 run\nexport D=$HOME/x\nE=5\nexport E\nunset A\n```\n\n"
            "Run `main.py`:\n\n```python\nprint(1)\n```\n\n```toml title=\"../up.toml\"\nx = 1\n```\n\n"
            "```toml title=\"/etc/abs.toml\"\nx = 1\n```\n")
    setup = doc_setup("docs/x.md", text)
    assert [(s.kind, s.name, s.value) for s in setup.steps] == [
        ("env", "A", "1"), ("env", "B", "two words"), ("env", "E", "5"), ("unset", "A", "")]
    assert dict(setup.not_replayed).keys() == {"D"}
    assert not safe_name("../up.toml") and not safe_name("/etc/abs.toml") and safe_name(".env")


def test_the_child_refuses_a_file_outside_the_working_directory(tmp_path):
    (tmp_path / "m.py").write_text("X = 1\n")
    code = "import os\nprint(os.path.exists('../escape.txt'), open('inside.txt').read())"
    claim = Claim(id="c1", doc_path="docs/t.md", start_line=5, end_line=6, text=code, kind="code",
                  context="code block (python)")
    steps = {0: {"steps": [["file", "../escape.txt", "x"], ["file", "inside.txt", "ok"], ["env", "K", "v"]]}}
    result = run_session(tmp_path, sys.executable, [plan_block(claim)], Limits(block_seconds=5, doc_seconds=20),
                         setup=steps)
    assert result.outcomes[0].output.strip() == "False ok"
    assert "not written outside the working directory" in result.stderr
