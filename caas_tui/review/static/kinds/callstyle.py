"""How a callable is called, against its definition: "`Client.fetch` is a coroutine and must
be awaited" of a plain ``def``, "`Client.get` is synchronous" of an ``async def``, "is a
class method" of a ``@staticmethod`` (the code-block side is ``codefacts.coroutines``)."""

from __future__ import annotations

import re

from caas_tui.models import Claim
from caas_tui.review.static.codefacts.coroutines import (
    decorator_names,
    function_node,
    is_coroutine_function,
)
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.naming.names import callable_mentions
from caas_tui.review.static.wording.assertions import CALL_STYLE

_ASYNC_WORDS = re.compile(r"coroutine|async|awaited|awaitable|await", re.IGNORECASE)
_SYNC_WORDS = re.compile(r"^\w+\s+(?:an?\s+)?synchronous|not\s+(?:a\s+)?coroutine|not\s+async|plain\s+function", re.IGNORECASE)
_DECORATED = {"static": "staticmethod", "class": "classmethod", "property": "property"}


def check_call_style(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind not in ("prose", "field"):
        return []
    m = CALL_STYLE.search(claim.text)
    if m is None:
        return []
    targets = {id(d.node): d for pos, d in callable_mentions(ctx, claim) if pos < m.start() and d.kind == "function"}
    if len(targets) != 1:
        return []
    d = next(iter(targets.values()))
    node = function_node(d)
    if node is None:
        return []
    said = m.group(0)
    label = d.label
    ev = ctx.evidence(d)
    style = (m.group("style") or "awaited").lower()
    # ``@cached_property`` is a property; a decorator this module does not know may make it anything
    decorators = {"property" if n == "cached_property" else n for n in decorator_names(node)}
    for word, decorator in _DECORATED.items():
        if style.startswith(word):
            check = f"`{label}` is a {decorator}"
            if decorator in decorators:
                return [ok(check, ev, aspect="type")]
            if decorators - {"abstractmethod", "override", *_DECORATED.values()}:
                return []
            what = next((f"a {v}" for v in _DECORATED.values() if v in decorators), "a plain method")
            return [bad("contradicted", check, f"`{label}` is {what}, not a {decorator}", ev, aspect="type")]
    coroutine = is_coroutine_function(d)
    if coroutine is None:
        return []
    if _SYNC_WORDS.search(said):
        wants = False
    elif _ASYNC_WORDS.search(said):
        wants = True
    else:
        return []
    check = f"`{label}` is {'an `async def`' if wants else 'a plain function'}"
    if coroutine == wants:
        return [ok(check, ev, aspect="type")]
    actual = "an `async def`: its call gives a coroutine to await" if coroutine else \
        "a plain `def` whose result is no awaitable: awaiting it raises `TypeError`"
    return [bad("contradicted", check, f"`{label}` is {actual}", ev, aspect="type")]


