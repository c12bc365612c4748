"""issue 14 (session 8): false flags the execute reviewer raised on real, correct guides, each with a
twin that must stay flagged.

Causes found on attrs, structlog, packaging, jinja2 and itsdangerous's own guides: a traceback shown
with the class's short name or in older wording, values each run prints anew (an address, the time
it ran, ``__main__.`` before a name the doc defines, column padding), a warning printed beside a
doctest's output, an environment variable the doc has the reader export, a stdlib name newer than
the chosen Python, a function body shown alone (``return`` at the top level). The twins print
another value, raise another class, or raise where the doc shows none.
"""

from __future__ import annotations

import datetime as dt

import pytest

from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims import extract_claims
from caas_tui.review.execute import ExecuteReviewer, Limits
from caas_tui.review.execute.runenv import doc_sets_variable, variables_read
from caas_tui.review.execute.runoutput import run_specific
from tests.conftest import write

THINGS = '''
import warnings


class InvalidThing(ValueError):
    """Raised for text that is not a number."""


def parse(text):
    """The number ``text`` spells.

    Examples:
        >>> parse("12")
        12
        >>> parse("x")
        Traceback (most recent call last):
            ...
        InvalidThing: text must be digits: 'x'
    """
    if not text.isdigit():
        raise InvalidThing(f"Invalid thing: {text!r}")
    return int(text)


def parse_twin(text):
    """NumPy style, with the wrong class.

    Examples
    --------
    >>> parse_twin("x")
    Traceback (most recent call last):
        ...
    KeyError: 'x'
    """
    return parse(text)


def old_count():
    warnings.warn("old_count is deprecated", UserWarning, stacklevel=2)
    return 1


class Box:
    def __init__(self, n):
        self.n = n


current = None  # set by ``start()``


class Client:
    def __init__(self, token):
        if not isinstance(token, str):
            raise TypeError(f"token must be a str, not {type(token).__name__}")
        self.token = token
        self.open = False

    def connect(self, path):
        with open(path) as f:  # the reader's file: missing in the sandbox's empty directory
            f.read()
        self.open = True

    def send(self, text):
        if not self.open:
            raise RuntimeError("not connected")
        return len(text)

try:
    from pkg import extras  # needs a package this Python lacks
except ImportError:
    extras = None
'''

EXTRAS = '''
import not_installed_dependency_xyz


class Renderer:
    pass
'''

LOGS_RST = '''Logging
=======

Set up a handler once:

.. code-block:: pycon

    >>> import logging
    >>> import sys
    >>> handler = logging.StreamHandler()
    >>> log = logging.getLogger("things")
    >>> log.addHandler(handler)
    >>> log.setLevel(logging.INFO)
    >>> out = sys.stdout

Later it logs to your terminal:

.. code-block:: pycon

    >>> log.info("hello")
    hello
    >>> print("hi", file=out)
    hi

Twin:

.. code-block:: pycon

    >>> log.info("bye")
    hello

Silence:

.. code-block:: pycon

    >>> log.setLevel(logging.ERROR)
    >>> log.info("quiet")
    # nothing is printed

Twin, a comment and a value:

.. code-block:: pycon

    >>> print(2)
    # the value
    3

Rendering needs the extra:

.. code-block:: python

    import pkg.things
    pkg.things.extras.Renderer()

Twin, a value the project left unset:

.. code-block:: python

    import pkg
    import pkg.things
    pkg.things.current.name
'''

GUIDE_MD = '''# Guide

Parsing words:

```pycon
>>> from pkg.things import parse, Box, old_count
>>> parse("x")
Traceback (most recent call last):
   ...
InvalidThing: Invalid thing: 'x'
```

The message may read differently in your version:

```pycon
>>> parse("y")
Traceback (most recent call last):
   ...
InvalidThing: ("Invalid thing: y")
```

Its base class:

```pycon
>>> parse("v")
Traceback (most recent call last):
   ...
ValueError: Invalid thing: 'v'
```

Shown under the call, as a script's reader sees it:

```python
from pkg.things import parse
parse("u")
# Traceback (most recent call last):
#   ...
# InvalidThing: Invalid thing: 'u'
```

```python
from pkg.things import parse as p
p("t")
# KeyError: 't'
```

Twin, a key:

```pycon
>>> parse("z")
Traceback (most recent call last):
   ...
KeyError: 'z'
```

Twin, a number:

```pycon
>>> parse("w")
3
```

A class you define:

```pycon
>>> class Point:
...     pass
>>> Point
<class 'Point'>
>>> Box(1)
<pkg.things.Box object at 0x10fd7a0d0>
```

Twin, another class name:

```pycon
>>> Point
<class 'Pointer'>
```

Twin, another object:

```pycon
>>> Box(2)
<pkg.things.Crate object at 0x10fd7a0d0>
```

Today's date, and a column:

```pycon
>>> import datetime
>>> print(datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S"), "[info     ] hi")
2021-11-15 11:41:47 [info  ] hi
```

Twin, a computed date:

```pycon
>>> print(datetime.date(2020, 1, 1) + datetime.timedelta(days=3))
2020-01-05
```

Twin, other words in the column:

```pycon
>>> print("a" + " " * 10 + "b")
a    c
```

A deprecated helper still counts:

```pycon
>>> old_count()
1
```

Twin:

```pycon
>>> old_count() + 0
2
```
'''

GUIDE_RST = '''Tokens
======

Set your token first:

.. code-block:: console

    $ export THINGS_TOKEN="12"

Then parse it:

.. code-block:: python

    import os
    from pkg.things import parse
    parse(os.environ.get("THINGS_TOKEN"))

A newer Python's helper:

.. code-block:: python

    import math
    math.not_in_this_python(1)

Twin, a helper of the project:

.. code-block:: python

    from pkg import things
    things.not_there()

A function's body shown alone:

.. code-block:: python

    value = parse("4")
    return value * 2
'''

SESSION_MD = '''# Sessions

```python
from pkg.things import Client
client = Client(token=...)
```

```python
client = Client("t")
client.connect("/etc/things-that-are-not-here/client.conf")
```

```python
client.send("hi")
```
'''

SESSION_TWIN = '''# Sessions, twin

```python
from pkg.things import Client
client = Client(42)
```

```python
client = Client("t")
```

```python
client.send("hi")
```
'''

GUIDE_TWIN = '''# No setup

```python
import os
from pkg.things import parse
parse(os.environ.get("THINGS_TOKEN"))
```
'''


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    root = tmp_path_factory.mktemp("execfp") / "proj"
    write(root, "pkg/__init__.py", "")
    write(root, "pkg/things.py", THINGS)
    write(root, "docs/guide.md", GUIDE_MD)
    write(root, "docs/tokens.rst", GUIDE_RST)
    write(root, "docs/twin.md", GUIDE_TWIN)
    write(root, "pkg/extras.py", EXTRAS)
    write(root, "docs/logs.rst", LOGS_RST)
    write(root, "docs/session.md", SESSION_MD)
    write(root, "docs/session_twin.md", SESSION_TWIN)
    engine = Engine.open(root)
    out = {}
    try:
        for doc in ("docs/guide.md", "docs/tokens.rst", "docs/twin.md", "pkg/things.py", "docs/logs.rst",
                    "docs/session.md", "docs/session_twin.md"):
            claims = [c for c in extract_claims(doc, (root / doc).read_text()) if c.kind == "code"]
            got = ExecuteReviewer(limits=Limits(block_seconds=10, doc_seconds=60)).review(claims, engine)
            for c, v in zip(claims, got, strict=True):
                out[(doc, next(line for line in c.text.split("\n") if line.strip()).strip())] = v
    finally:
        engine.close()
    return out


def label(verdicts, doc, first):
    return verdicts[(doc, first)].verdict


def test_a_traceback_with_the_short_class_name_matches(verdicts):
    assert label(verdicts, "docs/guide.md", '>>> from pkg.things import parse, Box, old_count') == "consistent"


def test_a_traceback_with_other_wording_is_unverified_not_a_flag(verdicts):
    v = verdicts[("docs/guide.md", '>>> parse("y")')]
    assert v.verdict == "unverified" and "class" in v.rationale


def test_a_base_class_of_the_raised_error_is_unverified(verdicts):
    v = verdicts[("docs/guide.md", '>>> parse("v")')]
    assert v.verdict == "unverified" and "subclass" in v.rationale


def test_a_raise_shown_in_comments_under_the_call(verdicts):
    v = verdicts[("docs/guide.md", "from pkg.things import parse")]
    assert v.verdict in ("consistent", "unverified") and "as the comment says" in v.rationale, v.rationale


def test_docstring_traceback_with_other_wording_google_style(verdicts):
    v = verdicts[("pkg/things.py", '>>> parse("12")')]
    assert v.verdict == "unverified", v.rationale


@pytest.mark.parametrize(("doc", "first"), [
    ("docs/guide.md", '>>> parse("z")'),  # another class
    ("docs/guide.md", '>>> parse("w")'),  # a raise the doc does not show
    ("docs/guide.md", "from pkg.things import parse as p"),  # the comment under it names another class
    ("pkg/things.py", '>>> parse_twin("x")'),  # NumPy docstring, another class
    ("docs/guide.md", ">>> Point"),
    ("docs/guide.md", ">>> Box(2)"),
    ("docs/guide.md", ">>> print(datetime.date(2020, 1, 1) + datetime.timedelta(days=3))"),
    ("docs/guide.md", '>>> print("a" + " " * 10 + "b")'),
    ("docs/tokens.rst", "from pkg import things"),
    ("docs/twin.md", "import os"),  # reads a variable the doc never has the reader set
    ("docs/logs.rst", '>>> log.info("bye")'),
    ("docs/logs.rst", ">>> print(2)"),
    ("docs/logs.rst", "import pkg"),
    ("docs/session_twin.md", "from pkg.things import Client"),  # a real value the project refuses
    ("docs/session_twin.md", 'client.send("hi")'),  # nothing stopped short before it
])
def test_twins_stay_flagged(verdicts, doc, first):
    assert label(verdicts, doc, first) == "contradicted", verdicts[(doc, first)].rationale


def test_a_name_the_doc_defines_and_an_address_match(verdicts):
    v = verdicts[("docs/guide.md", ">>> class Point:")]
    assert v.verdict == "consistent" and "set aside" in v.rationale


def test_the_time_it_ran_and_column_padding_match(verdicts):
    assert label(verdicts, "docs/guide.md", ">>> import datetime") == "consistent"


def test_a_warning_is_not_printed_output(verdicts):
    assert label(verdicts, "docs/guide.md", ">>> old_count()") == "consistent"
    assert label(verdicts, "docs/guide.md", ">>> old_count() + 0") == "contradicted"


def test_an_exported_variable_read_with_get_is_the_environments(verdicts):
    v = verdicts[("docs/tokens.rst", "import os")]
    assert v.verdict == "unverified" and "THINGS_TOKEN" in v.rationale


def test_a_stdlib_name_newer_than_the_python_is_unverified(verdicts):
    v = verdicts[("docs/tokens.rst", "import math")]
    assert v.verdict == "unverified" and "newer" in v.rationale


def test_a_function_body_shown_alone_is_not_run(verdicts):
    v = verdicts[("docs/tokens.rst", 'value = parse("4")')]
    assert v.verdict == "unverified" and "not runnable" in v.rationale


TODAY = dt.date(2026, 12, 2)


@pytest.mark.parametrize(("want", "got", "same"), [
    ("<D object at ...>", "<__main__.D object at 0x7fbf450237d0>", True),
    ("<class 'A'>", "<class '__main__.A'>", True),
    ("<class '__main__.A'>", "<class 'A'>", False),  # the doc names the module: compared as written
    ("2022-10-15 11:39:03 [debug    ] hi!", "2026-12-02 13:39:28 [debug    ] hi!", True),
    ("2022-10-15T11:39:03Z hi", "2026-12-03T01:00:00Z hi", True),
    ("2020-01-05", "2020-01-04", False),  # a date the code computed, not the clock
    ("2022-10-15 hi", "2026-12-02 bye", False),
    ("key    effort=0", "key              effort=0", True),
    ("key effort=0", "key effort=1", False),
    ("[1, 2]", "[1, 2]", False),  # nothing set aside: the ordinary comparison decides
    ("woo  ok=1", "\x1b[1mwoo\x1b[0m    \x1b[36mok\x1b[0m=1", True),  # terminal colours
    ("UUID('12345678-1234-4234-8234-123456789abc')", "UUID('0b0e6f1c-2c37-4a43-9d0c-5c2f3a0e9b11')", True),
    # a version 5 id is the hash of a name: the same name gives the same id
    ("UUID('886313e1-3b8a-5372-9b90-0c9aee199e5d')", "UUID('886313e1-3b8a-5372-9b90-0c9aee199e5e')", False),
    ("woo  ok=1", "\x1b[1mwoo\x1b[0m    \x1b[36mok\x1b[0m=2", False),
])
def test_run_specific_values(want, got, same):
    assert run_specific(want, got, TODAY) is same


def test_variables_read_and_set():
    assert variables_read(['import os\nkey = os.environ.get("API_KEY")\nt = os.getenv("TOKEN", "")',
                           'os.environ["STRICT"]']) == ["API_KEY", "TOKEN"]
    assert doc_sets_variable("API_KEY", "Run:\n\n    $ export API_KEY=abc\n")
    assert doc_sets_variable("API_KEY", "Set the ``API_KEY`` environment variable first.")
    assert not doc_sets_variable("API_KEY", "Pass your key to the client.")


def test_a_handler_made_in_an_earlier_block_still_prints_into_the_run(verdicts):
    assert label(verdicts, "docs/logs.rst", '>>> log.info("hello")') == "consistent"


def test_an_output_described_in_a_comment_is_unverified(verdicts):
    v = verdicts[("docs/logs.rst", ">>> log.setLevel(logging.ERROR)")]
    assert v.verdict == "unverified" and "comment" in v.rationale


def test_a_submodule_left_none_without_its_optional_dependency(verdicts):
    v = verdicts[("docs/logs.rst", "import pkg.things")]
    assert v.verdict == "unverified" and "optional dependency" in v.rationale


def test_an_ellipsis_the_reader_fills_in_is_a_placeholder(verdicts):
    v = verdicts[("docs/session.md", "from pkg.things import Client")]
    assert v.verdict == "unverified" and "placeholder" in v.rationale


def test_a_block_after_one_that_stopped_short_in_the_sandbox(verdicts):
    assert label(verdicts, "docs/session.md", 'client = Client("t")') == "unverified"  # the reader's file
    v = verdicts[("docs/session.md", 'client.send("hi")')]
    assert v.verdict == "unverified" and "stopped short" in v.rationale
