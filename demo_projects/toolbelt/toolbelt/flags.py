"""Flags, their variants and the result of evaluating one.

Evaluation order, for an enabled flag:

1. the rules, in order; the first rule that applies and whose rollout
   includes the context decides the variant (reason ``"rule"``);
2. the flag-level rollout: contexts inside :attr:`Flag.rollout` get a
   variant picked by weight (reason ``"rollout"``);
3. everyone else gets :attr:`Flag.default_variant` (reason ``"default"``).

A disabled flag always serves :attr:`Flag.off_variant` (reason ``"disabled"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .context import Context
from .errors import InvalidFlag
from .hashing import in_rollout, pick_weighted
from .rules import Rule
from .settings import DEFAULT_SALT, MAX_RULES_PER_FLAG, VARIANT_OFF, VARIANT_ON

Reason = Literal["disabled", "rule", "rollout", "default", "override"]


@dataclass(frozen=True)
class Variant:
    """A named value a flag can serve.

    Parameters
    ----------
    name : str
        Identifier used by rules and overrides.
    value : object
        What :meth:`toolbelt.client.FlagClient.value` returns for this variant.
    weight : int, optional
        Relative weight in the flag-level rollout; 0 keeps the variant out of it.
    """

    name: str
    value: Any
    weight: int = 0


def _boolean_variants() -> tuple[Variant, ...]:
    return (Variant(VARIANT_ON, True, weight=1), Variant(VARIANT_OFF, False))


@dataclass(frozen=True)
class Evaluation:
    """The outcome of evaluating one flag for one context."""

    flag_key: str
    variant: str
    value: Any
    reason: Reason
    rule_index: int | None = None

    @property
    def enabled(self) -> bool:
        """Truthiness of the served value."""
        return bool(self.value)


@dataclass(frozen=True)
class Flag:
    """A feature flag.

    Parameters
    ----------
    key : str
        Unique key of the flag.
    variants : tuple of Variant, optional
        Defaults to ``on`` (``True``, weight 1) and ``off`` (``False``).
    default_variant : str, optional
        Served when no rule and no rollout applies. Defaults to ``"off"``.
    rules : tuple of Rule, optional
        Targeting rules, tried in order.
    rollout : float, optional
        Percentage (0-100) of the remaining contexts that get a weighted
        variant. Defaults to 0: nobody.
    enabled : bool, optional
        A disabled flag serves :attr:`off_variant` to everyone.
    off_variant : str, optional
        Variant served while the flag is disabled. Defaults to ``"off"``.
    salt : str or None, optional
        Bucketing salt; ``None`` uses :data:`toolbelt.settings.DEFAULT_SALT`.

    Raises
    ------
    InvalidFlag
        If a variant name is duplicated, ``default_variant``, ``off_variant``
        or a rule's variant is not a variant of the flag, or there are more
        than :data:`toolbelt.settings.MAX_RULES_PER_FLAG` rules.
    """

    key: str
    variants: tuple[Variant, ...] = field(default_factory=_boolean_variants)
    default_variant: str = VARIANT_OFF
    rules: tuple[Rule, ...] = ()
    rollout: float = 0.0
    enabled: bool = True
    off_variant: str = VARIANT_OFF
    salt: str | None = None

    def __post_init__(self) -> None:
        names = [v.name for v in self.variants]
        if len(set(names)) != len(names):
            raise InvalidFlag(f"{self.key}: duplicate variant names")
        wanted = [self.default_variant, self.off_variant, *(r.variant for r in self.rules)]
        unknown = sorted({n for n in wanted if n not in names})
        if unknown:
            raise InvalidFlag(f"{self.key}: unknown variant(s) {', '.join(unknown)}")
        if len(self.rules) > MAX_RULES_PER_FLAG:
            raise InvalidFlag(f"{self.key}: more than {MAX_RULES_PER_FLAG} rules")

    def variant_named(self, name: str) -> Variant:
        """Return the variant called ``name``.

        Raises
        ------
        InvalidFlag
            If the flag has no such variant.
        """
        for variant in self.variants:
            if variant.name == name:
                return variant
        raise InvalidFlag(f"{self.key}: no variant {name!r}")

    @property
    def is_boolean(self) -> bool:
        """True when every variant value is a ``bool``."""
        return all(isinstance(v.value, bool) for v in self.variants)

    def _serve(self, name: str, reason: Reason, rule_index: int | None = None) -> Evaluation:
        return Evaluation(self.key, name, self.variant_named(name).value, reason, rule_index)

    def evaluate(self, context: Context) -> Evaluation:
        """Evaluate the flag for ``context``.

        Parameters
        ----------
        context : Context
            Who the flag is evaluated for.

        Returns
        -------
        Evaluation
            The served variant, its value and why it was chosen.
        """
        if not self.enabled:
            return self._serve(self.off_variant, "disabled")
        salt = self.salt or DEFAULT_SALT
        for index, rule in enumerate(self.rules):
            if rule.applies(context) and in_rollout(f"{self.key}#rule{index}", context.key, rule.rollout, salt=salt):
                return self._serve(rule.variant, "rule", index)
        if in_rollout(self.key, context.key, self.rollout, salt=salt):
            weights = [v.weight for v in self.variants]
            chosen = self.variants[pick_weighted(self.key, context.key, weights, salt=salt)]
            return self._serve(chosen.name, "rollout")
        return self._serve(self.default_variant, "default")

    def with_enabled(self, enabled: bool) -> Flag:
        """Return a copy of the flag switched on or off."""
        return Flag(
            self.key, self.variants, self.default_variant, self.rules, self.rollout, enabled, self.off_variant, self.salt
        )
