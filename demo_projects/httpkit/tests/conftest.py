"""Make ``httpkit`` importable from a source checkout and provide common fixtures."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

DEMO_ROOT = Path(__file__).resolve().parents[1]
if str(DEMO_ROOT) not in sys.path:
    sys.path.insert(0, str(DEMO_ROOT))

from httpkit import MockTransport, Response, RetryPolicy, Session  # noqa: E402
from httpkit.headers import Headers  # noqa: E402


class Script:
    """A handler that answers with a fixed sequence of responses."""

    def __init__(self, *responses: Response) -> None:
        self.responses = list(responses)
        self.calls = 0

    def __call__(self, request):
        self.calls += 1
        return self.responses.pop(0) if len(self.responses) > 1 else self.responses[0]


def reply(status: int = 200, body: bytes = b"", **headers: str) -> Response:
    return Response(status, Headers({k.replace("_", "-"): v for k, v in headers.items()}), body)


@pytest.fixture
def sleeps() -> list[float]:
    return []


@pytest.fixture
def make_session(sleeps):
    def build(*responses: Response, **kwargs) -> tuple[Session, Script]:
        script = Script(*responses)
        kwargs.setdefault("retry", RetryPolicy(jitter=0.0))
        session = Session("https://api.example/", transport=MockTransport(script), sleep=sleeps.append, **kwargs)
        return session, script

    return build
