"""Defaults derived from another name, stated in words, against the fallback the code computes.

"The `name` defaults to the class name" against ``name or type(self).__name__.lower()`` (the
class name in lower case); "defaults to the lower-case class name" against
``type(self).__name__``; "defaults to the file name without its extension" against
``Path(path).name`` (which keeps it). The fallback is the one ``None`` substitute the body
makes for the parameter (``model.pysig.none_fallback``); it is read only when it is a name
(``__name__`` / ``__qualname__`` of the class or of a function handed in, a path's ``name`` or
``stem``) with case changes on top. Anything else is left alone.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import parse_field
from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.behaviour.reading import label, prose_of, subject
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import none_fallback, own_nodes
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import callable_mentions

_SAID = re.compile(
    r"\b(?:defaults?\s+to|defaulting\s+to|falls?\s+back\s+to|(?:is\s+)?named\s+after)\s+(?:the\s+|its\s+|their\s+)?"
    r"(?P<desc>(?:[\w'-]+\s+){0,3}?(?P<what>class|function|callable|file)(?:'s)?(?:\s+(?:name|stem)\b)?"
    r"(?P<tail>[^.;]{0,40}))",
    re.IGNORECASE,
)
_LOWER = re.compile(r"\blower[- ]?case(?:d)?\b|\blower-cased\b|\bin\s+lower\s+case\b|\blowercased\b", re.IGNORECASE)
_UPPER = re.compile(r"\bupper[- ]?case(?:d)?\b|\bupper-cased\b|\bin\s+upper\s+case\b|\buppercased\b|\bcapitals\b",
                    re.IGNORECASE)
_NO_EXT = re.compile(r"\bwithout\s+(?:its|the|any)\s+(?:\w+\s+)?(?:extension|suffix)|\bminus\s+(?:its|the)\s+"
                     r"(?:extension|suffix)|\bstem\b", re.IGNORECASE)
_WITH_EXT = re.compile(r"\b(?:with|including)\s+(?:its|the)\s+(?:extension|suffix)", re.IGNORECASE)
_CLASS_NAMES = frozenset({"cls", "klass", "class_", "kls", "type_"})
_FUNC_NAMES = frozenset({"fn", "func", "function", "callback", "handler", "f", "target", "view", "hook", "callable_"})
_PATHS = frozenset({"Path", "pathlib.Path", "PurePath", "pathlib.PurePath"})


@dataclass(frozen=True)
class Derived:
    what: str  # class | function | file | stem
    case: str | None  # lower | upper | None
    code: str


def derived_name(expr: ast.expr) -> Derived | None:
    """What a fallback expression is when it is a name derived as the module docstring says."""
    code = ast.unparse(expr)
    case: str | None = None
    while isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and not expr.args and not expr.keywords:
        if expr.func.attr in ("lower", "casefold") and case is None:
            case = "lower"
        elif expr.func.attr == "upper" and case is None:
            case = "upper"
        else:
            return None
        expr = expr.func.value
    if isinstance(expr, ast.Attribute) and expr.attr in ("__name__", "__qualname__"):
        base = expr.value
        if (isinstance(base, ast.Call) and dotted(base.func) == "type") or (
                isinstance(base, ast.Attribute) and base.attr == "__class__") or (
                isinstance(base, ast.Name) and base.id in _CLASS_NAMES):
            return Derived("class", case, code)
        if isinstance(base, ast.Name) and base.id in _FUNC_NAMES:
            return Derived("function", case, code)
        return None
    if case is None and isinstance(expr, ast.Attribute) and expr.attr in ("name", "stem") \
            and isinstance(expr.value, ast.Call) and dotted(expr.value.func) in _PATHS:
        return Derived("file" if expr.attr == "name" else "stem", None, code)
    return None


def fallback(ctx: ReviewContext, fn: Def, param: str, depth: int = 0) -> tuple[Def, Derived] | None:
    """The derived name ``fn`` (or the base initializer it hands ``param`` to with
    ``super().__init__(...)``) substitutes for a ``None`` ``param``, and where."""
    substitutes, expr = none_fallback(fn, param)
    if substitutes and expr is not None:
        d = derived_name(expr)
        return (fn, d) if d is not None else None
    if not substitutes or depth > 2 or fn.node is None or fn.owner is None or fn.short != "__init__":
        return None
    for n in own_nodes(fn.node):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "__init__"
                and isinstance(n.func.value, ast.Call) and dotted(n.func.value.func) == "super"):
            continue
        bases, _ = ctx.resolver.bases(fn.owner)
        init = ctx.resolver.member(bases[0], "__init__") if len(bases) == 1 else None
        base_fn = init.target if init is not None and init.found and init.target is not None else None
        sig = ctx.signature(base_fn) if base_fn is not None and base_fn.kind == "function" else None
        if base_fn is None or sig is None:
            return None
        names = [p.name for p in sig.params if p.name not in ("self", "cls")]
        target = next((k.arg for k in n.keywords if isinstance(k.value, ast.Name) and k.value.id == param), None)
        if target is None:
            pos = next((i for i, a in enumerate(n.args) if isinstance(a, ast.Name) and a.id == param), None)
            target = names[pos] if pos is not None and pos < len(names) else None
        return fallback(ctx, base_fn, target, depth + 1) if target is not None else None
    return None


def _param(ctx: ReviewContext, claim: Claim, fn: Def, prose: str) -> list[str]:
    fact = parse_field(claim.text) if claim.kind == "field" else None
    if fact is not None and fact.role in ("param", "attribute") and fact.name:
        return [fact.name]
    sig = ctx.signature(fn)
    if sig is None:
        return []
    named = [p.name for p in sig.params if re.search(rf"`{re.escape(p.name)}`|\*{re.escape(p.name)}\*|\b(?:the|a|its)\s+"
                                                    rf"{re.escape(p.name)}\b", prose)]
    return named or [p.name for p in sig.params if p.default is not None and p.name not in ("self", "cls")]


def _function(ctx: ReviewContext, d: Def) -> Def | None:
    if d.kind == "function":
        return d
    res = ctx.resolver.member(d, "__init__")
    return res.target if res.found and res.target is not None and res.target.kind == "function" else None


_LITERAL = re.compile(r"`{1,2}(?P<q>[\"'])(?P<value>[^`\"']+)(?P=q)`{1,2}")
_PARAM = re.compile(r"`{1,2}(?P<param>[a-z_]\w*)`{1,2}")


def _stated_value(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    """"gets a `name` ...; for `Map(...)` it is `"Map"`": the derived value for one named class."""
    lits = list(_LITERAL.finditer(claim.text))
    classes = {id(d.node): (pos, d) for pos, d in callable_mentions(ctx, claim) if d.kind == "class"}
    params = {p.group("param") for p in _PARAM.finditer(claim.text)} - {lit.group("value") for lit in lits}
    if len(lits) != 1 or len(classes) != 1 or not params:
        return []
    pos, cls = next(iter(classes.values()))
    if lits[0].start() < pos:
        return []
    fn = _function(ctx, cls)
    if fn is None:
        return []
    found = []
    for p in sorted(params):
        got_p = fallback(ctx, fn, p)
        if got_p is not None and got_p[1].what == "class":
            found.append((p, got_p))
    if len(found) != 1:
        return []
    param, (where, got) = found[0]
    value = cls.short.lower() if got.case == "lower" else cls.short.upper() if got.case == "upper" else cls.short
    said = lits[0].group("value")
    check = f"`{param}` of `{cls.short}` defaults to {said!r}"
    ev = ctx.evidence(where)
    if value == said:
        return [ok(check, ev, aspect=("default", "value", "behaviour"))]
    return [bad("contradicted", check, f"`{label(where)}` substitutes `{got.code}` for `{param}`, which is {value!r} "
                f"for `{cls.short}`", ev, aspect=("default", "value", "behaviour"))]


def check_derived_defaults(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind not in ("prose", "field"):
        return []
    prose = prose_of(claim)
    m = _SAID.search(prose)
    if m is None:
        return _stated_value(ctx, claim) if claim.kind == "prose" else []
    subj = subject(ctx, claim, m.start())
    fn = _function(ctx, subj) if subj is not None else None
    if fn is None:
        return []
    found: list[tuple[str, tuple[Def, Derived]]] = []
    for p in _param(ctx, claim, fn, prose):
        got_p = fallback(ctx, fn, p)
        if got_p is not None:
            found.append((p, got_p))
    if len(found) != 1:
        return []
    param, (fn, got) = found[0]
    desc = m.group("desc")
    what = m.group("what").lower()
    check = f"`{param}` of `{label(fn)}` defaults to the {what} name as stated"
    ev = ctx.evidence(fn)
    aspect = ("default", "behaviour", "effect")
    wrong: str | None = None
    if what in ("class", "function", "callable"):
        said_case = "lower" if _LOWER.search(desc) else "upper" if _UPPER.search(desc) else None
        if got.what not in ("class", "function"):
            return []
        if (what == "class") != (got.what == "class"):
            wrong = f"it is the {got.what}'s name"
        elif said_case != got.case:
            wrong = (f"it is the {got.what} name in {got.case} case" if got.case else
                     f"it is the {got.what} name as written, not in {said_case} case")
    else:
        if got.what not in ("file", "stem"):
            return []
        if _NO_EXT.search(desc) and got.what == "file":
            wrong = "that keeps the extension"
        elif _WITH_EXT.search(desc) and got.what == "stem":
            wrong = "that drops the extension"
        elif not (_NO_EXT.search(desc) or _WITH_EXT.search(desc)):
            return []
    if wrong is None:
        return [ok(check, ev, aspect=aspect)]
    return [bad("contradicted", check, f"`{label(fn)}` substitutes `{got.code}` for `{param}`: {wrong}", ev,
                aspect=aspect)]
