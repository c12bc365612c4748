"""Session: retries, redirects, timeouts, auth and rate limiting end to end."""

import pytest
from httpkit import BearerAuth, RetryExhausted, RetryPolicy, Timeout
from httpkit.ratelimit import TokenBucket

from .conftest import reply


def test_get_retries_503_then_succeeds(make_session, sleeps):
    session, script = make_session(reply(503), reply(503), reply(200, b"ok"))
    assert session.get("items").text == "ok"
    assert script.calls == 3
    assert sleeps == [0.5, 1.0]


def test_persistent_503_raises_retry_exhausted(make_session):
    session, script = make_session(reply(503))
    with pytest.raises(RetryExhausted):
        session.get("items")
    assert script.calls == 4


def test_post_returns_the_503(make_session):
    session, script = make_session(reply(503))
    assert session.post("items", json={"a": 1}).status == 503
    assert script.calls == 1


def test_404_is_returned_not_raised(make_session):
    session, _ = make_session(reply(404))
    assert session.get("missing").status == 404


def test_request_takes_method_and_url(make_session):
    session, _ = make_session(reply(200))
    assert session.request("get", "items", params={"q": "x"}).request.url == "https://api.example/items?q=x"


def test_number_timeout_is_seconds(make_session):
    session, _ = make_session(reply(200), timeout=2)
    assert session.timeout == Timeout(connect=2.0, read=2.0)


def test_default_timeout():
    assert Timeout() == Timeout(connect=5.0, read=10.0)
    assert Timeout.from_ms(1500).read == 1.5


def test_redirect_followed(make_session):
    session, script = make_session(reply(302, Location="/other"), reply(200, b"there"))
    assert session.get("items").request.url == "https://api.example/other"


def test_bearer_auth_header(make_session):
    session, _ = make_session(reply(200), auth=BearerAuth("t0k"))
    assert session.get("me").request.headers["authorization"] == "Bearer t0k"


def test_rate_limiter_makes_the_session_wait(make_session, sleeps):
    now = [0.0]
    bucket = TokenBucket(rate=5.0, burst=1, clock=lambda: now[0])
    session, _ = make_session(reply(200), rate_limiter=bucket)
    session.get("a")
    session.get("b")
    assert sleeps == [pytest.approx(0.2)]


def test_no_retry_policy(make_session):
    session, script = make_session(reply(503), retry=RetryPolicy(max_retries=0))
    with pytest.raises(RetryExhausted):
        session.get("items")
    assert script.calls == 1
