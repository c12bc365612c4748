"""Request and response value objects.

Both are plain data: a :class:`Request` is what a transport sends and a
:class:`Response` is what it hands back. :func:`make_request` fills in defaults.
"""

from __future__ import annotations

import json as _json
from dataclasses import dataclass, field, replace
from typing import Any

from .constants import USER_AGENT
from .errors import DecodeError, HTTPStatusError
from .headers import Headers


@dataclass(frozen=True)
class Request:
    """An outgoing request.

    Attributes:
        method: Upper-case HTTP method.
        url: Absolute URL, query string included.
        headers: Request headers.
        body: Encoded body bytes, or ``None``.
    """

    method: str
    url: str
    headers: Headers = field(default_factory=Headers)
    body: bytes | None = None

    def with_header(self, name: str, value: str) -> Request:
        """Return a copy with one header set; the original is unchanged."""
        return replace(self, headers=self.headers.merged({name: value}))


def make_request(method: str, url: str, *, headers: dict[str, str] | None = None, json: Any = None) -> Request:
    """Build a :class:`Request`, adding ``User-Agent`` and encoding ``json`` when given."""
    merged = Headers({"User-Agent": USER_AGENT}).merged(headers)
    body = None
    if json is not None:
        body = _json.dumps(json).encode("utf-8")
        merged["Content-Type"] = "application/json"
    return Request(method.upper(), url, merged, body)


@dataclass(frozen=True)
class Response:
    """A response as returned by a transport.

    Attributes:
        status: The HTTP status code.
        headers: Response headers.
        body: Raw body bytes.
        request: The request that produced this response.
    """

    status: int
    headers: Headers = field(default_factory=Headers)
    body: bytes = b""
    request: Request | None = None

    @property
    def ok(self) -> bool:
        """``True`` for 1xx, 2xx and 3xx statuses."""
        return self.status < 400

    @property
    def text(self) -> str:
        """The body decoded as UTF-8, with undecodable bytes replaced."""
        return self.body.decode("utf-8", errors="replace")

    def json(self) -> Any:
        """Decode the body as JSON.

        Returns:
            The decoded value. Returns ``None`` when the body is empty.
        """
        try:
            return _json.loads(self.body)
        except ValueError as exc:
            raise DecodeError(f"response body is not JSON: {exc}") from exc

    def raise_for_status(self) -> None:
        """Raise :class:`~httpkit.errors.HTTPStatusError` for any status of 300 or above.

        Returns:
            None when the status is below the threshold.
        """
        if self.status >= 400:
            raise HTTPStatusError(f"HTTP {self.status} for {self.request.url if self.request else '?'}", self.status)
