from __future__ import annotations

import pytest
from toolbelt import Context, Flag, InvalidFlag, Variant
from toolbelt.hashing import bucket, in_rollout, percent_to_buckets, pick_weighted
from toolbelt.rules import Rule, parse_condition
from toolbelt.settings import BUCKETS


def test_default_flag_serves_off(alice):
    ev = Flag("beta").evaluate(alice)
    assert (ev.variant, ev.value, ev.reason) == ("off", False, "default")


def test_disabled_flag_serves_off_variant(alice):
    flag = Flag("beta", rollout=100.0, enabled=False)
    assert flag.evaluate(alice).reason == "disabled"
    assert flag.evaluate(alice).value is False


def test_full_rollout_serves_weighted_variant(alice):
    ev = Flag("beta", rollout=100.0).evaluate(alice)
    assert (ev.variant, ev.reason) == ("on", "rollout")


def test_rule_wins_before_rollout(alice):
    rule = Rule((parse_condition("country eq FR"),), "on")
    ev = Flag("beta", rules=(rule,)).evaluate(alice)
    assert (ev.reason, ev.rule_index) == ("rule", 0)


def test_unknown_default_variant_is_rejected():
    with pytest.raises(InvalidFlag):
        Flag("beta", default_variant="maybe")


def test_variant_named_raises_invalid_flag_not_key_error():
    with pytest.raises(InvalidFlag):
        Flag("beta").variant_named("maybe")
    assert not issubclass(InvalidFlag, KeyError)


def test_percent_to_buckets_clamps_instead_of_raising():
    assert percent_to_buckets(150) == BUCKETS
    assert percent_to_buckets(-5) == 0
    assert percent_to_buckets(0.01) == 1


def test_bucket_is_stable_and_in_range():
    assert bucket("f", "u") == bucket("f", "u")
    assert 0 <= bucket("f", "u") < BUCKETS
    salted = [bucket("f", f"u{i}", salt="x") for i in range(20)]
    assert salted != [bucket("f", f"u{i}") for i in range(20)]


def test_rollout_share_is_roughly_the_percentage():
    inside = sum(in_rollout("flag", f"user{i}", 25.0) for i in range(4000))
    assert 800 < inside < 1200


def test_pick_weighted_rejects_all_zero_weights():
    with pytest.raises(InvalidFlag):
        pick_weighted("f", "u", [0, 0])


def test_multivariate_rollout_uses_only_weighted_variants():
    flag = Flag("color", variants=(Variant("red", "#f00", 1), Variant("blue", "#00f", 0)), default_variant="blue",
                off_variant="blue", rollout=100.0)
    assert {flag.evaluate(Context(f"u{i}")).variant for i in range(50)} == {"red"}


def test_with_enabled_returns_a_copy():
    flag = Flag("beta")
    off = flag.with_enabled(False)
    assert flag.enabled and not off.enabled


def test_context_requires_a_key():
    with pytest.raises(InvalidFlag):
        Context("")
    with pytest.raises(InvalidFlag):
        Context.from_mapping({"country": "FR"})


def test_with_attributes_leaves_original_alone(alice):
    changed = alice.with_attributes(country="BE")
    assert alice.get("country") == "FR" and changed.get("country") == "BE"
    assert changed.get("key") == "alice"
