"""Case-insensitive header mapping and header-value parsers.

Header names are compared without regard to case, as HTTP requires, but the
spelling first used for a name is kept for display.

>>> h = Headers({"Content-Type": "application/json"})
>>> h["content-type"]
'application/json'
>>> h
{'content-type': 'application/json'}
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, MutableMapping

_LINK = re.compile(r'<([^>]*)>\s*;\s*rel="?([^";]+)"?')


class Headers(MutableMapping[str, str]):
    """A mutable mapping of header names to values.

    Parameters
    ----------
    initial : Mapping[str, str], optional
        Headers to start with. Later keys that differ only in case replace
        earlier ones.

    Notes
    -----
    Two ``Headers`` compare equal when they hold the same names, ignoring
    case, with the same values. A plain ``dict`` is compared the same way.
    """

    def __init__(self, initial: Mapping[str, str] | None = None) -> None:
        self._items: dict[str, tuple[str, str]] = {}
        for key, value in (initial or {}).items():
            self[key] = value

    def __setitem__(self, key: str, value: str) -> None:
        self._items[key.lower()] = (key, value)

    def __getitem__(self, key: str) -> str:
        return self._items[key.lower()][1]

    def __delitem__(self, key: str) -> None:
        del self._items[key.lower()]

    def __iter__(self) -> Iterator[str]:
        return (original for original, _ in self._items.values())

    def __len__(self) -> int:
        return len(self._items)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mapping):
            return NotImplemented
        theirs = {str(k).lower(): v for k, v in other.items()}
        return {k: v for k, (_, v) in self._items.items()} == theirs

    def __repr__(self) -> str:
        return f"Headers({dict(self.items())!r})"

    def merged(self, other: Mapping[str, str] | None) -> Headers:
        """Return a copy with ``other`` applied on top.

        Parameters
        ----------
        other : Mapping[str, str] or None
            Headers that win over this mapping's values.

        Returns
        -------
        Headers
            A new mapping; neither input is modified.
        """
        out = Headers(self)
        for key, value in (other or {}).items():
            out[key] = value
        return out


def parse_link_header(value: str) -> dict[str, str]:
    """Parse an RFC 8288 ``Link`` header into ``{rel: url}``.

    Parameters
    ----------
    value : str
        The raw header value, e.g. ``<https://api.example/items?page=2>; rel="next"``.

    Returns
    -------
    dict[str, str]
        One entry per relation; an empty dict when nothing parses.
    """
    return {rel: url for url, rel in _LINK.findall(value)}


def parse_auth_header(value: str) -> tuple[str, dict[str, str]]:
    """Split a ``WWW-Authenticate`` value into its scheme and parameters.

    Parameters
    ----------
    value : str
        For example ``Bearer realm="api", error="invalid_token"``.

    Returns
    -------
    tuple[str, dict[str, str]]
        The scheme and its auth-params; the params are empty for a bare scheme.
    """
    scheme, _, rest = value.strip().partition(" ")
    params = dict(re.findall(r'(\w+)="?([^",]*)"?', rest))
    return scheme, params
