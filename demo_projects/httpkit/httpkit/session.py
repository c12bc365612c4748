"""Sessions: the main entry point.

A :class:`Session` keeps a base URL, default headers, auth, a retry policy and
an optional rate limiter, and sends every request through a transport.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode, urljoin

from .auth import AuthBase
from .constants import DEFAULT_PAGE_SIZE, MAX_REDIRECTS
from .errors import TransportError
from .headers import Headers
from .hooks import HookRegistry
from .models import Response, make_request
from .pagination import Paginator
from .ratelimit import TokenBucket
from .retry import RetryPolicy
from .timeouts import Timeout, coerce_timeout
from .transport import BaseTransport, UrllibTransport

REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})


class Session:
    """A reusable client.

    Args:
        base_url: Prefix joined to relative URLs.
        auth: Credentials applied to every request.
        transport: Where requests go; a :class:`~httpkit.transport.UrllibTransport` by default.
        retry: The retry policy; ``RetryPolicy()`` by default.
        timeout: A :class:`~httpkit.timeouts.Timeout` or a number (see
            :func:`~httpkit.timeouts.coerce_timeout`).
        rate_limiter: A token bucket consulted before each attempt.
        headers: Headers sent with every request.
        max_redirects: Redirects followed per request; defaults to 10.
        sleep: Called with a number of seconds whenever the session waits.
    """

    def __init__(
        self,
        base_url: str = "",
        *,
        auth: AuthBase | None = None,
        transport: BaseTransport | None = None,
        retry: RetryPolicy | None = None,
        timeout: Timeout | float | None = None,
        rate_limiter: TokenBucket | None = None,
        headers: dict[str, str] | None = None,
        max_redirects: int = MAX_REDIRECTS,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url
        self.auth = auth
        self.transport = transport or UrllibTransport()
        self.retry = retry or RetryPolicy()
        self.timeout = coerce_timeout(timeout)
        self.rate_limiter = rate_limiter
        self.headers = Headers(headers)
        self.hooks = HookRegistry()
        self.max_redirects = max_redirects
        self._sleep = sleep

    def _url(self, url: str, params: dict[str, str] | None) -> str:
        full = urljoin(self.base_url, url) if self.base_url else url
        if params:
            full += ("&" if "?" in full else "?") + urlencode(params)
        return full

    def _send_once(self, request, timeout: Timeout) -> Response:
        if self.rate_limiter is not None:
            wait = self.rate_limiter.acquire()
            if wait:
                self._sleep(wait)
        return self.transport.send(request, timeout)

    def request(
        self,
        method: str,
        url: str,
        *,
        params: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
        json: Any = None,
        timeout: Timeout | float | None = None,
    ) -> Response:
        """Send a request, retrying and following redirects as configured.

        Args:
            method: The HTTP method, any case.
            url: Absolute, or relative to ``base_url``.
            params: Query parameters appended to the URL.
            headers: Headers for this request only, over the session's.
            json: A value encoded as the JSON body.
            timeout: Overrides the session timeout for this request.

        Returns:
            The final response, including 4xx and 5xx responses that are not retried.

        Raises:
            TransportError: when the transport obtains no response.
            RetryExhausted: when a retryable status persists past ``max_retries``.
            RateLimited: when the rate limiter has no token available.
        """
        request = make_request(method, self._url(url, params), headers=dict(self.headers.merged(headers)), json=json)
        if self.auth is not None:
            request = self.auth.apply(request)
        request = self.hooks.dispatch("request", request)
        limit = coerce_timeout(timeout) if timeout is not None else self.timeout
        redirects = 0
        attempt = 1
        response = self._send_once(request, limit)
        while True:
            if response.status in REDIRECT_STATUSES and "Location" in response.headers:
                redirects += 1
                if redirects > self.max_redirects:
                    raise TransportError(f"more than {self.max_redirects} redirects")
                method = "GET" if response.status == 303 else request.method
                request = make_request(method, urljoin(request.url, response.headers["Location"]),
                                       headers=dict(request.headers))
                response = self._send_once(request, limit)
                continue
            if not self.retry.should_retry(request, response):
                break
            self.retry.check_exhausted(attempt, response)
            self._sleep(self.retry.delay_for(attempt, response))
            attempt += 1
            response = self._send_once(request, limit)
        return self.hooks.dispatch("response", response)

    def get(
        self,
        url: str,
        *,
        params: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
        timeout: Timeout | float | None = None,
    ) -> Response:
        """Send a GET request. See :meth:`request`."""
        return self.request("GET", url, params=params, headers=headers, timeout=timeout)

    def post(self, url: str, *, json: Any = None, headers: dict[str, str] | None = None) -> Response:
        """Send a POST request with an optional JSON body. POST is not retried by the default policy."""
        return self.request("POST", url, json=json, headers=headers)

    def delete(self, url: str, *, headers: dict[str, str] | None = None) -> Response:
        """Send a DELETE request."""
        return self.request("DELETE", url, headers=headers)

    def paginate(self, url: str, *, page_size: int = DEFAULT_PAGE_SIZE) -> Paginator:
        """Return a :class:`~httpkit.pagination.Paginator` over ``url``."""
        return Paginator(self, url, page_size=page_size)

    def close(self) -> None:
        """Close the transport. The session must not be used afterwards."""
        self.transport.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
