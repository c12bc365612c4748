"""Pipelines and checkpoints."""

import pytest
from pipekit import CheckpointError, CheckpointStore, Filter, IterableSource, Pipeline


def test_run_counts_and_batches(numbers):
    seen = []
    result = Pipeline(numbers, Filter(lambda r: r.payload["parity"] == 0), sink=seen.append, batch_size=2).run()
    assert (result.read, result.written, result.batches) == (10, 5, 3)
    assert not numbers.is_open


def test_source_closed_when_sink_raises(numbers):
    def sink(batch):
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        Pipeline(numbers, sink=sink).run()
    assert not numbers.is_open


def test_second_run_resumes_from_checkpoint(tmp_path):
    store = CheckpointStore(tmp_path / "ckpt.json")
    source = IterableSource({"i": i} for i in range(5))
    first = Pipeline(source, checkpoints=store, name="load").run()
    second = Pipeline(source, checkpoints=store, name="load").run()
    assert (first.read, second.read, second.resumed_from) == (5, 0, 5)


def test_checkpoint_saved_every_thousand_records(tmp_path):
    store = CheckpointStore(tmp_path / "ckpt.json")
    saved = []
    source = IterableSource({"i": i} for i in range(2500))

    def sink(batch):
        saved.append(store.load("big"))

    Pipeline(source, sink=sink, batch_size=100, checkpoints=store, name="big").run()
    assert sorted(set(saved)) == [0, 1000, 2000]
    assert store.load("big") == 2500


def test_load_without_checkpoint_returns_zero(tmp_path):
    store = CheckpointStore(tmp_path / "none.json")
    assert store.load("never") == 0
    assert store.clear("never") is False


def test_corrupt_checkpoint(tmp_path):
    path = tmp_path / "c.json"
    path.write_text("{nope", encoding="utf-8")
    with pytest.raises(CheckpointError):
        CheckpointStore(path).load("x")
