"""Claims about what a function's result is, against a platform (Python standard library)
behaviour the code relies on.

"`names()` returns the names sorted" where the body returns ``list(self._items)`` over a
dict (insertion order); "the current time in UTC" from a bare ``datetime.now()`` (naive,
local); "rounds half up" through ``round()`` (half to even); "to the nearest integer" from
``int(x)`` (truncation); "writes the set as a JSON array" through ``json.dumps(tags)`` with
``tags: set[...]`` (a ``TypeError``); "a monotonic clock" over ``time.time()``; "anywhere in
the text" with ``re.match`` (anchored at the start), "the whole text" with ``re.match`` of a
pattern without ``$``.

The facts are one documented table (``RULES``): each ties a code pattern -- a call or a
result shape, read from the subject's body and the project helpers it hands its result to
(``delegation.callee``, two hops) -- to the words a claim would need to be wrong. A claim
that negates those words, or a body that also shows the opposite pattern, is left alone:
the rule decides only when the code takes one documented path.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.codefacts.delegation import callee
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad
from caas_tui.review.static.model.project import ImportRef
from caas_tui.review.static.model.pysig import own_nodes
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.referents.subjects import subject_of

_MAX_HOPS = 2


@dataclass(frozen=True, slots=True)
class Body:
    """One function the subject's result goes through: its returned expressions and calls."""

    fn: Def
    returns: tuple[ast.expr, ...]
    calls: tuple[tuple[str, ast.Call], ...]  # (full dotted name as imported, call)


def _full_name(fn: Def, call: ast.Call) -> str:
    name = dotted(call.func) or ""
    head, _, rest = name.partition(".")
    ref = fn.module.bindings.get(head) if fn.module is not None and head else None
    if isinstance(ref, ImportRef):
        base = ref.module + (f".{ref.name}" if ref.name else "")
        return base + (f".{rest}" if rest else "")
    return name


def _body(fn: Def) -> Body | None:
    node = fn.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    nodes = own_nodes(node)
    returns = tuple(n.value for n in nodes if isinstance(n, ast.Return) and n.value is not None)
    calls = tuple((_full_name(fn, n), n) for n in nodes if isinstance(n, ast.Call))
    return Body(fn, returns, calls)


def bodies(ctx: ReviewContext, fn: Def) -> list[Body]:
    """``fn`` and the project functions whose result it returns (``return self.backend.keys()``)."""
    out: list[Body] = []
    seen: set[int] = set()
    todo = [(fn, 0)]
    while todo:
        cur, hops = todo.pop(0)
        body = _body(cur)
        if body is None or id(cur.node) in seen:
            continue
        seen.add(id(cur.node))
        out.append(body)
        if hops >= _MAX_HOPS:
            continue
        for expr in body.returns:
            if isinstance(expr, ast.Call):
                target = callee(ctx, cur, expr)
                if target is not None and target.kind == "function":
                    todo.append((target, hops + 1))
    return out


# -- what a container attribute or name holds -----------------------------------------------------
_DICTS = frozenset({"dict", "Dict", "defaultdict", "OrderedDict", "Counter", "collections.defaultdict",
                    "collections.OrderedDict", "collections.Counter", "typing.Dict"})
_SETS = frozenset({"set", "Set", "frozenset", "FrozenSet", "typing.Set", "typing.FrozenSet"})


def _container_of(expr: ast.expr | None) -> str | None:
    """'dict' or 'set' for a literal, constructor call or annotation of one."""
    if expr is None:
        return None
    if isinstance(expr, (ast.Dict, ast.DictComp)):
        return "dict"
    if isinstance(expr, (ast.Set, ast.SetComp)):
        return "set"
    if isinstance(expr, ast.Call):
        expr = expr.func
    if isinstance(expr, ast.Subscript):
        expr = expr.value
    name = dotted(expr) or ""
    return "dict" if name in _DICTS else "set" if name in _SETS else None


def _attribute_container(fn: Def, attr: str) -> str | None:
    owner = fn.owner.node if fn.owner is not None else None
    if not isinstance(owner, ast.ClassDef):
        return None
    kinds: set[str | None] = set()
    for n in ast.walk(owner):
        if isinstance(n, ast.AnnAssign) and _is_attr(n.target, attr):
            kinds.add(_container_of(n.annotation) or _container_of(n.value))
        elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.target.id == attr:
            kinds.add(_container_of(n.annotation))
        elif isinstance(n, ast.Assign) and any(_is_attr(t, attr) for t in n.targets):
            kinds.add(_container_of(n.value))
    return kinds.pop() if len(kinds) == 1 else None


def _is_attr(target: ast.expr, attr: str) -> bool:
    return isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
        and target.value.id == "self" and target.attr == attr


def _local_container(fn: Def, name: str) -> str | None:
    node = fn.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    kinds: set[str | None] = set()
    for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]:
        if a.arg == name:
            kinds.add(_container_of(a.annotation))
    for n in own_nodes(node):
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in n.targets):
            kinds.add(_container_of(n.value))
        elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.target.id == name:
            kinds.add(_container_of(n.annotation) or _container_of(n.value))
    return kinds.pop() if len(kinds) == 1 else None


def holds(fn: Def, expr: ast.expr) -> str | None:
    """'dict' or 'set' when ``expr`` (``self.attr`` or a local) holds one, as one place says."""
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self":
        return _attribute_container(fn, expr.attr)
    if isinstance(expr, ast.Name):
        return _local_container(fn, expr.id)
    return None


def _unsorted_view(fn: Def, expr: ast.expr) -> tuple[str, str] | None:
    """(container kind, code) when ``expr`` lists a dict's or set's items in its own order:
    ``list(d)``, ``list(d.keys())``, ``d.keys()``, ``tuple(s)``, ``[k for k in d]``."""
    inner: ast.expr | None = None
    if isinstance(expr, ast.Call) and dotted(expr.func) in ("list", "tuple") and len(expr.args) == 1:
        inner = expr.args[0]
    elif isinstance(expr, (ast.ListComp, ast.GeneratorExp)) and len(expr.generators) == 1:
        inner = expr.generators[0].iter
    else:
        inner = expr
    if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and not inner.args \
            and inner.func.attr in ("keys", "values", "items"):
        kind = holds(fn, inner.func.value)
        return ("dict", ast.unparse(expr)) if kind == "dict" else None
    if inner is expr:
        return None  # a bare container is returned as itself, not listed
    kind = holds(fn, inner)
    return (kind, ast.unparse(expr)) if kind else None


# -- the table ---------------------------------------------------------------------------------
def _words(*alternatives: str) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(alternatives) + r")", re.IGNORECASE)


_SORTED = _words(r"sorted\b", r"alphabetical", r"(?:in\s+)?(?:ascending|lexicographic\w*)\b", r"in\s+order\s+of\s+name")
_INSERTION = _words(r"(?:in\s+)?insertion\s+order", r"in\s+the\s+order\s+(?:they|it|that|in\s+which)\b[^.;]{0,30}?"
                    r"\b(?:added|inserted|registered|stored|put|written|seen)\b")
_UTC = re.compile(r"\bUTC\b|\bGMT\b|\bZulu\b")
_AWARE = _words(r"time-?zone[- ]aware\b", r"aware\b", r"with\s+(?:a\s+|its\s+)?(?:tzinfo|time-?zone)\b")
_NAIVE = _words(r"naive\b", r"local\s+time\b", r"without\s+(?:a\s+)?(?:tzinfo|time-?zone)\b", r"no\s+tzinfo\b")
_HALF_UP = _words(r"half(?:ves|\s+a\s+\w+)?\s+(?:\w+\s+){0,2}?(?:up|upwards|away\s+from\s+zero)\b",
                  r"halves\s+(?:\w+\s+){0,2}?(?:up|away\s+from\s+zero)\b", r"round(?:s|ing)?[- ]half[- ](?:up|away)\b",
                  r"(?:0)?\.5\s+(?:is\s+|are\s+)?(?:rounded\s+)?(?:up|away\s+from\s+zero)\b")
_HALF_EVEN = _words(r"banker'?s\s+rounding", r"half[- ](?:to[- ])?even\b", r"round(?:s|ing)?\s+half\s+to\s+even\b")
_NEAREST = _words(r"(?:to\s+)?the\s+nearest\b", r"rounds?\s+(?:it\s+|`[^`]+`\s+|\w+\s+)?(?:off|properly)\b")
_ROUNDS_UP = _words(r"rounds?\s+(?:it\s+|`[^`]+`\s+|\w+\s+)?up\b", r"ceiling\b")
_ROUNDS_DOWN = _words(r"rounds?\s+(?:it\s+|`[^`]+`\s+|\w+\s+)?down\b", r"floor\b")
_JSON = re.compile(r"\bJSON\b")
_FAILS = _words(r"raises?\b", r"TypeError", r"errors?\b", r"fails?\b", r"rejects?\b", r"cannot\b", r"can't\b")
_MONOTONIC = _words(r"monotonic\w*", r"steady\s+clock", r"(?:un)?affected\s+by\b[^.;]{0,30}\bclock",
                    r"(?:does\s+not|doesn't|never)\s+(?:change|jump|go\s+back\w*)\b[^.;]{0,40}\bclock",
                    r"setting\s+the\s+(?:system\s+)?clock\s+does\s+not")
_WALL = _words(r"wall[- ]clock", r"unix\s+(?:time|timestamp)", r"(?:seconds\s+)?since\s+the\s+epoch", r"epoch\s+time",
               r"time\s+of\s+day")
_ANYWHERE = _words(r"anywhere\s+in\b", r"(?:searches|scans)\s+(?:the\s+)?(?:whole\s+)?(?:string|text|input)\b",
                   r"(?:at\s+)?any\s+position\b")
_WHOLE = _words(r"(?:the\s+)?(?:whole|entire)(?:\s+of)?\s+(?:the\s+)?(?:`[^`]+`|string\b|text\b|input\b|value\b)[^.;]{0,15}"
                r"\bmatch", r"match(?:es)?\s+(?:the\s+)?(?:whole|entire)\b", r"full\s+match\b")
_START = _words(r"(?:only\s+)?at\s+the\s+(?:start|beginning)\b", r"must\s+start\s+with\b")
_NEGATION = re.compile(r"\b(?:not|never|no|nor|without|neither|un\w+)\b|n't\b", re.IGNORECASE)
_CLAUSE = re.compile(r"[.;:!?]\s|,\s+(?:but|while|whereas|though|and)\s|\bbut\b")


@dataclass(frozen=True, slots=True)
class Rule:
    """A platform behaviour: the code that shows it (None when ``bodies`` do not) and the
    claim words it makes wrong; ``fact`` is what the Python documentation says."""

    shows: Callable[[list[Body]], tuple[Def, str] | None]
    claims: re.Pattern[str]
    fact: str
    unless: re.Pattern[str] | None = None  # claim words that admit the behaviour


def _returned(pred: Callable[[Def, ast.expr], str | None]) -> Callable[[list[Body]], tuple[Def, str] | None]:
    """The rule's pattern in every returned expression of the result's last body (the one
    that builds it): all its returns must show it."""
    def shows(chain: list[Body]) -> tuple[Def, str] | None:
        for body in chain:
            if not body.returns:
                continue
            found = [pred(body.fn, e) for e in body.returns]
            if all(found) and found:
                return body.fn, found[0] or ""
        return None
    return shows


def _called(wanted: Callable[[str, ast.Call], bool], *, absent: tuple[str, ...] = ()) \
        -> Callable[[list[Body]], tuple[Def, str] | None]:
    """A call the bodies make, none of them also calling (or naming) one of ``absent``.

    A dotted ``absent`` entry (``time.time``) is a call's full name: the module name ``time``
    in ``time.monotonic()`` must not count as a call of ``time.time()``."""
    def shows(chain: list[Body]) -> tuple[Def, str] | None:
        full = {name for b in chain for name, _ in b.calls}
        names = {name.rsplit(".", 1)[-1] for name in full}
        if absent and any(a in full if "." in a else a in names or _names_anywhere(chain, a) for a in absent):
            return None
        for body in chain:
            for name, call in body.calls:
                if wanted(name, call):
                    return body.fn, ast.unparse(call)
        return None
    return shows


def _names_anywhere(chain: list[Body], name: str) -> bool:
    for body in chain:
        node = body.fn.node
        if node is not None and any(isinstance(n, ast.Name) and n.id == name or
                                    isinstance(n, ast.Attribute) and n.attr == name for n in ast.walk(node)):
            return True
    return False


def _view_of(kind: str) -> Callable[[Def, ast.expr], str | None]:
    def pred(fn: Def, expr: ast.expr) -> str | None:
        found = _unsorted_view(fn, expr)
        return found[1] if found is not None and found[0] == kind else None
    return pred


def _sorted_call(fn: Def, expr: ast.expr) -> str | None:
    return ast.unparse(expr) if isinstance(expr, ast.Call) and dotted(expr.func) == "sorted" else None


def _now(name: str, call: ast.Call) -> bool:
    return name in ("datetime.datetime.now", "datetime.datetime.today") and not call.args and not call.keywords


def _now_with_tz(name: str, call: ast.Call) -> bool:
    tz = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "tz"), None)
    return name == "datetime.datetime.now" and tz is not None and not (isinstance(tz, ast.Constant) and tz.value is None)


def _truncating_int(name: str, call: ast.Call) -> bool:
    if name != "int" or len(call.args) != 1 or call.keywords:
        return False
    arg = call.args[0]
    return isinstance(arg, ast.BinOp) or (isinstance(arg, ast.Constant) and isinstance(arg.value, float))


def _float_param_int(chain: list[Body]) -> tuple[Def, str] | None:
    """``int(x)`` with ``x: float`` or of arithmetic: truncation toward zero."""
    for body in chain:
        node = body.fn.node
        floats = {a.arg for a in getattr(getattr(node, "args", None), "args", [])
                  if a.annotation is not None and dotted(a.annotation) == "float"}
        for name, call in body.calls:
            if name == "int" and len(call.args) == 1 and not call.keywords and (
                    _truncating_int(name, call) or isinstance(call.args[0], ast.Name) and call.args[0].id in floats):
                if any(n.rsplit(".", 1)[-1] in ("round", "floor", "ceil", "quantize") for n, _ in body.calls):
                    return None  # rounded first: int() only converts
                return body.fn, ast.unparse(call)
    return None


def _json_of_set(chain: list[Body]) -> tuple[Def, str] | None:
    for body in chain:
        node = body.fn.node
        sets = {a.arg for a in getattr(getattr(node, "args", None), "args", []) if _container_of(a.annotation) == "set"}
        for name, call in body.calls:
            if name in ("json.dumps", "json.dump") and call.args and not any(k.arg in ("default", "cls")
                                                                             for k in call.keywords):
                arg = call.args[0]
                if isinstance(arg, ast.Name) and arg.id in sets:
                    return body.fn, ast.unparse(call)
    return None


def _literal_pattern(call: ast.Call) -> str | None:
    arg = call.args[0] if call.args else None
    return arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None


def _re_match_unanchored_end(name: str, call: ast.Call) -> bool:
    pattern = _literal_pattern(call)
    return name == "re.match" and pattern is not None and not pattern.endswith(("$", r"\Z"))


def _re_search_unanchored(name: str, call: ast.Call) -> bool:
    pattern = _literal_pattern(call)
    return name == "re.search" and pattern is not None and not pattern.startswith(("^", r"\A"))


RULES: tuple[Rule, ...] = (
    Rule(_returned(_view_of("dict")), _SORTED,
         "a dict iterates in insertion order (Python 3.7+), so the result is not sorted"),
    Rule(_returned(_view_of("set")), _SORTED, "a set iterates in no defined order, so the result is not sorted"),
    Rule(_returned(_sorted_call), _INSERTION, "`sorted()` orders by value, not in the order items were added"),
    Rule(_called(_now), _UTC, "`datetime.now()` without a time zone gives the local time, as a naive datetime",
         unless=_words(r"local\b", r"naive\b")),
    Rule(_called(_now), _AWARE, "`datetime.now()` without a time zone gives a naive datetime (`tzinfo` is None)"),
    Rule(_called(lambda n, c: n == "datetime.datetime.utcnow"), _AWARE,
         "`datetime.utcnow()` gives a naive datetime (`tzinfo` is None)"),
    Rule(_called(_now_with_tz), _NAIVE, "`datetime.now(tz)` gives an aware datetime in that time zone"),
    Rule(_called(lambda n, c: n == "round", absent=("Decimal", "quantize", "ROUND_HALF_UP", "floor", "ceil")), _HALF_UP,
         "`round()` rounds halves to the even neighbour (banker's rounding: `round(2.5) == 2`)"),
    Rule(_called(lambda n, c: isinstance(c.func, ast.Attribute) and c.func.attr == "quantize" and any(
        dotted(k.value) in ("ROUND_HALF_UP", "decimal.ROUND_HALF_UP") for k in c.keywords)), _HALF_EVEN,
        "`ROUND_HALF_UP` rounds halves away from zero, not to even"),
    Rule(_float_param_int, _NEAREST, "`int()` of a float truncates toward zero (`int(2.7) == 2`)"),
    Rule(_float_param_int, _ROUNDS_UP, "`int()` of a float truncates toward zero (`int(2.7) == 2`)"),
    Rule(_called(lambda n, c: n == "math.floor"), _words(r"(?:to\s+)?the\s+nearest\b") ,
         "`math.floor()` rounds down (`floor(2.7) == 2`)"),
    Rule(_called(lambda n, c: n == "math.floor"), _ROUNDS_UP, "`math.floor()` rounds down (`floor(2.7) == 2`)"),
    Rule(_called(lambda n, c: n == "math.ceil"), _words(r"(?:to\s+)?the\s+nearest\b"),
         "`math.ceil()` rounds up (`ceil(2.2) == 3`)"),
    Rule(_called(lambda n, c: n == "math.ceil"), _ROUNDS_DOWN, "`math.ceil()` rounds up (`ceil(2.2) == 3`)"),
    Rule(_json_of_set, _JSON, "`json.dumps` raises `TypeError` for a set: JSON has no set type", unless=_FAILS),
    Rule(_called(lambda n, c: n == "time.time", absent=("monotonic", "perf_counter")), _MONOTONIC,
         "`time.time()` is the system's wall clock, which jumps when the clock is set; `time.monotonic()` does not"),
    Rule(_called(lambda n, c: n in ("time.monotonic", "time.perf_counter"), absent=("time.time",)), _WALL,
         "`time.monotonic()` has an undefined reference point: it is no wall-clock or Unix time"),
    Rule(_called(lambda n, c: n == "re.match", absent=("search", "fullmatch", "finditer", "findall")), _ANYWHERE,
         "`re.match` matches only at the start of the string (`re.search` looks anywhere)"),
    Rule(_called(_re_match_unanchored_end, absent=("fullmatch",)), _WHOLE,
         "`re.match` needs no match at the end of the string (`re.fullmatch` does)"),
    Rule(_called(_re_search_unanchored, absent=("match", "fullmatch")), _START,
         "`re.search` matches anywhere in the string, not only at its start"),
)


def _prose(text: str) -> str:
    return re.sub(r":[\w:-]+:`([^`]*)`", r"`\1`", text)


def _negated(prose: str, start: int) -> bool:
    bounds = [m.end() for m in _CLAUSE.finditer(prose, 0, start)]
    return bool(_NEGATION.search(prose[bounds[-1] if bounds else 0:start]))


def _label(fn: Def) -> str:
    parts = fn.qualname.split(".")
    return ".".join(parts[-2:]) if fn.owner is not None else parts[-1]


def check_platform_rules(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind not in ("prose", "field") or claim.doc_path.startswith("upstream/"):
        return []
    prose = _prose(claim.text)
    chains: dict[int, list[Body]] = {}
    for rule in RULES:
        m = rule.claims.search(prose)
        if m is None or _negated(prose, m.start()) or (rule.unless is not None and rule.unless.search(prose)):
            continue
        subject = subject_of(ctx, claim, m.start())
        if subject is None or subject.kind != "function" or not subject.is_project:
            continue
        chain = chains.setdefault(id(subject.node), bodies(ctx, subject))
        shown = rule.shows(chain)
        if shown is None:
            continue
        where, code = shown
        through = "" if where.node is subject.node else f" (through `{_label(where)}`)"
        evidence = [ctx.evidence(subject)] + ([ctx.evidence(where)] if where.node is not subject.node else [])
        return [bad("contradicted", f"`{_label(subject)}` {m.group(0).strip()}",
                    f"`{_label(subject)}` relies on `{code}`{through}: {rule.fact}", *evidence,
                    aspect=("behaviour", "action", "effect", "returns"))]
    return []
