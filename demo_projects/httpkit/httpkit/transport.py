"""Transports move a :class:`~httpkit.models.Request` and bring back a response.

:class:`BaseTransport` is the interface; :class:`MockTransport` answers from a
Python callable and is what the test-suite and the tutorial use.
"""

from __future__ import annotations

from collections.abc import Callable

from .errors import TransportError
from .models import Request, Response
from .timeouts import Timeout


class BaseTransport:
    """Interface every transport implements."""

    def send(self, request: Request, timeout: Timeout) -> Response:
        """Send ``request`` and return the response.

        :param request: the request to send
        :param timeout: the timeouts to apply
        :returns: the response, whatever its status
        :raises TransportError: when no response could be obtained
        """
        raise NotImplementedError

    def close(self) -> None:
        """Release connections. The base implementation does nothing."""


class MockTransport(BaseTransport):
    """Answer requests by calling ``handler(request)``.

    :param handler: a callable taking a :class:`Request` and returning a
        :class:`Response`; it may raise :class:`TransportError` to simulate a
        network failure
    """

    def __init__(self, handler: Callable[[Request], Response]) -> None:
        self.handler = handler
        self.requests: list[Request] = []
        self.closed = False

    def send(self, request: Request, timeout: Timeout) -> Response:
        self.requests.append(request)
        if self.closed:
            raise TransportError("transport is closed")
        response = self.handler(request)
        return Response(response.status, response.headers, response.body, request)

    def close(self) -> None:
        self.closed = True


class UrllibTransport(BaseTransport):
    """Send requests with :mod:`urllib.request` from the standard library.

    :raises ConnectTimeout: from :meth:`send` when the connection does not open in time
    """

    def send(self, request: Request, timeout: Timeout) -> Response:
        import urllib.error
        import urllib.request

        from .errors import ConnectTimeout
        from .headers import Headers

        req = urllib.request.Request(request.url, data=request.body, method=request.method)
        for name, value in request.headers.items():
            req.add_header(name, value)
        try:
            with urllib.request.urlopen(req, timeout=max(timeout.connect, timeout.read)) as raw:
                return Response(raw.status, Headers(dict(raw.headers.items())), raw.read(), request)
        except urllib.error.HTTPError as err:
            return Response(err.code, Headers(dict(err.headers.items())), err.read(), request)
        except TimeoutError as exc:
            raise ConnectTimeout(str(exc)) from exc
        except OSError as exc:
            raise TransportError(str(exc)) from exc
