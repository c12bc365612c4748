"""What must hold for a statement of a function to run, as literals over what the guards test.

A ``raise`` inside ``if not replace and code in REGISTRY:`` runs only when ``replace`` is falsy
and ``code`` is in a container; inside the ``else`` of ``if ttl > 0`` only when ``ttl <= 0``.
The enclosing ``if``/``elif``/``else`` and ``while`` tests are read into conjunctions of
literals (several when a test is an ``or``); a test part no literal form covers adds nothing,
so a path says only what it is sure of. Sibling early exits are not read: a path's literals
are the guards written around the statement.

Subjects are a parameter (the root name of ``len(p)``, ``p.strip()``, ``p in d``), an attribute
of one (``job.name``), or a state
of the instance (``self._closed``, ``self.is_open()``, ``rate.is_expired(now)``: the words of
the attribute or predicate name, ``state:closed``).
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass

from caas_tui.review.static.model.pysig import own_nodes, parent_map
from caas_tui.review.static.wording.condatoms import complement

# Forms a literal states of its subject. ``low``/``high`` bound a number (``cmp``). ``unread``
# marks a test part no other form covers (subject ""): the path holds more than it says.
FORMS = ("truthy", "falsy", "none", "notnone", "in", "notin", "cmp", "unread")
_NEGATED_FORM = {"truthy": "falsy", "falsy": "truthy", "none": "notnone", "notnone": "none", "in": "notin",
                 "notin": "in", "unread": "unread"}
_MAX_ALTERNATIVES = 8
# Methods of a string or container whose result is as empty as the value (``name.strip()``).
_SAME_EMPTINESS = frozenset({"strip", "lstrip", "rstrip", "lower", "upper", "casefold", "keys", "values", "items"})
_PREDICATE_PREFIXES = ("is_", "has_", "was_", "are_")


@dataclass(frozen=True, slots=True)
class Literal:
    subject: str  # a parameter name, or ``state:<words>``
    form: str  # one of FORMS
    low: float = -math.inf
    high: float = math.inf
    low_open: bool = True
    high_open: bool = True
    line: int = 0
    source: str = ""  # the whole guard test as written, for a rationale

    def negated(self) -> Literal | None:
        if self.form != "cmp":
            return Literal(self.subject, _NEGATED_FORM[self.form], line=self.line, source=self.source)
        other = complement(self.low, self.high, self.low_open, self.high_open)
        return Literal(self.subject, "cmp", *other, line=self.line, source=self.source) if other is not None else None


Path = tuple[Literal, ...]


def _number(node: ast.AST) -> float | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    return None


def _state_words(name: str) -> str:
    bare = name.lstrip("_")
    for prefix in _PREDICATE_PREFIXES:
        if bare.startswith(prefix):
            bare = bare[len(prefix):]
            break
    return "state:" + bare.lower()


def _subject(node: ast.AST, params: frozenset[str]) -> str | None:
    """The parameter (or instance state) an expression is about; None for anything else."""
    if isinstance(node, ast.Name):
        return node.id if node.id in params else None
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
        return _state_words(node.attr)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in params:
        return f"{node.value.id}.{node.attr}"  # ``job.name in self._jobs``: "the name is taken"
    if isinstance(node, ast.Call) and not node.keywords:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _SAME_EMPTINESS and not node.args:
            return _subject(func.value, params)
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name.startswith(_PREDICATE_PREFIXES):
            return _state_words(name)
    return None


def _compare(test: ast.Compare, params: frozenset[str], line: int, source: str) -> Literal | None:
    if len(test.ops) != 1:
        return None
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if isinstance(op, (ast.Is, ast.IsNot)) and isinstance(right, ast.Constant) and right.value is None:
        subject = _subject(left, params)
        form = "none" if isinstance(op, ast.Is) else "notnone"
        return Literal(subject, form, line=line, source=source) if subject else None
    if isinstance(op, (ast.In, ast.NotIn)):
        subject = _subject(left, params)
        form = "in" if isinstance(op, ast.In) else "notin"
        return Literal(subject, form, line=line, source=source) if subject and not subject.startswith("state:") else None
    # ``len(p) == 0`` / ``len(p) > 0``: emptiness of ``p``
    if isinstance(left, ast.Call) and isinstance(left.func, ast.Name) and left.func.id == "len" and len(left.args) == 1:
        subject, bound = _subject(left.args[0], params), _number(right)
        if subject is None or bound is None or subject.startswith("state:"):
            return None
        empty = {(ast.Eq, 0.0), (ast.Lt, 1.0), (ast.LtE, 0.0)}
        full = {(ast.NotEq, 0.0), (ast.Gt, 0.0), (ast.GtE, 1.0)}
        key = (type(op), bound)
        emptiness = "falsy" if key in empty else "truthy" if key in full else None
        return Literal(subject, emptiness, line=line, source=source) if emptiness else None
    flipped = {ast.Lt: ast.Gt, ast.LtE: ast.GtE, ast.Gt: ast.Lt, ast.GtE: ast.LtE, ast.Eq: ast.Eq}
    if _number(left) is not None and type(op) in flipped:
        left, right, op = right, left, flipped[type(op)]()
    subject, bound = _subject(left, params), _number(right)
    if subject is None or bound is None or subject.startswith("state:"):
        return None
    if isinstance(op, ast.Lt):
        return Literal(subject, "cmp", high=bound, high_open=True, line=line, source=source)
    if isinstance(op, ast.LtE):
        return Literal(subject, "cmp", high=bound, high_open=False, line=line, source=source)
    if isinstance(op, ast.Gt):
        return Literal(subject, "cmp", low=bound, low_open=True, line=line, source=source)
    if isinstance(op, ast.GtE):
        return Literal(subject, "cmp", low=bound, low_open=False, line=line, source=source)
    if isinstance(op, ast.Eq):
        return Literal(subject, "cmp", low=bound, high=bound, low_open=False, high_open=False, line=line, source=source)
    return None


def _any_identical(test: ast.expr, params: frozenset[str]) -> str | None:
    """``any(s is job for s in self._jobs)``: ``job`` is in the container (the parameter)."""
    if not (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "any"
            and len(test.args) == 1 and isinstance(test.args[0], ast.GeneratorExp)):
        return None
    gen = test.args[0]
    elt = gen.elt
    if len(gen.generators) != 1 or not isinstance(gen.generators[0].target, ast.Name) or gen.generators[0].ifs:
        return None
    var = gen.generators[0].target.id
    if not (isinstance(elt, ast.Compare) and len(elt.ops) == 1 and isinstance(elt.ops[0], (ast.Is, ast.Eq))):
        return None
    sides = [elt.left, elt.comparators[0]]
    names = [n.id for n in sides if isinstance(n, ast.Name)]
    if len(names) == 2 and var in names:
        other = names[1 - names.index(var)]
        return other if other in params else None
    return None


def _searched_for(loop: ast.For, params: frozenset[str]) -> str | None:
    """``for s in items: if s is system: ... break``: the parameter the loop looks for."""
    bound = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}  # ``for i, s in enumerate(xs)``
    for stmt in loop.body:
        if not (isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Compare) and len(stmt.test.ops) == 1
                and isinstance(stmt.test.ops[0], (ast.Is, ast.Eq))):
            continue
        if not any(isinstance(x, (ast.Break, ast.Return)) for b in stmt.body for x in ast.walk(b)):
            continue
        names = [n.id for n in (stmt.test.left, stmt.test.comparators[0]) if isinstance(n, ast.Name)]
        if len(names) == 2 and (names[0] in bound) != (names[1] in bound):
            other = names[1] if names[0] in bound else names[0]
            if other in params:
                return other
    return None


def unread(line: int, source: str) -> Literal:
    return Literal("", "unread", line=line, source=source)


def complete(path: Path) -> bool:
    """Every test on the path was read into a literal: the path says all that must hold."""
    return all(g.form != "unread" for g in path)


def alternatives(test: ast.expr, holds: bool, params: frozenset[str], line: int, source: str) -> list[Path]:
    """The test read as alternatives of conjunctions, given whether it holds."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return alternatives(test.operand, not holds, params, line, source)
    if isinstance(test, ast.BoolOp):
        conjunctive = isinstance(test.op, ast.And) == holds
        parts = [alternatives(v, holds, params, line, source) for v in test.values]
        if conjunctive:
            out: list[Path] = [()]
            for alts in parts:
                out = [a + b for a in out for b in alts][:_MAX_ALTERNATIVES]
            return out
        return [p for alts in parts for p in alts][:_MAX_ALTERNATIVES]
    lit: Literal | None
    member = _any_identical(test, params)
    if member is not None:
        lit = Literal(member, "in", line=line, source=source)
    elif isinstance(test, ast.Compare):
        lit = _compare(test, params, line, source)
    else:
        subject = _subject(test, params)
        lit = Literal(subject, "truthy", line=line, source=source) if subject else None
    if lit is not None and not holds:
        lit = lit.negated()
    return [(lit if lit is not None else unread(line, source),)]


_SAME_ITEMS = frozenset({"list", "tuple", "set", "frozenset", "sorted", "dict"})


def _copied_from(value: ast.expr, params: frozenset[str]) -> str | None:
    """The parameter a local holds the same items as: ``list(points)``, ``[f(r) for r in
    ratios]``, ``name.strip()`` -- empty exactly when the parameter is."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in _SAME_ITEMS \
            and len(value.args) == 1 and not value.keywords and isinstance(value.args[0], ast.Name):
        return value.args[0].id if value.args[0].id in params else None
    if isinstance(value, (ast.ListComp, ast.SetComp, ast.DictComp)) and len(value.generators) == 1 \
            and not value.generators[0].ifs and isinstance(value.generators[0].iter, ast.Name):
        name = value.generators[0].iter.id
        return name if name in params else None
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _SAME_EMPTINESS \
            and not value.args and isinstance(value.func.value, ast.Name) and value.func.value.id in params:
        return value.func.value.id
    return None


def local_copies(fn: ast.FunctionDef | ast.AsyncFunctionDef, params: frozenset[str]) -> dict[str, str]:
    """Locals assigned once, from a copy of a parameter's items (``pts = list(points)``)."""
    assigned: dict[str, list[ast.expr | None]] = {}
    for n in own_nodes(fn):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                for name in (x for x in ast.walk(t) if isinstance(x, ast.Name)):
                    assigned.setdefault(name.id, []).append(n.value if t is name else None)
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)):
            target = n.target
            for name in (x for x in ast.walk(target) if isinstance(x, ast.Name)):
                value = n.value if isinstance(n, ast.AnnAssign) and target is name else None
                assigned.setdefault(name.id, []).append(value)
    out: dict[str, str] = {}
    for local, values in assigned.items():
        source = _copied_from(values[0], params) if len(values) == 1 and values[0] is not None else None
        if source is not None and local not in params:
            out[local] = source
    return out


def as_copies(path: Path, copies: dict[str, str]) -> Path:
    """A local copy's emptiness is its parameter's (other forms say nothing of the parameter)."""
    return tuple(Literal(copies[g.subject], g.form, line=g.line, source=g.source)
                 if g.subject in copies and g.form in ("truthy", "falsy") else g for g in path)


def exits(stmts: list[ast.stmt]) -> bool:
    """The block always leaves (returns, raises, or ends the loop iteration): what follows it
    runs only when it did not."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, (ast.Return, ast.Raise, ast.Continue, ast.Break)):
        return True
    if isinstance(last, ast.If):
        return exits(last.body) and exits(last.orelse)
    if isinstance(last, (ast.With, ast.AsyncWith)):
        return exits(last.body)
    return False


_LEAVES = (ast.Return, ast.Raise, ast.Continue, ast.Break)


def after_siblings(before: list[ast.stmt], tested: frozenset[str]) -> list[Path]:
    """What must hold for a statement to run after the statements ``before`` it in its block:
    an early exit (``if key not in d: return None``) did not happen, so its test is false. A
    statement that may leave some other way (a search loop's ``return``) adds an unread mark."""
    out: list[Path] = [()]
    for s in before:
        if isinstance(s, ast.If) and exits(s.body) and not s.orelse:
            alts = alternatives(s.test, False, tested, s.lineno, ast.unparse(s.test))
        elif isinstance(s, ast.If) and s.orelse and exits(s.orelse) and not exits(s.body):
            alts = alternatives(s.test, True, tested, s.lineno, ast.unparse(s.test))
        elif any(isinstance(n, _LEAVES) for n in ast.walk(s)):
            alts = [(unread(s.lineno, ast.unparse(s).split("\n", 1)[0]),)]
        else:
            continue
        out = [a + b for a in out for b in alts][:_MAX_ALTERNATIVES]
    return out


def _block_of(cur: ast.AST, below: ast.AST) -> list[ast.stmt] | None:
    for field in ("body", "orelse", "finalbody"):
        block = getattr(cur, field, None)
        if isinstance(block, list) and any(s is below for s in block):
            return block
    return None


def paths_to(fn: ast.FunctionDef | ast.AsyncFunctionDef, stmt: ast.AST, params: frozenset[str],
             *, siblings: bool = False) -> list[Path]:
    """The conjunctions of literals under which ``stmt`` (in ``fn``'s own body) runs; with
    ``siblings``, also the early exits before it in each enclosing block, and an unread mark
    for a loop body or an ``except`` handler (reached on what no literal says)."""
    copies = local_copies(fn, params)
    tested = params | frozenset(copies)
    parents = parent_map(fn)
    out: list[Path] = [()]
    below, cur = stmt, parents.get(id(stmt))
    while cur is not None:
        block = _block_of(cur, below) if siblings else None
        if block is not None:
            index = next(i for i, s in enumerate(block) if s is below)
            out = [a + b for a in out for b in after_siblings(block[:index], tested)][:_MAX_ALTERNATIVES]
        if cur is fn:
            break
        if isinstance(cur, ast.If) and below is not cur.test:
            holds = any(below is s for s in cur.body)
            alts = alternatives(cur.test, holds, tested, cur.lineno, ast.unparse(cur.test))
            out = [a + b for a in out for b in alts][:_MAX_ALTERNATIVES]
        elif isinstance(cur, ast.For) and any(below is s for s in cur.orelse):
            found = _searched_for(cur, tested)
            if found is not None:  # a search loop's ``else``: nothing matched the parameter
                lit = Literal(found, "notin", line=cur.lineno, source=f"for {ast.unparse(cur.target)} in "
                              f"{ast.unparse(cur.iter)}: ... else")
                out = [a + (lit,) for a in out]
            elif siblings:
                out = [a + (unread(cur.lineno, "for ... else"),) for a in out]
        elif isinstance(cur, ast.While) and any(below is s for s in cur.body):
            alts = alternatives(cur.test, True, tested, cur.lineno, ast.unparse(cur.test))
            out = [a + b for a in out for b in alts][:_MAX_ALTERNATIVES]
        elif siblings and isinstance(cur, (ast.For, ast.AsyncFor, ast.While, ast.ExceptHandler, ast.Match,
                                           ast.match_case)):
            out = [a + (unread(getattr(cur, "lineno", 0), type(cur).__name__),) for a in out]
        below, cur = cur, parents.get(id(cur))
    return [as_copies(p, copies) for p in out]


def raise_paths(fn: ast.FunctionDef | ast.AsyncFunctionDef, names: set[str], params: frozenset[str],
                *, siblings: bool = False) -> list[tuple[int, list[Path]]]:
    """For each own ``raise`` of a class named in ``names``: its line and the paths to it
    (with ``siblings``, the early exits before it too: see ``paths_to``)."""
    out: list[tuple[int, list[Path]]] = []
    for n in own_nodes(fn):
        if not isinstance(n, ast.Raise) or n.exc is None:
            continue
        target = n.exc.func if isinstance(n.exc, ast.Call) else n.exc
        short = target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else ""
        if short in names:
            out.append((n.lineno, paths_to(fn, n, params, siblings=siblings)))
    return sorted(out, key=lambda r: r[0])
