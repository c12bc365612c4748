"""Headers, auth, time helpers and the token bucket."""

import pytest
from httpkit import AuthError, BasicAuth, DecodeError, Headers, HTTPStatusError, Response
from httpkit.auth import parse_www_authenticate
from httpkit.headers import parse_link_header
from httpkit.ratelimit import TokenBucket
from httpkit.timeutil import parse_retry_after


def test_headers_equal_ignoring_case():
    assert Headers({"Content-Type": "a"}) == {"content-type": "a"}
    assert repr(Headers({"Accept": "x"})) == "Headers({'Accept': 'x'})"


def test_basic_auth_is_base64():
    assert BasicAuth("aladdin", "opensesame").header_value() == "Basic YWxhZGRpbjpvcGVuc2VzYW1l"
    with pytest.raises(AuthError):
        BasicAuth("a:b", "c")


def test_challenge_parsing():
    response = Response(401, Headers({"WWW-Authenticate": 'Bearer realm="api"'}))
    assert parse_www_authenticate(response) == ("Bearer", {"realm": "api"})


def test_link_header():
    assert parse_link_header('<https://x/?page=2>; rel="next"') == {"next": "https://x/?page=2"}


def test_retry_after_http_date_is_seconds_from_now():
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412400.0) == 80.0
    assert parse_retry_after("soon") is None


def test_empty_body_json_raises():
    with pytest.raises(DecodeError):
        Response(200).json()


def test_raise_for_status_only_for_4xx_and_5xx():
    Response(302).raise_for_status()
    with pytest.raises(HTTPStatusError):
        Response(404).raise_for_status()


def test_acquire_clamps_to_burst():
    bucket = TokenBucket(rate=5.0, burst=10, clock=lambda: 0.0)
    assert bucket.acquire(100) == 0.0
    assert bucket.acquire(1) == pytest.approx(0.2)


def test_hooks_take_dotted_paths():
    from httpkit.hooks import HookRegistry

    hooks = HookRegistry()
    hooks.register("response", "json:dumps")
    assert hooks.dispatch("response", {"a": 1}) == '{"a": 1}'
    with pytest.raises(KeyError):
        hooks.register("send", "json:dumps")
