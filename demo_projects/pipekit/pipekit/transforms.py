"""Transforms: steps that turn a stream of records into another stream.

A transform is called with an iterator of records and returns an iterator, lazily:
nothing is read from the source until the pipeline pulls.
:class:`Dedupe` keeps the last record seen for each key.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping

from pipekit.records import Record


class Transform:
    """Base class of transforms; subclasses implement :meth:`apply`.

    ``name`` identifies the transform in logs and in the pipeline's result; when it
    is not given it is the class name in lower case.
    """

    def __init__(self, name: str | None = None) -> None:
        self.name = name or type(self).__name__.lower()

    def apply(self, records: Iterator[Record]) -> Iterator[Record]:
        raise NotImplementedError

    def __call__(self, records: Iterable[Record]) -> Iterator[Record]:
        return self.apply(iter(records))


class Map(Transform):
    """Apply ``fn`` to every record."""

    def __init__(self, fn: Callable[[Record], Record], name: str | None = None) -> None:
        super().__init__(name)
        self.fn = fn

    def apply(self, records: Iterator[Record]) -> Iterator[Record]:
        for record in records:
            yield self.fn(record)


class Filter(Transform):
    """Keep the records for which ``predicate`` returns true.

    The number of records dropped so far is kept in :attr:`dropped`.
    """

    def __init__(self, predicate: Callable[[Record], bool], name: str | None = None) -> None:
        super().__init__(name)
        self.predicate = predicate
        self.dropped = 0

    def apply(self, records: Iterator[Record]) -> Iterator[Record]:
        for record in records:
            if self.predicate(record):
                yield record
            else:
                self.dropped += 1


class Rename(Transform):
    """Rename fields by ``mapping`` (old name -> new name); other fields are kept as they are."""

    def __init__(self, mapping: Mapping[str, str], name: str | None = None) -> None:
        super().__init__(name)
        self.mapping = dict(mapping)

    def apply(self, records: Iterator[Record]) -> Iterator[Record]:
        for record in records:
            payload = {self.mapping.get(k, k): v for k, v in record.payload.items()}
            yield Record(payload, record.offset)


class Dedupe(Transform):
    """Drop records whose ``fields`` repeat those of an earlier record.

    Keys seen are kept in memory for the whole run.
    """

    def __init__(self, *fields: str, name: str | None = None) -> None:
        if not fields:
            raise ValueError("Dedupe needs at least one field")
        super().__init__(name)
        self.fields = fields

    def apply(self, records: Iterator[Record]) -> Iterator[Record]:
        seen: set[tuple[object | None, ...]] = set()
        for record in records:
            key = record.key(*self.fields)
            if key in seen:
                continue
            seen.add(key)
            yield record


def chain(*transforms: Transform) -> Callable[[Iterable[Record]], Iterator[Record]]:
    """Compose ``transforms`` left to right into one callable."""

    def run(records: Iterable[Record]) -> Iterator[Record]:
        stream: Iterator[Record] = iter(records)
        for transform in transforms:
            stream = transform(stream)
        return stream

    return run
