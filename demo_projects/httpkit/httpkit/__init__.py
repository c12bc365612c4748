"""httpkit: a small HTTP client with sessions, retries, auth, rate limiting and pagination."""

from __future__ import annotations

from .auth import BasicAuth, BearerAuth
from .errors import (
    AuthError,
    ConnectTimeout,
    DecodeError,
    HttpKitError,
    HTTPStatusError,
    RateLimited,
    ReadTimeout,
    RetryExhausted,
    TransportError,
)
from .headers import Headers
from .models import Request, Response
from .pagination import Paginator
from .retry import RetryPolicy
from .session import Session
from .timeouts import Timeout
from .transport import MockTransport

__all__ = [
    "AuthError",
    "BasicAuth",
    "BearerAuth",
    "ConnectTimeout",
    "DecodeError",
    "HTTPStatusError",
    "Headers",
    "HttpKitError",
    "MockTransport",
    "Paginator",
    "RateLimited",
    "ReadTimeout",
    "Request",
    "Response",
    "RetryExhausted",
    "RetryPolicy",
    "Session",
    "Timeout",
    "TransportError",
]
__version__ = "2.1.0"
