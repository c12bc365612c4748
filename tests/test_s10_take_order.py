"""Which entry a queue-like method hands out (issue 14): "in the order they were added" /
"FIFO" against a method taking from the end its class appends to (LIFO), and "the most
recently added" against one taking from the front; ``queue.LifoQueue`` read with ``get``.
Correct twins are green; a heap and a container filled at both ends are no answer.
"""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict

from .conftest import review_written, verdict_starting

FLAGS = ("contradicted", "incomplete")

CODE = '''
"""Queues."""

import heapq
import queue
from collections import deque


class Stack:
    def __init__(self) -> None:
        self._items: deque[str] = deque()

    def push(self, item: str) -> None:
        self._items.append(item)

    def take(self) -> str:
        return self._items.pop()


class Line:
    def __init__(self) -> None:
        self._items: list[str] = []

    def join(self, item: str) -> None:
        self._items.append(item)

    def serve(self) -> str:
        return self._items.pop(0)


class Mailbox:
    def __init__(self) -> None:
        self._q: queue.LifoQueue[str] = queue.LifoQueue()

    def post(self, item: str) -> None:
        self._q.put(item)

    def fetch(self) -> str:
        return self._q.get()


class Both:
    def __init__(self) -> None:
        self._items: deque[str] = deque()

    def add(self, item: str) -> None:
        self._items.append(item)

    def add_front(self, item: str) -> None:
        self._items.appendleft(item)

    def take(self) -> str:
        return self._items.pop()


class Heap:
    def __init__(self) -> None:
        self._items: list[int] = []

    def add(self, item: int) -> None:
        heapq.heappush(self._items, item)

    def take(self) -> int:
        return heapq.heappop(self._items)
'''

GUIDE = """\
# Queues

`Stack.take()` returns items in the order they were added.

`Stack.take()` returns the most recently added item.

`Line.serve()` returns the most recently added item.

`Line.serve()` serves items first in, first out.

`Mailbox.fetch()` returns messages in the order they were received.

`Both.take()` returns items in the order they were added.

`Heap.take()` returns items in the order they were added.
"""


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Claim, Verdict]]:
    root = tmp_path_factory.mktemp("queues") / "proj"
    files = {
        "lines/__init__.py": '"""Lines."""\nfrom lines.core import Both, Heap, Line, Mailbox, Stack\n',
        "lines/core.py": CODE,
        "docs/guide.md": GUIDE,
        "README.md": "# lines\n",
    }
    return review_written(root, files, ["docs/guide.md"])


def test_fifo_claimed_of_a_stack(reviewed) -> None:
    v = verdict_starting(reviewed, "`Stack.take()` returns items in the order")
    assert v.verdict == "contradicted" and "LIFO" in v.rationale, v.rationale
    assert verdict_starting(reviewed, "`Stack.take()` returns the most recently").verdict == "consistent"


def test_lifo_claimed_of_a_line(reviewed) -> None:
    v = verdict_starting(reviewed, "`Line.serve()` returns the most recently")
    assert v.verdict == "contradicted" and "FIFO" in v.rationale, v.rationale
    assert verdict_starting(reviewed, "`Line.serve()` serves items first in").verdict == "consistent"


def test_a_lifo_queue(reviewed) -> None:
    v = verdict_starting(reviewed, "`Mailbox.fetch()`")
    assert v.verdict == "contradicted" and "LIFO" in v.rationale, v.rationale


def test_shapes_that_settle_nothing(reviewed) -> None:
    for part in ("`Both.take()`", "`Heap.take()`"):
        assert verdict_starting(reviewed, part).verdict not in FLAGS, part
