"""Pipelines: a source, transforms, batches and a sink, run to completion."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from pipekit.batching import Batcher
from pipekit.checkpoint import Checkpointer, CheckpointStore
from pipekit.config import DEFAULT_BATCH_SIZE
from pipekit.records import Record
from pipekit.sources import Source
from pipekit.transforms import Transform, chain

Sink = Callable[[list[Record]], object]


@dataclass(frozen=True)
class PipelineResult:
    """What one :meth:`Pipeline.run` did.

    Attributes:
        read: Records taken from the source in this run.
        written: Records handed to the sink.
        batches: Calls made to the sink.
        resumed_from: Source offset the run started at (0 without a checkpoint).
    """

    read: int
    written: int
    batches: int
    resumed_from: int


def _discard(batch: list[Record]) -> None:
    return None


class Pipeline:
    """Read from a source, transform, batch, and hand the batches to a sink.

    Args:
        source: Where the records come from.
        *transforms: Applied in the order given.
        sink: Called with each batch (a ``list`` of records). Without one, batches
            are discarded, which is handy for dry runs.
        batch_size: Records per batch.
        checkpoints: A :class:`~pipekit.checkpoint.CheckpointStore`. With one, a run
            resumes after the last saved offset of ``name``.
        name: The job name under which checkpoints are saved.
    """

    def __init__(
        self,
        source: Source,
        *transforms: Transform,
        sink: Sink | None = None,
        batch_size: int = DEFAULT_BATCH_SIZE,
        checkpoints: CheckpointStore | None = None,
        name: str = "pipeline",
    ) -> None:
        self.source = source
        self.transforms = transforms
        self.sink = sink or _discard
        self.batcher = Batcher(size=batch_size)
        self.checkpoints = checkpoints
        self.name = name

    def run(self) -> PipelineResult:
        """Run the pipeline over the whole source and return a :class:`PipelineResult`.

        The source is opened first and closed at the end, also when a transform or
        the sink raises.
        """
        checkpointer = Checkpointer(self.checkpoints, self.name) if self.checkpoints else None
        start = checkpointer.start if checkpointer else 0
        read = written = batches = 0
        last = start
        self.source.open()
        try:

            def pending(records: Iterable[Record]) -> Iterator[Record]:
                nonlocal read, last
                for record in records:
                    if record.offset < start:
                        continue
                    read += 1
                    last = record.offset + 1
                    yield record

            stream = chain(*self.transforms)(pending(self.source))
            for batch in self.batcher.batches(stream):
                self.sink(batch)
                batches += 1
                written += len(batch)
                if checkpointer:
                    checkpointer.advance(last)
            if checkpointer:
                checkpointer.finish(last)
        finally:
            self.source.close()
        return PipelineResult(read=read, written=written, batches=batches, resumed_from=start)
