"""Where a function's ``**kwargs`` go, so a keyword it does not name can still be judged.

``def __init__(self, name, **kwargs): super().__init__(**kwargs)`` takes a keyword only if
the base's ``__init__`` does. The body is read for every use of the ``**kwargs`` name: passed
on whole (``**kwargs``) to a call the resolver can follow (``super().m``, ``self.m``, a
project function or class), or read by key (``kwargs.get("x")``, ``kwargs.pop("x")``,
``kwargs["x"]``, ``"x" in kwargs``). Any other use (stored, iterated, passed as a dict, read
with a computed key), a callee that cannot be followed, or kwargs that go nowhere leave the
keyword undecided: ``unchecked``, as before.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import Signature
from caas_tui.review.static.model.resolve import Def

_KEY_READS = frozenset({"get", "pop", "setdefault"})
_DEPTH = 4


@dataclass(frozen=True, slots=True)
class Forwarding:
    verdict: str  # "takes" | "refuses"
    via: tuple[str, ...]  # the callables the keyword was looked up in, in order


def forwarded(ctx: ReviewContext, sig: Signature, name: str, depth: int = 0) -> Forwarding | None:
    """Whether ``sig``'s ``**kwargs`` end up taking ``name``; None when that cannot be told."""
    node = sig.fn.node
    varkw = next((p.name for p in sig.params if p.kind == "varkw"), None)
    if varkw is None or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or depth > _DEPTH:
        return None
    uses = _uses(node, varkw)
    if uses is None:
        return None
    keys, calls = uses
    if name in keys:
        return Forwarding("takes", (sig.fn.qualname,))
    if not calls:
        return None  # swallowed: any keyword is accepted and ignored, which is no error to report
    via: list[str] = []
    for call in calls:
        target = _callee(ctx, sig.fn, call)
        if target is None:
            return None
        defn, bound = target
        tsig = ctx.call_signature(defn, on_instance=bound)
        if tsig is None or not tsig.reliable:
            return None
        passed = {k.arg for k in call.keywords if k.arg}
        param = next((p for p in tsig.params if p.name == name and p.kind not in ("posonly", "var", "varkw")), None)
        if name in passed:
            return None  # passed by the body too: a second value would clash, not be ignored
        if param is not None:
            return Forwarding("takes", (*via, tsig.fn.qualname))
        if tsig.has_varkw:
            deeper = forwarded(ctx, tsig, name, depth + 1)
            if deeper is None:
                return None
            if deeper.verdict == "takes":
                return Forwarding("takes", (*via, *deeper.via))
            via.extend(deeper.via)
        else:
            via.append(tsig.fn.qualname)
    return Forwarding("refuses", tuple(dict.fromkeys(via)))


def _uses(fn: ast.FunctionDef | ast.AsyncFunctionDef, varkw: str) -> tuple[set[str], list[ast.Call]] | None:
    """Keys read from ``varkw`` and the calls it is passed on to whole; None for any other use."""
    keys: set[str] = set()
    calls: list[ast.Call] = []
    understood: set[int] = set()
    for node in ast.walk(fn):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and node is not fn \
                and any(isinstance(n, ast.Name) and n.id == varkw for n in ast.walk(node)):
            return None  # used in a closure: not followed
        if isinstance(node, ast.Call):
            for kw in node.keywords:
                if kw.arg is None and isinstance(kw.value, ast.Name) and kw.value.id == varkw:
                    calls.append(node)
                    understood.add(id(kw.value))
            func = node.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == varkw:
                if func.attr not in _KEY_READS or not node.args or not _is_str(node.args[0]):
                    return None
                keys.add(node.args[0].value)  # type: ignore[attr-defined]
                understood.add(id(func.value))
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == varkw:
            if not _is_str(node.slice):
                return None
            keys.add(node.slice.value)  # type: ignore[attr-defined]
            understood.add(id(node.value))
        elif isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            right = node.comparators[0]
            if isinstance(right, ast.Name) and right.id == varkw:
                if not _is_str(node.left):
                    return None
                keys.add(node.left.value)  # type: ignore[attr-defined]
                understood.add(id(right))
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and node.id == varkw and id(node) not in understood:
            return None  # stored, iterated, rebound, passed as a dict ...
    return keys, calls


def _is_str(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _callee(ctx: ReviewContext, fn: Def, call: ast.Call) -> tuple[Def, bool] | None:
    """The project callable ``call`` goes to and whether it is bound (called on an instance)."""
    func = call.func
    owner = fn.owner if fn.owner is not None and fn.owner.kind == "class" else None
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call) and dotted(func.value.func) == "super":
        if owner is None:
            return None
        bases, unknown = ctx.resolver.bases(owner)
        if unknown:
            return None
        for base in bases:
            if base.kind != "class" or not base.is_project:
                return None
            res = ctx.resolver.member(base, func.attr)
            if res.found and res.target is not None and res.target.kind == "function":
                return res.target, True
            if res.status != "missing":
                return None
        return None
    name = dotted(func)
    if name is None:
        return None
    head, _, rest = name.partition(".")
    if head in ("self", "cls") and owner is not None and rest and "." not in rest:
        res = ctx.resolver.member(owner, rest)
        bound = True
    elif fn.module is not None:
        res = ctx.resolver.resolve_in(fn.module, name)
        bound = False
    else:
        return None
    target = res.target
    if not res.found or target is None or not target.is_project or target.kind not in ("class", "function"):
        return None
    return target, bound


def varkw_unchecked(ctx: ReviewContext, sig: Signature, fn_name: str, name: str) -> Finding:
    """``name`` is not a named parameter, and ``**kwargs`` may take it: undecidable here."""
    varkw = next((p.name for p in sig.params if p.kind == "varkw"), "kwargs")
    ev = ctx.evidence(sig.fn)
    return Finding("unchecked", f"`{fn_name}` takes `{name}`",
                   f"`{fn_name}` has no parameter `{name}` but takes `**{varkw}`, which may accept it",
                   (ev,) if ev is not None else (), None, ("parameters",))


def varkw_finding(ctx: ReviewContext, sig: Signature, fn_name: str, name: str) -> Finding:
    """A keyword ``name`` that ``sig`` does not name, judged through where its ``**kwargs`` go."""
    where = forwarded(ctx, sig, name)
    if where is None:
        return varkw_unchecked(ctx, sig, fn_name, name)
    claim = f"`{fn_name}` takes `{name}`"
    shown = ", ".join(f"`{q}`" for q in where.via[:3])
    ev = ctx.evidence(sig.fn)
    if where.verdict == "takes":
        return ok(claim, ev, aspect="parameters")
    varkw = next((p.name for p in sig.params if p.kind == "varkw"), "kwargs")
    return bad("contradicted", claim, f"`{fn_name}` has no parameter `{name}`, and its `**{varkw}` go to {shown}, "
               f"which take{'s' if len(where.via) == 1 else ''} no `{name}` either", ev, aspect="parameters")
