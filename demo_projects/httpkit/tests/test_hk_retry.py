"""Retry policy: statuses, methods, backoff and Retry-After."""

import pytest
from httpkit import RetryExhausted, RetryPolicy
from httpkit.models import make_request

from .conftest import reply


def test_backoff_doubles_from_half_a_second():
    policy = RetryPolicy(jitter=0.0)
    assert [policy.delay_for(n) for n in (1, 2, 3)] == [0.5, 1.0, 2.0]


def test_jitter_stays_within_the_fraction():
    low = RetryPolicy(random=lambda: 0.0)
    high = RetryPolicy(random=lambda: 1.0)
    assert low.delay_for(1) == pytest.approx(0.5 * 0.75)
    assert high.delay_for(1) == pytest.approx(0.5 * 1.25)


def test_retry_after_seconds_wins_over_backoff():
    policy = RetryPolicy(jitter=0.0)
    assert policy.delay_for(1, reply(503, Retry_After="7")) == 7.0


def test_retry_after_is_capped_at_max_backoff():
    policy = RetryPolicy(jitter=0.0)
    assert policy.delay_for(1, reply(503, Retry_After="3600")) == 30.0


def test_429_is_retried_and_500_is_not():
    policy = RetryPolicy()
    get = make_request("GET", "https://api.example/x")
    assert policy.should_retry(get, reply(429))
    assert not policy.should_retry(get, reply(500))


def test_post_is_not_retried():
    policy = RetryPolicy()
    post = make_request("POST", "https://api.example/x")
    assert not policy.should_retry(post, reply(503))


def test_exhaustion_raises():
    policy = RetryPolicy(max_retries=2)
    policy.check_exhausted(2, reply(503))
    with pytest.raises(RetryExhausted):
        policy.check_exhausted(3, reply(503))
