"""Retry policy."""

import pytest
from pipekit import ManualClock, RetryExhausted, RetryPolicy


def test_default_delays_double_from_half_a_second():
    assert list(RetryPolicy().delays()) == [0.5, 1.0, 2.0]


def test_delays_are_capped():
    assert max(RetryPolicy(max_attempts=10).delays()) == 60.0


def test_exhausted_chains_last_error():
    clock = ManualClock()
    calls = []

    def flaky():
        calls.append(clock.now())
        raise TimeoutError(len(calls))

    with pytest.raises(RetryExhausted) as info:
        RetryPolicy(max_attempts=3).call(flaky, clock=clock)
    assert calls == [0.0, 0.5, 1.5]
    assert isinstance(info.value.__cause__, TimeoutError)
    assert info.value.attempts == 3


def test_other_exceptions_propagate_at_once():
    calls = []

    def broken():
        calls.append(1)
        raise KeyError("x")

    with pytest.raises(KeyError):
        RetryPolicy(retry_on=(TimeoutError,)).call(broken, clock=ManualClock())
    assert calls == [1]
