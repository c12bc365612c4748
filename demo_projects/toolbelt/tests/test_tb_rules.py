from __future__ import annotations

import pytest
from toolbelt import Condition, Context, RuleSyntaxError, parse_condition
from toolbelt.errors import InvalidFlag
from toolbelt.rules import Rule, parse_rule


def test_parse_list_operand():
    cond = parse_condition("country in [FR, BE]")
    assert cond == Condition("country", "in", ("FR", "BE"))


def test_symbols_map_to_operator_names():
    assert parse_condition("age >= 18").op == "gte"
    assert parse_condition("age >= 18").value == 18


def test_quoted_operand_stays_a_string():
    assert parse_condition("build eq '42'").value == "42"


def test_bad_condition_raises_rule_syntax_error_which_is_a_value_error():
    with pytest.raises(RuleSyntaxError):
        parse_condition("country")
    with pytest.raises(ValueError):
        parse_condition("country resembles FR")


def test_missing_attribute_matches_only_negative_operators(alice):
    assert not Condition("team", "eq", "core").test(alice)
    assert Condition("team", "ne", "core").test(alice)
    assert Condition("team", "not_in", ("core",)).test(alice)


def test_type_mismatch_does_not_raise(alice):
    assert Condition("country", "lt", 3).test(alice) is False


def test_matches_searches_anywhere_in_the_value():
    ctx = Context("u1", {"email": "bob@example.com"})
    assert Condition("email", "matches", r"example\.com").test(ctx)
    assert not Condition("email", "matches", r"^example").test(ctx)


def test_unknown_operator_in_condition_constructor():
    with pytest.raises(InvalidFlag):
        Condition("a", "like", 1)


def test_rule_needs_every_condition(alice):
    rule = parse_rule({"if": ["country eq FR", "plan eq free"], "serve": "on"})
    assert isinstance(rule, Rule)
    assert not rule.applies(alice)
    assert parse_rule({"if": "country eq FR", "serve": "on"}).applies(alice)


def test_rule_without_serve_is_rejected():
    with pytest.raises(InvalidFlag):
        parse_rule({"if": "country eq FR"})
