"""Batching."""

import pytest
from pipekit import Record
from pipekit.batching import Batcher


def test_final_partial_batch_is_emitted(clock):
    batches = list(Batcher(size=4, clock=clock).batches(Record({"i": i}, i) for i in range(10)))
    assert [len(b) for b in batches] == [4, 4, 2]


def test_partial_batch_emitted_after_max_wait(clock):
    def slow():
        for i in range(3):
            yield Record({"i": i}, i)
            clock.advance(2.5)

    batcher = Batcher(size=100, max_wait=2.0, clock=clock)
    assert [len(b) for b in batcher.batches(slow())] == [2, 1]


def test_size_must_be_positive():
    with pytest.raises(ValueError):
        Batcher(size=0)


def test_default_max_wait_is_two_seconds():
    assert Batcher().max_wait == 2.0
