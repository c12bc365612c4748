"""Exception hierarchy: everything httpkit raises derives from HttpKitError."""

from __future__ import annotations


class HttpKitError(Exception):
    """Base class of every httpkit error."""


class TransportError(HttpKitError):
    """The request never produced a response (connection refused, reset, DNS)."""


class TimeoutError(TransportError):  # noqa: A001 - public name kept from 1.x
    """The transport gave up waiting."""


class ConnectTimeout(TimeoutError):
    """No connection within the connect timeout."""


class ReadTimeout(TimeoutError):
    """The server accepted the connection but sent nothing within the read timeout."""


class HTTPStatusError(HttpKitError):
    """A response carried an error status (raised by ``Response.raise_for_status``)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class RetryExhausted(HttpKitError):
    """Every attempt allowed by the retry policy failed."""

    def __init__(self, attempts: int, last_status: int | None) -> None:
        super().__init__(f"gave up after {attempts} attempts (last status {last_status})")
        self.attempts = attempts
        self.last_status = last_status


class RateLimited(HttpKitError):
    """A token bucket refused a non-blocking acquire."""


class DecodeError(HttpKitError):
    """A response body could not be decoded as JSON."""


class AuthError(HttpKitError):
    """Credentials were rejected or a challenge could not be parsed."""
