"""Immutability and copy claims against the code that settles them.

- "frozen" / "immutable" / "read-only" / "cannot be changed" about a dataclass: a plain
  ``@dataclass`` (not frozen) contradicts it; a frozen one with a mutable field (a ``list``,
  ``dict``, ``set`` annotation or ``default_factory``) makes it ``incomplete``: the instance
  is frozen only shallowly, the field's contents can still change. A claim that says
  "shallow" already admits that.
- "returns a copy" against a method whose every return is ``self.<attr>`` itself, where the
  class keeps a list, dict or set there (contradicted), or a copying form (holds).
- "in place" against a function that never mutates its parameter and returns a new object;
  "a new ...; ``x`` is not modified" against one that mutates a parameter (``x.sort()``).
"""

from __future__ import annotations

import ast
import re

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import parse_field
from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.behaviour.reading import denied, label, owning_class, prose_of, subject
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import own_nodes
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.nouns import noun_subjects

_FROZEN = re.compile(r"\b(?:frozen|immutable|read-only|readonly|unchangeable)\b|\b(?:cannot|can't|can\s+not|never)\s+"
                     r"(?:be\s+)?(?:changed?|modified|mutated|altered|reassigned|changes)\b", re.IGNORECASE)
_STRONG = re.compile(r"frozen|immutable|read-?only", re.IGNORECASE)
# "`Grant.user` is read-only": a member's claim (a property), not the instance's.
_MEMBER = re.compile(r"`~?[A-Za-z_][\w]*\.[a-z_]\w*`")
_SHALLOW = re.compile(r"\bshallow\w*|\btop[- ]level\b|\bthe\s+(?:contents?|items?|elements?)\s+(?:of|can|may)\b",
                      re.IGNORECASE)
_COPY = re.compile(r"\b(?:returns?|gives?\s+back|hands?\s+back)\s+(?:an?\s+)?(?:new\s+|fresh\s+|defensive\s+|"
                   r"independent\s+)?cop(?:y|ies)\b|^\s*(?:an?\s+)?(?:new\s+|fresh\s+|defensive\s+)?cop(?:y|ies)\s+of\b",
                   re.IGNORECASE)
_IN_PLACE = re.compile(r"\bin[- ]place\b", re.IGNORECASE)
_NEW = re.compile(r"\b(?:is|are)\s+(?:left\s+)?(?:not|never)\s+(?:modified|changed|mutated|altered|touched)\b|"
                  r"\b(?:unchanged|untouched|unmodified)\b|\bwithout\s+(?:modifying|changing|mutating|touching)\b|"
                  r"\bdoes\s+not\s+(?:modify|change|mutate|alter|touch)\b", re.IGNORECASE)
_MUTABLE = frozenset({"list", "dict", "set", "List", "Dict", "Set", "bytearray", "deque", "defaultdict", "OrderedDict",
                      "Counter", "MutableMapping", "MutableSequence", "MutableSet", "typing.List", "typing.Dict",
                      "typing.Set", "collections.deque", "collections.defaultdict", "collections.OrderedDict",
                      "collections.Counter"})
_IMMUTABLE = frozenset({"tuple", "Tuple", "frozenset", "FrozenSet", "str", "bytes", "int", "float", "bool", "complex",
                        "Mapping", "Sequence", "typing.Tuple", "typing.FrozenSet", "None", "Path", "datetime",
                        "date", "Decimal", "Fraction", "Enum"})
_MUTATORS = frozenset({"append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse", "update",
                       "setdefault", "popitem", "add", "discard", "difference_update", "intersection_update",
                       "symmetric_difference_update"})
_COPIERS = frozenset({"list", "dict", "set", "tuple", "frozenset", "sorted", "copy.copy", "copy.deepcopy", "deepcopy",
                      "bytes", "bytearray"})


# -- frozen dataclasses ---------------------------------------------------------------------------
def _dataclass_frozen(cls: ast.ClassDef) -> bool | None:
    """True/False for a ``@dataclass`` frozen or not; None when no dataclass decorator is read."""
    for deco in cls.decorator_list:
        call = deco if isinstance(deco, ast.Call) else None
        name = dotted(call.func if call is not None else deco)
        if name not in ("dataclass", "dataclasses.dataclass"):
            continue
        frozen = next((k.value for k in call.keywords if k.arg == "frozen"), None) if call is not None else None
        if frozen is None:
            return False
        return isinstance(frozen, ast.Constant) and frozen.value is True if isinstance(frozen, ast.Constant) else None
    return None


def _head(ann: ast.expr) -> str | None:
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
        try:
            ann = ast.parse(ann.value, mode="eval").body
        except SyntaxError:
            return None
    if isinstance(ann, ast.Subscript):
        ann = ann.value
    return dotted(ann)


def _field_kind(stmt: ast.AnnAssign) -> str | None:
    """'mutable', 'immutable' or None (unknown) for one dataclass field."""
    value = stmt.value
    if isinstance(value, ast.Call) and dotted(value.func) in ("field", "dataclasses.field"):
        factory = next((k.value for k in value.keywords if k.arg == "default_factory"), None)
        if factory is not None and dotted(factory) in _MUTABLE:
            return "mutable"
    head = _head(stmt.annotation)
    if head in _MUTABLE:
        return "mutable"
    if head in _IMMUTABLE or head == "ClassVar" or head == "typing.ClassVar":
        return "immutable"
    return None


def _one_noun_class(ctx: ReviewContext, claim: Claim) -> Def | None:
    """"Contexts are frozen, so nothing about a context can change": the one project class the
    sentence names in plain words, when it names exactly one."""
    found = {id(d.node): d for _, d in noun_subjects(ctx, claim)}
    return next(iter(found.values())) if len(found) == 1 else None


def _frozen_findings(ctx: ReviewContext, claim: Claim, prose: str) -> list[Finding]:
    m = _FROZEN.search(prose)
    if m is None or _SHALLOW.search(prose) or _MEMBER.search(prose) or denied(prose, m.start()):
        return []
    subj = subject(ctx, claim, m.start()) or _one_noun_class(ctx, claim)
    if subj is None or subj.kind != "class" or not isinstance(subj.node, ast.ClassDef):
        return []
    frozen = _dataclass_frozen(subj.node)
    if frozen is None:
        return []
    fields = [s for s in subj.node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
    ev = ctx.evidence(subj)
    check = f"`{label(subj)}` instances cannot change"
    if not frozen and _STRONG.fullmatch(m.group(0)):
        return [bad("contradicted", check, f"`{label(subj)}` is a plain `@dataclass` (not `frozen=True`): its fields "
                    "can be reassigned", ev, aspect=("behaviour", "effect"))]
    if not frozen:
        return []
    kinds = {s.target.id: _field_kind(s) for s in fields if isinstance(s.target, ast.Name)}
    mutable = [n for n, k in kinds.items() if k == "mutable"]
    if mutable:
        return [bad("incomplete", check, f"`{label(subj)}` is frozen only shallowly: its field `{mutable[0]}` holds a "
                    "mutable container whose contents can still change", ev, aspect=("behaviour", "effect"))]
    if all(k == "immutable" for k in kinds.values()):
        return [ok(check, ev, aspect=("behaviour", "effect"))]
    return []


# -- copies -----------------------------------------------------------------------------------------
def _container_attr(cls: Def, attr: str) -> bool:
    """Whether ``self.<attr>`` is made a list, dict or set somewhere in the class."""
    if not isinstance(cls.node, ast.ClassDef):
        return False
    for n in ast.walk(cls.node):
        if isinstance(n, (ast.Assign, ast.AnnAssign)):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            if any(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
                   and t.attr == attr for t in targets) and n.value is not None:
                v = n.value
                if isinstance(v, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)) or (
                        isinstance(v, ast.Call) and dotted(v.func) in _MUTABLE):
                    return True
    return False


def _is_copy(expr: ast.expr) -> bool:
    if isinstance(expr, (ast.ListComp, ast.DictComp, ast.SetComp, ast.List, ast.Dict, ast.Set, ast.Tuple)):
        return True
    if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Slice) and expr.slice.lower is None \
            and expr.slice.upper is None:
        return True
    if isinstance(expr, ast.Call):
        name = dotted(expr.func) or ""
        return name in _COPIERS or (isinstance(expr.func, ast.Attribute) and expr.func.attr == "copy")
    return False


def _copy_findings(ctx: ReviewContext, claim: Claim, prose: str) -> list[Finding]:
    m = _COPY.search(prose)
    if m is None or denied(prose, m.start()):
        return []
    subj = subject(ctx, claim, m.start())
    if subj is None or subj.kind != "function" or subj.node is None:
        return []
    cls = owning_class(ctx, subj)
    returns = [n.value for n in own_nodes(subj.node) if isinstance(n, ast.Return) and n.value is not None]
    if not returns:
        return []
    check = f"`{label(subj)}` returns a copy"
    ev = ctx.evidence(subj)
    if all(_is_copy(r) for r in returns):
        return [ok(check, ev, aspect=("returns", "behaviour", "effect"))]
    bare = [r for r in returns if isinstance(r, ast.Attribute) and isinstance(r.value, ast.Name) and r.value.id == "self"]
    if cls is not None and len(bare) == len(returns) and all(_container_attr(cls, r.attr) for r in bare):
        assert isinstance(bare[0], ast.Attribute)
        return [bad("contradicted", check, f"`{label(subj)}` returns `self.{bare[0].attr}` itself, not a copy: "
                    "changing the result changes the object", ev, aspect=("returns", "behaviour", "effect"))]
    return []


# -- in place vs a new object -------------------------------------------------------------------------
def _params(fn: ast.AST) -> list[str]:
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return []
    return [a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs] if a.arg not in ("self", "cls")]


def _mutation(fn: ast.AST, params: list[str]) -> str | None:
    """The code that mutates a parameter in place (``items.sort()``, ``d[k] = v``), or None."""
    for n in own_nodes(fn):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _MUTATORS \
                and isinstance(n.func.value, ast.Name) and n.func.value.id in params:
            return ast.unparse(n)
        if isinstance(n, (ast.Subscript, ast.Attribute)) and isinstance(n.ctx, (ast.Store, ast.Del)) \
                and isinstance(n.value, ast.Name) and n.value.id in params:
            return ast.unparse(n)
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id in params \
                and not isinstance(n.op, (ast.Add, ast.Sub, ast.Mult)):
            return ast.unparse(n)
    return None


def _named_params(claim: Claim, params: list[str]) -> list[str]:
    fact = parse_field(claim.text) if claim.kind == "field" else None
    text = fact.desc if fact is not None else claim.text
    return [p for p in params if re.search(rf"`{re.escape(p)}`|\*{re.escape(p)}\*", text)]


def _place_findings(ctx: ReviewContext, claim: Claim, prose: str) -> list[Finding]:
    out: list[Finding] = []
    for pattern, in_place in ((_IN_PLACE, True), (_NEW, False)):
        m = pattern.search(prose)
        if m is None or (in_place and denied(prose, m.start())):
            continue
        subj = subject(ctx, claim, m.start())
        if subj is None or subj.kind != "function" or subj.node is None:
            continue
        params = _params(subj.node)
        named = _named_params(claim, params)
        watched = named or (params if len(params) == 1 else [])
        if not watched:
            continue
        mutated = _mutation(subj.node, watched)
        ev = ctx.evidence(subj)
        returns = [n.value for n in own_nodes(subj.node) if isinstance(n, ast.Return) and n.value is not None]
        if in_place:
            check = f"`{label(subj)}` changes `{watched[0]}` in place"
            if mutated is not None:
                out.append(ok(check, ev, aspect=("behaviour", "effect", "action")))
            elif returns and all(_is_copy(r) for r in returns):
                out.append(bad("contradicted", check, f"`{label(subj)}` never changes `{watched[0]}`; it returns a "
                               f"new object (`{ast.unparse(returns[0])}`)", ev, aspect=("behaviour", "effect", "action")))
        else:
            check = f"`{label(subj)}` leaves `{watched[0]}` unchanged"
            if mutated is not None:
                out.append(bad("contradicted", check, f"`{label(subj)}` changes its argument in place "
                               f"(`{mutated}`)", ev, aspect=("behaviour", "effect")))
            elif returns and all(_is_copy(r) for r in returns):
                out.append(ok(check, ev, aspect=("behaviour", "effect")))
    return out


def check_mutability(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind not in ("prose", "field"):
        return []
    prose = prose_of(claim)
    return _frozen_findings(ctx, claim, prose) + _copy_findings(ctx, claim, prose) + _place_findings(ctx, claim, prose)
