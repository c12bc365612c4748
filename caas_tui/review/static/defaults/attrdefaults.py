"""A default stated for an attribute (```Client.max_stations` defaults to 8``, ```Client.
retry_ms` defaults to half a second``) against the value the class starts it with: what
``__init__`` assigns it (a constant; one copied from a constructor argument is the
constructor-default checks'), else the class body's assignment.

Only a plain class is read: a decorated one (a dataclass, attrs) builds its constructor from
the fields, and the constructor-parameter checks judge those. An attribute ``__init__``
assigns more than once, or under a condition, has no one starting value, so it is left alone;
so is a claim naming several attributes or stating several values."""

from __future__ import annotations

import ast
import re

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import find_mentions
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.defaults.numbers import plain_number, quantity_matches, restate_value
from caas_tui.review.static.defaults.symdefaults import arithmetic, resolved_default
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import Value, evaluate, is_property, same_value, signature
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import resolve_mention
from caas_tui.review.static.wording.facts import stated_defaults
from caas_tui.review.static.wording.units import quantities

_CUE = re.compile(r"\bdefaults?\b|\bby\s+default\b", re.IGNORECASE)
_BY_DEFAULT_NUMBER = re.compile(r"\b(?:is|are)\s+(-?\d+(?:\.\d+)?)\s+by\s+default\b", re.IGNORECASE)
_MIXED = re.compile(r"\b(?:unless|except|but|otherwise|either|or|e\.g|for\s+example|such\s+as|instead|when|if)\b",
                    re.IGNORECASE)


def _init_value(ctx: ReviewContext, cls: Def, attr: str) -> tuple[Value | None, bool]:
    """(value, decided): what ``__init__`` sets ``self.attr`` to; decided False when it
    assigns it under a condition or more than once (nobody can say the start value)."""
    node = cls.node
    assert isinstance(node, ast.ClassDef)
    init = next((s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    if init is None or cls.module is None:
        return None, True
    def assigns(stmt: ast.AST) -> bool:
        return isinstance(stmt, (ast.Assign, ast.AnnAssign)) and any(
            isinstance(t, ast.Attribute) and t.attr == attr and isinstance(t.value, ast.Name) and t.value.id == "self"
            for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]))
    top = [s for s in init.body if assigns(s)]
    every = [s for s in ast.walk(init) if assigns(s)]
    if not every:
        return None, True
    if len(top) != 1 or len(every) != 1:
        return None, False
    value = getattr(top[0], "value", None)
    if value is None:
        return None, False
    fn = Def("function", f"{cls.qualname}.__init__", cls.module, init, cls)
    sig = signature(fn)
    if isinstance(value, ast.Name) and sig is not None and (p := sig.named(value.id)) is not None:
        # a constructor argument kept as is: the attribute starts as the argument's default
        if p.default is None or p.kind in ("var", "varkw"):
            return None, False
        return resolved_default(ctx, sig, p.name, p.default, none_stated=False), True
    mod = Def("module", cls.module.name, cls.module)
    return evaluate(value, mod, ctx.resolver) or arithmetic(ctx, value, mod), True


def property_backing(prop: Def) -> str | None:
    """The ``self`` attribute a property only hands back (``return self._ttl``), else None."""
    node = prop.node
    if prop.kind != "function" or not isinstance(node, ast.FunctionDef) or not is_property(prop):
        return None
    body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    ret = body[0].value if len(body) == 1 and isinstance(body[0], ast.Return) else None
    if isinstance(ret, ast.Attribute) and isinstance(ret.value, ast.Name) and ret.value.id == "self":
        return ret.attr
    return None


def property_parameter(prop: Def) -> str | None:
    """The constructor parameter a property hands back unchanged (``return self._ttl`` where
    ``__init__`` does ``self._ttl = ttl`` once): "`Book.ttl` defaults to ..." is about it."""
    cls, backing = prop.owner, property_backing(prop)
    if cls is None or backing is None or not isinstance(cls.node, ast.ClassDef):
        return None
    init = next((s for s in cls.node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    if init is None:
        return None
    params = {a.arg for a in (*init.args.posonlyargs, *init.args.args, *init.args.kwonlyargs)}
    sets = [s for s in ast.walk(init) if isinstance(s, (ast.Assign, ast.AnnAssign)) and any(
        isinstance(t, ast.Attribute) and t.attr == backing and isinstance(t.value, ast.Name) and t.value.id == "self"
        for t in (s.targets if isinstance(s, ast.Assign) else [s.target]))]
    value = sets[0].value if len(sets) == 1 and sets[0] in init.body else None
    return value.id if isinstance(value, ast.Name) and value.id in params else None


def _class_value(ctx: ReviewContext, target: Def) -> Value | None:
    stmt = target.node
    value = getattr(stmt, "value", None)
    if not isinstance(stmt, (ast.Assign, ast.AnnAssign)) or value is None or target.module is None:
        return None
    if isinstance(stmt, ast.Assign) and not all(isinstance(t, ast.Name) for t in stmt.targets):
        return None  # ``self.x = ...``: read through ``__init__``
    mod = Def("module", target.module.name, target.module)
    return evaluate(value, mod, ctx.resolver) or arithmetic(ctx, value, mod)


def _attribute(ctx: ReviewContext, claim: Claim) -> Def | None:
    found: dict[int, Def] = {}
    for m in find_mentions(claim.text):
        if "." not in m.name or m.origin not in ("code", "role", "dotted"):
            continue
        res = resolve_mention(ctx, claim, m)
        t = res.target
        if res.found and not res.ambiguous and t is not None and t.is_project \
                and (t.kind == "attribute" or property_backing(t) is not None) \
                and t.owner is not None and t.owner.kind == "class" and isinstance(t.owner.node, ast.ClassDef):
            found[id(t.node)] = t
    return next(iter(found.values())) if len(found) == 1 else None


def check_attribute_defaults(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind != "prose" or not _CUE.search(claim.text) or _MIXED.search(claim.text):
        return []
    target = _attribute(ctx, claim)
    if target is None or target.owner is None:
        return []
    cls = target.owner
    assert isinstance(cls.node, ast.ClassDef)
    if cls.node.decorator_list:
        return []  # fields of a dataclass / attrs class: the constructor's parameters
    attr = property_backing(target) or target.short  # ``return self._ttl``: the attribute it reads
    actual, decided = _init_value(ctx, cls, attr)
    if not decided:
        return []
    if actual is None:
        actual = _class_value(ctx, target)
    if actual is None:
        return []
    stated = [sv for sv in stated_defaults(claim.text) if sv.literal]
    qs = quantities(claim.text)
    bare = _BY_DEFAULT_NUMBER.findall(claim.text)
    if len(stated) + len(qs) + len(bare) != 1:
        return []
    label = f"{cls.short}.{target.short}"
    check = f"`{label}` starts as"
    ev = [ctx.evidence(target), *(ctx.evidence(d) for d in actual.via)]
    number = plain_number(actual.value)
    if qs:
        verdict = quantity_matches(qs[0], attr, actual.value)
        said = qs[0].text
        aspect: tuple[str, ...] = ("default", "value")
    else:
        if stated:
            verdict, said = same_value(stated[0].value, actual.value), stated[0].text
        elif number is not None:
            verdict, said = float(bare[0]) == number, bare[0]
        else:
            return []
        aspect = ("default",)
    if verdict is None:
        return []
    if verdict:
        return [ok(f"{check} {said}", *ev, aspect=aspect)]
    where = f" (via `{actual.via[-1].qualname}`)" if actual.via else ""
    shown = restate_value(qs[0], attr, actual.value) if qs else None
    also = f", which is {shown}" if shown and shown != actual.source else ""
    return [bad("contradicted", f"{check} {said}", f"`{label}` starts as {actual.source}{where}{also}, not {said}",
                *ev, aspect=aspect)]
