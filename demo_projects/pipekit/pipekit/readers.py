"""Readers for delimited text and JSON Lines files.

:func:`read_csv` follows RFC 4180 (see ``upstream/rfc4180.md``) through the standard
:mod:`csv` module; :func:`read_json_lines` follows the JSON Lines format
(``upstream/jsonlines.md``). Both yield plain dicts; sources wrap them in records.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from os import PathLike

from pipekit.config import CSV_DELIMITER, TEXT_ENCODING
from pipekit.errors import SourceError


def read_csv(
    path: str | PathLike[str],
    delimiter: str = CSV_DELIMITER,
    has_header: bool = True,
    encoding: str = TEXT_ENCODING,
    strip: bool = False,
) -> Iterator[dict[str, str]]:
    """Read a CSV file row by row.

    Parameters
    ----------
    path : str or PathLike
        The file to read.
    delimiter : str, optional
        The one character that separates fields.
    has_header : bool, optional
        Whether the first row names the fields. Without a header, fields are
        keyed by their position as strings (``"0"``, ``"1"``, ...).
    encoding : str, optional
        Text encoding of the file.
    strip : bool, optional
        Strip whitespace around every field. Off by default: RFC 4180 counts
        spaces as part of a field.

    Yields
    ------
    dict[str, str]
        One dict per row. A row shorter than the header gets ``""`` for the
        missing fields.

    Raises
    ------
    SourceError
        If a row has more fields than the header.
    """
    if len(delimiter) != 1:
        raise ValueError(f"delimiter must be one character, got {delimiter!r}")
    # newline="" lets the csv module see line breaks inside quoted fields (RFC 4180 rule 6).
    with open(path, newline="", encoding=encoding) as fh:
        rows = csv.reader(fh, delimiter=delimiter)
        header: list[str] | None = None
        for number, row in enumerate(rows, 1):
            if strip:
                row = [cell.strip() for cell in row]
            if has_header and header is None:
                header = row
                continue
            names = header if header is not None else [str(i) for i in range(len(row))]
            if len(row) > len(names):
                raise SourceError(f"{path}: row {number} has {len(row)} fields, the header has {len(names)}")
            yield {name: (row[i] if i < len(row) else "") for i, name in enumerate(names)}


def read_json_lines(
    path: str | PathLike[str],
    skip_invalid: bool = False,
    encoding: str = TEXT_ENCODING,
) -> Iterator[dict[str, object]]:
    """Read a JSON Lines file, one object per line.

    :param path: the file to read.
    :param skip_invalid: skip lines that are not valid JSON instead of failing.
    :param encoding: text encoding of the file.
    :raises SourceError: for a line that is not valid JSON (unless ``skip_invalid``)
        or whose value is not an object.
    """
    with open(path, encoding=encoding) as fh:
        for number, line in enumerate(fh, 1):
            text = line.strip()
            if not text:
                continue
            try:
                value = json.loads(text)
            except json.JSONDecodeError as exc:
                if skip_invalid:
                    continue
                raise SourceError(f"{path}:{number}: not valid JSON ({exc.msg})") from exc
            if not isinstance(value, dict):
                raise SourceError(f"{path}:{number}: expected an object, got {type(value).__name__}")
            yield value
