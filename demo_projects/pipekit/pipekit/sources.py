"""Record sources.

A source has a lifecycle: :meth:`Source.open` it, iterate over it, then
:meth:`Source.close` it. :class:`~pipekit.pipeline.Pipeline` does all three for you.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from os import PathLike
from types import TracebackType

from pipekit.config import CSV_DELIMITER
from pipekit.errors import SourceError
from pipekit.readers import read_csv, read_json_lines
from pipekit.records import Record


class Source:
    """Base class of record sources.

    Iterating a source that is not open raises :class:`~pipekit.errors.SourceError`.
    :meth:`close` may be called more than once. A source is also a context manager
    that opens on entry and closes on exit.
    """

    def __init__(self) -> None:
        self._open = False

    @property
    def is_open(self) -> bool:
        return self._open

    def open(self) -> None:
        """Prepare the source for reading."""
        self._open = True

    def close(self) -> None:
        """Release the source; closing a closed source does nothing."""
        self._open = False

    def __iter__(self) -> Iterator[Record]:
        if not self._open:
            raise SourceError(f"{type(self).__name__} is not open; call open() first")
        for offset, payload in enumerate(self._rows()):
            yield Record(payload, offset)

    def _rows(self) -> Iterator[Mapping[str, object]]:
        raise NotImplementedError

    def __enter__(self) -> Source:
        self.open()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class IterableSource(Source):
    """Records from any iterable of mappings; handy in tests and notebooks."""

    def __init__(self, rows: Iterable[Mapping[str, object]]) -> None:
        super().__init__()
        self._data = list(rows)

    def _rows(self) -> Iterator[Mapping[str, object]]:
        return iter(self._data)


class CsvSource(Source):
    """Records from a CSV file, read with :func:`pipekit.readers.read_csv`.

    Args:
        path: The file to read.
        delimiter: The field separator.
        strip: Strip whitespace around every field.
    """

    def __init__(self, path: str | PathLike[str], delimiter: str = CSV_DELIMITER, strip: bool = False) -> None:
        super().__init__()
        self.path = path
        self.delimiter = delimiter
        self.strip = strip

    def _rows(self) -> Iterator[Mapping[str, object]]:
        return read_csv(self.path, delimiter=self.delimiter, strip=self.strip)


class JsonLinesSource(Source):
    """Records from a JSON Lines file.

    Malformed lines are skipped, so one bad line does not stop a long import.
    """

    def __init__(self, path: str | PathLike[str]) -> None:
        super().__init__()
        self.path = path

    def _rows(self) -> Iterator[Mapping[str, object]]:
        return read_json_lines(self.path)
