"""A default stated as the value used unless the caller passes another: "rounds with
:attr:`Rounding.HALF_UP` unless you pass another mode", "waters with ``Pace.SLOW`` unless you
give a different pace". The sentence names the value, not the parameter; the parameter is the
one of the subject's whose default is a member of the same class as the stated value (a module
constant bound to a member counts as that member). Several candidates are no answer.
"""

from __future__ import annotations

import re

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import dotted, role_target
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.defaults.symdefaults import alias_chain, check_symbol_default
from caas_tui.review.static.findings import Finding
from caas_tui.review.static.referents.subjects import subject_of
from caas_tui.review.static.wording.facts import StatedValue

_VALUE = r"(?::(?:[\w-]+:)?(?:attr|data|const|obj|any):`(?P<role>[^`]+)`|``?(?P<code>[^`]+)``?)"
_UNLESS = re.compile(
    rf"\b(?:with|using|in|to|as)\s+{_VALUE}\s*,?\s+unless\s+(?:you\s+|the\s+caller\s+|callers?\s+)?"
    r"(?:pass|give|supply|specify|set|choose|request|ask\s+for)\w*\s+"
    r"(?:another|a\s+different|some\s+other|other|an?\s+explicit|your\s+own)\b",
    re.IGNORECASE,
)


def check_unless_defaults(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    findings: list[Finding] = []
    for m in _UNLESS.finditer(claim.text):
        text = role_target(m.group("role")) if m.group("role") else (m.group("code") or "").strip()
        if "." not in text:
            continue  # a bare literal or name: which parameter it is can't be told from its class
        stated = ctx.resolve(text, claim)
        if not stated.found or stated.ambiguous or stated.target is None or stated.target.owner is None:
            continue
        subject = subject_of(ctx, claim, m.start())
        if subject is None or subject.kind != "function":
            continue
        sig = ctx.call_signature(subject, on_instance=True)
        if sig is None or not sig.reliable or sig.fn.module is None:
            continue
        owner = stated.target.owner.qualname
        params = []
        for p in sig.params:
            name = dotted(p.default) if p.default is not None else None
            res = ctx.resolver.resolve_in(sig.fn.module, name) if name else None
            if res is None or not res.found or res.target is None:
                continue
            last = alias_chain(ctx, res.target)[-1]
            if last.owner is not None and last.owner.qualname == owner:
                params.append(p.name)
        if len(params) != 1:
            continue
        sv = StatedValue(text, text, False, m.start(), symbol=True)
        findings += check_symbol_default(ctx, claim, sig, params[0], sv, subject.short)
    return findings
