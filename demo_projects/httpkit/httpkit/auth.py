"""Authentication schemes applied to outgoing requests.

:class:`BasicAuth` and :class:`BearerAuth` add an ``Authorization`` header.
Servers that reject a request describe what they want in ``WWW-Authenticate``;
:func:`parse_challenge` reads it.
"""

from __future__ import annotations

import base64

from .errors import AuthError
from .headers import parse_auth_header
from .models import Request, Response


class AuthBase:
    """Base class of authentication schemes."""

    def apply(self, request: Request) -> Request:
        """Return ``request`` with credentials attached.

        :param request: the outgoing request; it is not modified
        :returns: a new request
        """
        return request.with_header("Authorization", self.header_value())

    def header_value(self) -> str:
        """The ``Authorization`` header value.

        :returns: the scheme followed by its credentials
        """
        raise NotImplementedError


class BasicAuth(AuthBase):
    """HTTP Basic authentication.

    :param username: the user id; must not contain a colon
    :param password: the password
    :raises AuthError: if ``username`` contains a colon
    """

    def __init__(self, username: str, password: str) -> None:
        if ":" in username:
            raise AuthError("a Basic user-id cannot contain ':'")
        self.username = username
        self.password = password

    def header_value(self) -> str:
        raw = f"{self.username}:{self.password}".encode()
        return "Basic " + base64.b64encode(raw).decode("ascii")


class BearerAuth(AuthBase):
    """Bearer token authentication.

    :param token: the access token, sent verbatim
    """

    def __init__(self, token: str) -> None:
        self.token = token

    def header_value(self) -> str:
        return f"Bearer {self.token}"


def parse_www_authenticate(response: Response) -> tuple[str, dict[str, str]]:
    """Read the challenge of a 401 response.

    :param response: a response carrying ``WWW-Authenticate``
    :returns: the scheme and its parameters
    :raises AuthError: if the response has no ``WWW-Authenticate`` header
    """
    if "WWW-Authenticate" not in response.headers:
        raise AuthError(f"HTTP {response.status} without a WWW-Authenticate challenge")
    return parse_auth_header(response.headers["WWW-Authenticate"])
