""""Uses / calls / is a wrapper around X" for a standard-library callable X of a family
(``families``), against what the subject and the project code it calls actually call.

- a call of X, or of a member of X's group, anywhere on the way: the claim holds;
- only other members of X's family, and no call that might be X on an object the reader
  cannot type (``obj.search(...)``) nor a call of a callable handed in: contradicted, citing
  the function that makes the other call;
- none of the family at all: left alone (the code does it some other way, or out of sight).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.behaviour.families import RECEIVERS, SHORT_NAMES, WORDS, family_of, members
from caas_tui.review.static.behaviour.reading import denied, functions_of, label, prose_of, subject
from caas_tui.review.static.codefacts.delegation import callee
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import own_nodes
from caas_tui.review.static.model.resolve import Def

_MAX_DEPTH = 3
_NAMED = re.compile(r"`~?(?P<name>[A-Za-z_][\w.]*)(?:\(\))?`|\b(?P<bare>(?:[a-z_]\w*\.)+[a-z_]\w*)\(\)")
# The relation that makes a named callable the subject's own means.
_USES = re.compile(
    r"\b(?:uses?|using|used|calls?|calling|called|invokes?|via|with|through|wraps?|wrapper\s+(?:around|over|for)|"
    r"relies\s+on|delegates?\s+to|comes?\s+from|based\s+on|built\s+on|backed\s+by|implemented\s+(?:with|by)|"
    r"goes\s+through|from|by|per|returns?\s+(?:an?|the))\b",
    re.IGNORECASE,
)
# Words for a clock are its means only right after a use ("measured on the wall clock", "reads a
# monotonic clock"); "setting the system clock does not change it" names the clock as something else.
_MEANS_BEFORE = re.compile(r"\b(?:on|from|with|reads?|reading|uses?|using|via|by|against|per|of)\s+(?:the\s+|an?\s+|its\s+)?$",
                           re.IGNORECASE)
_WORDS = [(re.compile(rf"\b(?:{pattern})\b", re.IGNORECASE), family, groups) for pattern, family, groups in WORDS]


@dataclass(frozen=True)
class Stated:
    """A family member (or a group in words) the claim says the subject uses."""

    offset: int
    said: str  # as the verdict quotes it
    family: str
    groups: tuple[int, ...]


@dataclass
class Reached:
    """Canonical family members the code calls or hands on, and where."""

    calls: dict[str, Def] = field(default_factory=dict)
    unknown: set[str] = field(default_factory=set)  # member short names called on objects of unknown type
    opaque: bool = False  # a callable handed in is called: it may be anything


def canonical(ctx: ReviewContext, fn: Def, name: str) -> str | None:
    """The standard-library name ``name`` is inside ``fn``'s module (imports and aliases followed)."""
    if fn.module is None:
        return None
    res = ctx.resolver.resolve_in(fn.module, name)
    return res.target.qualname if res.found and res.target is not None and res.target.kind == "external" else None


def _receiver_kinds(ctx: ReviewContext, fn: Def) -> dict[str, str]:
    """Local, parameter and module names whose value a ``RECEIVERS`` constructor makes."""
    out: dict[str, str] = {}
    nodes: list[ast.AST] = list(own_nodes(fn.node)) if fn.node is not None else []
    if fn.module is not None and fn.module.tree is not None:
        nodes += fn.module.tree.body
    for n in nodes:
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) and len(n.targets) == 1 \
                and isinstance(n.targets[0], ast.Name):
            kind = _constructed(ctx, fn, n.value)
            if kind is not None:
                out.setdefault(n.targets[0].id, kind)
    if isinstance(fn.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        for a in [*fn.node.args.posonlyargs, *fn.node.args.args, *fn.node.args.kwonlyargs]:
            if a.annotation is not None and dotted(a.annotation) in ("Path", "pathlib.Path"):
                out[a.arg] = "pathlib.Path"
    return out


def _constructed(ctx: ReviewContext, fn: Def, call: ast.Call) -> str | None:
    name = dotted(call.func)
    return RECEIVERS.get(canonical(ctx, fn, name) or "") if name is not None else None


def _params(fn: Def) -> set[str]:
    if not isinstance(fn.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return set()
    return {a.arg for a in ast.walk(fn.node.args) if isinstance(a, ast.arg)} - {"self", "cls"}


def _method_name(ctx: ReviewContext, fn: Def, func: ast.expr, receivers: dict[str, str]) -> str | None:
    """``tmp.rename`` -> ``pathlib.Path.rename`` when ``tmp`` is a known receiver; ``Path(p).rename`` too."""
    if not isinstance(func, ast.Attribute):
        return None
    base = func.value
    kind = None
    if isinstance(base, ast.Name):
        kind = receivers.get(base.id)
    elif isinstance(base, ast.Call):
        kind = _constructed(ctx, fn, base)
    return f"{kind}.{func.attr}" if kind is not None else None


def reached(ctx: ReviewContext, start: list[Def]) -> Reached:
    """Family members called or handed on by ``start`` and the project code it calls."""
    out = Reached()
    seen: set[int] = set()
    todo = [(f, 0) for f in start]
    while todo:
        f, depth = todo.pop()
        if f.node is None or f.module is None or id(f.node) in seen:
            continue
        seen.add(id(f.node))
        if depth > _MAX_DEPTH:
            out.opaque = True
            continue
        receivers = _receiver_kinds(ctx, f)
        params = _params(f)
        funcs = {id(n.func) for n in own_nodes(f.node) if isinstance(n, ast.Call)}
        for n in own_nodes(f.node):
            if isinstance(n, ast.Call):
                name = dotted(n.func)
                full = _method_name(ctx, f, n.func, receivers) or (canonical(ctx, f, name) if name else None)
                if full is not None and family_of(full) is not None:
                    out.calls.setdefault(full, f)
                    continue
                if name is not None and name.split(".")[0] in params:
                    out.opaque = True
                    continue
                target = callee(ctx, f, n)
                if target is not None:
                    todo.extend((g, depth + 1) for g in (functions_of(ctx, target) if target.kind == "function"
                                                         else _init_of(ctx, target)))
                elif isinstance(n.func, ast.Attribute) and n.func.attr in SHORT_NAMES and full is None:
                    out.unknown.add(n.func.attr)
            elif isinstance(n, (ast.Attribute, ast.Name)) and id(n) not in funcs:
                # a member handed on, not called here (``key=time.monotonic``, ``clock=time.time``)
                short = n.attr if isinstance(n, ast.Attribute) else n.id
                name = dotted(n)
                if short in SHORT_NAMES and name is not None and isinstance(getattr(n, "ctx", None), ast.Load):
                    full = canonical(ctx, f, name)
                    if full is not None and family_of(full) is not None:
                        out.calls.setdefault(full, f)
    return out


def _init_of(ctx: ReviewContext, cls: Def) -> list[Def]:
    res = ctx.resolver.member(cls, "__init__")
    return [res.target] if res.found and res.target is not None and res.target.kind == "function" else []


def _stated(ctx: ReviewContext, claim: Claim, prose: str) -> list[Stated]:
    """Each family member the claim names as a means, and each group it names in words."""
    out: list[Stated] = []
    for m in _NAMED.finditer(prose):
        full = _claim_name(ctx, claim, m.group("name") or m.group("bare"))
        if full is None:
            continue
        before = prose[max(0, m.start() - 60):m.start()]
        # "matches as a whole (`re.fullmatch`)": a means named in parentheses after the clause
        aside = before.rstrip().endswith("(") and prose[m.end():m.end() + 1] == ")"
        if not (aside or _USES.search(before)) or denied(prose, m.start()):
            continue
        family, group = family_of(full) or ("", 0)
        out.append(Stated(m.start(), f"`{full}`", family, (group,)))
    if out:
        return out
    for pattern, family, groups in _WORDS:
        for m in pattern.finditer(prose):
            if _MEANS_BEFORE.search(prose, 0, m.start()) and not denied(prose, m.start()):
                out.append(Stated(m.start(), f"the {m.group(0).lower()} clock".replace("clock clock", "clock"),
                                  family, groups))
    if len({(st.family, st.groups) for st in out}) > 1:
        return []  # two clocks named in words: which one is the means is not for a pattern to say
    return out


def _claim_name(ctx: ReviewContext, claim: Claim, name: str) -> str | None:
    """The family member a doc names: as written (``re.fullmatch``), as a docstring's module
    imports it, or with the module a method's class lives in (``Path.replace``)."""
    for candidate in (name, f"pathlib.{name}", f"datetime.{name}"):
        if family_of(candidate) is not None:
            return candidate
    res = ctx.resolve(name, claim)
    full = res.target.qualname if res.found and res.target is not None and res.target.kind == "external" else None
    return full if full is not None and family_of(full) is not None else None


def check_used_calls(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind not in ("prose", "field"):
        return []
    prose = prose_of(claim)
    findings: list[Finding] = []
    for stated in _stated(ctx, claim, prose):
        subj = subject(ctx, claim, stated.offset)
        if subj is None:
            continue
        fns = functions_of(ctx, subj) or _init_of(ctx, subj)
        if not fns:
            continue
        got = reached(ctx, fns)
        same = {n for g in stated.groups for n in members(stated.family)[g]}
        mine = {n: where for n, where in got.calls.items() if (family_of(n) or ("",))[0] == stated.family}
        check = f"`{label(subj)}` uses {stated.said}"
        if any(n in same for n in mine):
            where = next(w for n, w in mine.items() if n in same)
            findings.append(ok(check, ctx.evidence(subj), ctx.evidence(where) if where is not subj else None,
                               aspect=("calls", "behaviour")))
            continue
        short_same = {n.rsplit(".", 1)[-1] for n in same}
        if not mine or got.opaque or got.unknown & short_same:
            continue
        other, where = next(iter(mine.items()))
        through = "" if where.node is subj.node or where in fns else f" (through `{label(where)}`)"
        findings.append(bad(
            "contradicted", check,
            f"`{label(subj)}` calls `{other}`{through}, not {stated.said} (another {stated.family}); nothing it "
            f"calls reaches {stated.said}", ctx.evidence(subj), ctx.evidence(where) if where is not subj else None,
            aspect=("calls", "behaviour"),
        ))
    return findings
