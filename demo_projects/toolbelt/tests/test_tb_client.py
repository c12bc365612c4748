from __future__ import annotations

import pytest
from toolbelt import Context, Flag, FlagClient, FlagNotFound, InvalidFlag
from toolbelt.audit import ExposureLog
from toolbelt.cache import TTLCache


def test_unknown_flag_gives_default(client, alice):
    assert client.is_enabled("nope", alice) is False
    assert client.is_enabled("nope", alice, default=True) is True
    assert client.value("nope", alice, default=3) == 3


def test_unknown_flag_raises_when_asked(store, alice):
    strict = FlagClient(store, on_missing="raise")
    with pytest.raises(FlagNotFound):
        strict.is_enabled("nope", alice)


def test_evaluate_and_variant_always_raise_for_unknown_flags(client, alice):
    with pytest.raises(KeyError):
        client.evaluate("nope", alice)
    with pytest.raises(FlagNotFound):
        client.variant("nope", alice)


def test_is_enabled_follows_flag(client, alice):
    assert client.is_enabled("dark-mode", alice) is True
    assert client.is_enabled("beta", alice) is False


def test_override_and_clear(client, alice):
    client.override("beta", "on")
    assert client.evaluate("beta", alice).reason == "override"
    assert client.clear_override("beta") is True
    assert client.clear_override("beta") is False
    with pytest.raises(InvalidFlag):
        client.override("beta", "maybe")
    with pytest.raises(FlagNotFound):
        client.override("nope", "on")


def test_cache_is_dropped_when_store_changes(client, store, alice):
    assert client.is_enabled("beta", alice) is False
    store.put(Flag("beta", rollout=100.0))
    assert client.is_enabled("beta", alice) is True


def test_cache_expires_after_ttl(clock):
    cache = TTLCache(0.25, clock=clock)
    cache.set("k", 1)
    clock.advance(0.2)
    assert cache.get("k") == 1
    clock.advance(0.1)
    assert cache.get("k") is None


def test_cache_ttl_zero_disables_and_negative_is_rejected(clock):
    cache = TTLCache(0, clock=clock)
    cache.set("k", 1)
    assert cache.get("k") is None
    with pytest.raises(ValueError):
        TTLCache(-1)


def test_cache_evicts_oldest(clock):
    cache = TTLCache(10, maxsize=2, clock=clock)
    for k in "abc":
        cache.set(k, k)
    assert cache.get("a") is None and cache.get("c") == "c"


def test_all_values(client, alice):
    assert client.all_values(alice) == {"beta": False, "dark-mode": True}


def test_store_put_returns_previous_and_remove_reports(store):
    old = store.get("beta")
    assert store.put(Flag("beta", rollout=5.0)) is old
    assert store.remove("beta") is True
    assert store.remove("beta") is False
    assert store.get("beta") is None
    with pytest.raises(FlagNotFound):
        store.require("beta")


def test_exposure_log_drops_oldest_and_skips_overrides(client, alice):
    log = ExposureLog(capacity=1)
    assert log.record(client.evaluate("beta", alice), alice)
    assert log.record(client.evaluate("dark-mode", alice), alice)
    assert log.dropped == 1 and log.pending() == 1
    client.override("beta", "on")
    assert log.record(client.evaluate("beta", alice), alice) is False
    batches = []
    log.sink = batches.append
    assert log.flush() == 1 and len(batches[0]) == 1


def test_exposure_log_keeps_buffer_when_sink_fails(alice):
    def broken(batch):
        raise OSError("down")

    log = ExposureLog(sink=broken)
    log.record(Flag("beta").evaluate(alice), alice)
    with pytest.raises(OSError):
        log.flush()
    assert log.pending() == 1


def test_exposure_sampling_is_by_context():
    log = ExposureLog(sample_percent=0)
    assert log.record(Flag("beta").evaluate(Context("u")), Context("u")) is False
