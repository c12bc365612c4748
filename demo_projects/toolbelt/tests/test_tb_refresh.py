from __future__ import annotations

from toolbelt import Flag, FlagStore
from toolbelt.refresh import Refresher
from toolbelt.settings import MIN_REFRESH_INTERVAL


def test_interval_is_clamped_not_rejected(clock):
    r = Refresher(FlagStore(), lambda: [], interval=0.5, clock=clock)
    assert r.interval == MIN_REFRESH_INTERVAL


def test_failing_source_keeps_flags(clock):
    store = FlagStore([Flag("beta")])

    def broken():
        raise ConnectionError("offline")

    r = Refresher(store, broken, clock=clock)
    assert r.refresh() is False
    assert "beta" in store and r.failures == 1
    assert "ConnectionError" in str(r.last_error)


def test_maybe_refresh_respects_interval(clock):
    store = FlagStore()
    r = Refresher(store, lambda: [Flag("a")], interval=60, clock=clock)
    assert r.maybe_refresh() is True
    clock.advance(30)
    assert r.maybe_refresh() is None
    assert r.next_refresh_in() == 30
    clock.advance(30)
    assert r.maybe_refresh() is True


def test_stale(clock):
    r = Refresher(FlagStore(), lambda: [], clock=clock)
    assert r.stale
    r.refresh()
    assert not r.stale
    clock.advance(601)
    assert r.stale
