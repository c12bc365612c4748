"""How a callable is called (issue 14): "is a coroutine / must be awaited / is async" of a
plain ``def``, "is synchronous" of an ``async def``, "is a static method" of a
``@classmethod``; in a code block, ``await`` on a plain function and ``.attr`` on an
un-awaited ``async def`` call. Correct twins are green; a plain ``def`` that hands back
another coroutine is no answer; such sentences are no longer green on names alone.
"""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict

from .conftest import review_written, verdict_containing

FLAGS = ("contradicted", "incomplete")

CODE = '''
"""Client."""

import functools


class Client:
    def __init__(self, url: str) -> None:
        self.url = url

    async def fetch(self, path: str) -> bytes:
        return b""

    def get(self, path: str) -> bytes:
        return b""

    def send(self, path: str):
        return self.fetch(path)

    @classmethod
    def from_env(cls) -> "Client":
        return cls("x")

    @staticmethod
    def version() -> str:
        return "1"

    @functools.cached_property
    def name(self) -> str:
        return "shop"
'''

GUIDE = """\
# Client

`Client.get()` is a coroutine and must be awaited.

`Client.fetch()` is a coroutine and must be awaited.

`Client.fetch` is synchronous.

`Client.get` is synchronous.

`Client.send()` must be awaited.

`Client.from_env()` is a static method.

`Client.from_env()` is a class method.

`Client.get` is async-safe.

`Client.name` is a property.

`Client.version` is a property of the module.

```python
from shop import Client

async def main():
    client = Client("http://x")
    data = await client.get("/a")
```

```python
from shop import Client

async def main():
    client = Client("http://x")
    print(client.fetch("/b").decode())
```

```python
from shop import Client

async def main():
    client = Client("http://x")
    body = await client.fetch("/b")
    other = await client.send("/c")
    print(body.decode(), client.get("/d").decode())
```
"""


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Claim, Verdict]]:
    root = tmp_path_factory.mktemp("shop") / "proj"
    files = {
        "shop/__init__.py": '"""Shop."""\nfrom shop.client import Client\n',
        "shop/client.py": CODE,
        "docs/guide.md": GUIDE,
        "README.md": "# shop\n",
    }
    return review_written(root, files, ["docs/guide.md"])


def test_async_claims_against_the_definition(reviewed) -> None:
    wrong = verdict_containing(reviewed, "`Client.get()` is a coroutine")
    assert wrong.verdict == "contradicted" and "plain `def`" in wrong.rationale, wrong.rationale
    assert verdict_containing(reviewed, "`Client.fetch()` is a coroutine").verdict == "consistent"
    sync = verdict_containing(reviewed, "`Client.fetch` is synchronous")
    assert sync.verdict == "contradicted" and "async def" in sync.rationale, sync.rationale
    assert verdict_containing(reviewed, "`Client.get` is synchronous").verdict == "consistent"


def test_a_plain_def_handing_back_a_coroutine_is_no_answer(reviewed) -> None:
    v = verdict_containing(reviewed, "`Client.send()` must be awaited")
    assert v.verdict == "unverified", v.rationale


def test_words_that_only_look_alike(reviewed) -> None:
    for part in ("`Client.get` is async-safe", "`Client.version` is a property of"):
        assert verdict_containing(reviewed, part).verdict not in FLAGS, part
    assert verdict_containing(reviewed, "`Client.name` is a property").verdict == "consistent"


def test_static_and_class_methods(reviewed) -> None:
    wrong = verdict_containing(reviewed, "`Client.from_env()` is a static method")
    assert wrong.verdict == "contradicted" and "classmethod" in wrong.rationale, wrong.rationale
    assert verdict_containing(reviewed, "`Client.from_env()` is a class method").verdict == "consistent"


def test_await_in_code_blocks(reviewed) -> None:
    awaited = verdict_containing(reviewed, 'data = await client.get("/a")')
    assert awaited.verdict == "contradicted" and "TypeError" in awaited.rationale, awaited.rationale
    unawaited = verdict_containing(reviewed, 'print(client.fetch("/b").decode())')
    assert unawaited.verdict == "contradicted" and "coroutine" in unawaited.rationale, unawaited.rationale
    fine = verdict_containing(reviewed, 'body = await client.fetch("/b")')
    assert fine.verdict not in FLAGS, fine.rationale
