""""`Store.require(key)` returns `None` for a key that was never stored" where ``require``
hands the lookup to a helper (``self.backend.fetch(key)``, one or more hops, in another
module) whose result is ``self._data[key]``: a missing key raises ``KeyError``, so ``None``
never comes back.

Decided only when the claim's condition is a missing entry ("missing", "unknown", "not
found", "never stored", "no such"), the subject's result is forwarded through plain
``return helper(...)`` calls (``platformrules.bodies``), and no function on that path can
give ``None``: none returns ``None`` or falls off its end, none calls ``.get``, ``.pop`` or
``getattr`` or catches an exception, and the last one returns a subscript. Anything else
leaves the claim to the other checks.
"""

from __future__ import annotations

import ast
import re

from caas_tui.models import Claim
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad
from caas_tui.review.static.model.flow import explicit_none_return, falls_through
from caas_tui.review.static.model.pysig import own_nodes
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import subject_before
from caas_tui.review.static.outcomes.missingwords import MISSING_WORD
from caas_tui.review.static.specs.platformrules import Body, bodies, holds

# "returns `None`", "gives back ``None``", "returns :data:`None`".
_NONE_RESULT = re.compile(r"\b(?:returns?|returning|gives?\s+back|hands?\s+back|yields?)\s+"
                          r"(?::(?:py:)?(?:data|obj|const):`None`|`{1,2}None`{1,2}|None\b)", re.IGNORECASE)
_NOT_BEFORE = re.compile(r"(?:never|not|n't)\s+(?:\w+\s+)?(?:returns?|gives?\s+back)\s+$", re.IGNORECASE)
_SOFT_CALLS = frozenset({"get", "pop", "getattr", "setdefault", "next"})


def _can_give_none(body: Body) -> bool:
    node = body.fn.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return True
    if explicit_none_return(body.fn) or falls_through(node.body) or not body.returns:
        return True
    for n in own_nodes(node):
        if isinstance(n, (ast.Try, ast.Yield, ast.YieldFrom)):
            return True
    return any(name.rsplit(".", 1)[-1] in _SOFT_CALLS for name, _ in body.calls)


def _subscript(body: Body) -> ast.Subscript | None:
    subs = [e for e in body.returns if isinstance(e, ast.Subscript)]
    return subs[0] if subs and len(subs) == len(body.returns) else None


def _lenient(fn: Def) -> bool:
    """The module may build a mapping that answers a missing key itself."""
    lines = fn.module.lines if fn.module is not None else []
    return any(w in line for line in lines for w in ("defaultdict", "Counter", "__missing__"))


def _label(fn: Def) -> str:
    parts = fn.qualname.split(".")
    return ".".join(parts[-2:]) if fn.owner is not None else parts[-1]


def check_missing_none(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind != "prose" or not MISSING_WORD.search(claim.text):
        return []
    for st in _NONE_RESULT.finditer(claim.text):
        if _NOT_BEFORE.search(claim.text[max(0, st.start() - 30):st.start()] + st.group(0).split()[0] + " "):
            continue
        if not MISSING_WORD.search(claim.text, st.end()):
            continue  # the missing case is not what returns None
        subject = subject_before(ctx, claim, st.start())
        if subject is None or subject.kind != "function" or not subject.is_project:
            continue
        chain = bodies(ctx, subject)
        if not chain or any(_can_give_none(b) for b in chain):
            continue
        last = chain[-1]
        sub = _subscript(last)
        if sub is None or len(chain) < 2 or holds(last.fn, sub.value) != "dict" or _lenient(last.fn):
            continue  # the subject's own body is judged by the fallback checks
        through = " -> ".join(f"`{_label(b.fn)}`" for b in chain[1:])
        evidence = [ctx.evidence(b.fn) for b in chain]
        return [bad("contradicted", f"`{_label(subject)}` returns None for a missing entry",
                    f"`{_label(subject)}` hands the lookup to {through}, which returns `{ast.unparse(sub)}`: a missing "
                    f"entry raises (`KeyError` for a mapping, `IndexError` for a sequence) and no path returns None",
                    *evidence, aspect="returns")]
    return []
