"""What a code block says a call gives: a result comment (``resp = c.get(url)  # -> None``,
``# returns a list``, ``# raises KeyError``) or a doctest's expected output (a value's repr,
or a traceback's exception), against the called function's return kinds and what it and
its callees can raise.

A kind that disagrees is a contradiction; a kind that agrees proves the value only when the
kind has one value (``None``), so only then does it cover the return assertion.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
import warnings
from dataclasses import dataclass

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import doctest_source, dotted, parse_block
from caas_tui.review.static.codefacts.raisecheck import judge, stated_exception
from caas_tui.review.static.codefacts.rettypes import annotation_kinds, compare, describe, return_kinds
from caas_tui.review.static.context import ReviewContext, Val
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.outcomes.retnone import not_none
from caas_tui.review.static.wording.facts import StatedType, type_from_text

_RESULT = re.compile(r"^#\s*(?:->|→|=>|==|returns?\b|gives\b|evaluates\s+to\b)\s*(?P<value>.+)$", re.IGNORECASE)
_RAISE = re.compile(r"^#\s*(?:->\s*)?(?:raises?|throws?)\s+`?(?P<exc>[A-Za-z_][\w.]*)", re.IGNORECASE)
_TRACEBACK_LAST = re.compile(r"^(?P<exc>[A-Za-z_][\w.]*(?:Error|Exception|Exit|Warning))\b")
_REPR_NAME = re.compile(r"^<?(?P<name>[A-Z]\w*)(?:\(|\s|>|$)")
_LITERAL_KINDS = {type(None): "None", bool: "bool", int: "int", float: "float", str: "str", bytes: "bytes",
                  list: "list", tuple: "tuple", dict: "dict", set: "set", frozenset: "frozenset"}


@dataclass(frozen=True, slots=True)
class Stated:
    line: int  # 1-based line in the block
    call: ast.Call
    result: StatedType | None = None
    exception: str | None = None
    text: str = ""


def stated_type(text: str) -> StatedType | None:
    """``None`` / ``3`` / ``[1, 2]`` / ``Response(...)`` / ``a list of ids`` -> a kind or class."""
    raw = text.strip().strip("`").strip()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = ast.literal_eval(raw)
        kind = _LITERAL_KINDS.get(type(value))
        return StatedType(kind, None, 0) if kind else None
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        pass
    m = _REPR_NAME.match(raw)
    if m and m.group("name") not in ("True", "False", "None", "A", "An", "The"):
        return StatedType(None, m.group("name"), 0)
    words = re.sub(r"^(?:an?|the)\s+", "", raw, flags=re.IGNORECASE)
    st = type_from_text(words.split()[0]) if words.split() else None
    return st if st is not None and st.kind is not None else None


def _call_of(stmt: ast.stmt) -> ast.Call | None:
    value = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign, ast.AnnAssign)) else None
    return value if isinstance(value, ast.Call) else None


def _comments(source: str) -> dict[int, str]:
    out: dict[int, str] = {}
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                out[tok.start[0]] = tok.string
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return {}
    return out


def statements(code: str) -> list[Stated]:
    """Every call in the block whose result a comment or a doctest output states."""
    tree = parse_block(code)
    if tree is None:
        return []
    source = doctest_source(code)
    comments = _comments(source)
    lines = code.split("\n")
    out: list[Stated] = []
    for stmt in tree.body:
        call = _call_of(stmt)
        end = stmt.end_lineno or stmt.lineno
        if call is None:
            continue
        comment = comments.get(end, "")
        raised = _RAISE.match(comment)
        result = _RESULT.match(comment)
        if raised:
            out.append(Stated(end, call, exception=raised.group("exc"), text=comment))
        elif result:
            st = stated_type(result.group("value"))
            if st is not None:
                out.append(Stated(end, call, result=st, text=comment))
        elif isinstance(stmt, ast.Expr) and end < len(lines) and source != code:
            output = _doctest_output(lines, end)
            if output is not None:
                out.append(Stated(end, call, result=output[0], exception=output[1], text=output[2]))
    return out


def _doctest_output(lines: list[str], end: int) -> tuple[StatedType | None, str | None, str] | None:
    """The expected output after doctest line ``end`` (1-based): (kind, exception, text)."""
    block: list[str] = []
    for line in lines[end:]:
        s = line.strip()
        if not s or s.startswith((">>>", "...")):
            break
        block.append(s)
    if not block:
        return None
    if block[0].startswith("Traceback"):
        m = _TRACEBACK_LAST.match(block[-1])
        return (None, m.group("exc"), block[-1]) if m else None
    st = stated_type(" ".join(block))
    return (st, None, block[0]) if st is not None else None


def value_of(ctx: ReviewContext, claim: Claim, env: dict[str, Val | None], expr: ast.expr) -> Val | None:
    """What ``expr`` names: a project module, class, function, or an instance of a class."""
    if isinstance(expr, ast.Name):
        if expr.id in env:
            return env[expr.id]
        res = ctx.resolve(expr.id, claim) if claim.doc_path.endswith((".py", ".pyi")) else None
        if res is None:
            classes = ctx.resolver.classes_named(expr.id) if expr.id[:1].isupper() else []
            target = classes[0] if len(classes) == 1 and not ctx.maybe_stdlib(expr.id) else None
        else:
            target = res.target if res.found and not res.ambiguous else None
        return Val(target.kind, target) if target is not None and target.kind in ("class", "function") else None
    if isinstance(expr, ast.Attribute):
        base = value_of(ctx, claim, env, expr.value)
        if base is None:
            return None
        res = ctx.resolver.member(base.defn, expr.attr)
        target = res.target if res.found and not res.ambiguous else None
        if target is None or target.kind not in ("class", "function", "module"):
            return None
        if base.kind == "instance" and not base.exact and any(
            expr.attr in ctx.resolver.class_bindings(sub) for sub in ctx.subclasses(base.defn)
        ):
            return None  # a subclass may override it
        sig = ctx.signature(target) if target.kind == "function" else None
        if sig is not None and {"property", "cached_property"} & set(sig.decorators):
            return None  # a property's value, not a function: what it holds is not followed
        return Val(target.kind, target, bound=base.kind == "instance")
    if isinstance(expr, ast.Call):
        fval = value_of(ctx, claim, env, expr.func)
        if fval is None:
            return None
        if fval.kind == "class":
            return Val("instance", fval.defn)
        node = fval.defn.node
        kinds = annotation_kinds(ctx, fval.defn, node.returns) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
        named = [k[6:] for k in kinds or () if k.startswith("class:")]
        if kinds is not None and len(named) == 1 and kinds == {f"class:{named[0]}"}:
            made = ctx.resolve(named[0])
            if made.found and made.target is not None and made.target.kind == "class":
                return Val("instance", made.target, exact=False)
    return None


def _label(fn: Def) -> str:
    parts = fn.qualname.split(".")
    return ".".join(parts[-2:]) if fn.owner is not None else parts[-1]


def check_block_results(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind != "code":
        return []
    stated = statements(claim.text)
    if not stated:
        return []
    env = ctx.doc_env(claim.doc_path, claim.section)
    findings: list[Finding] = []
    for st in stated:
        fval = value_of(ctx, claim, env, st.call.func)
        if fval is None or fval.kind != "function" or not fval.defn.is_project:
            continue
        fn = fval.defn
        label, ev = _label(fn), ctx.evidence(fn)
        line = claim.start_line + st.line - 1
        shown = dotted(st.call.func) or label
        if st.exception is not None:
            exc = stated_exception(ctx, st.exception, claim)
            if exc is None:
                continue
            result, reached = judge(ctx, fn, exc)
            check = f"`{shown}(...)` raises `{st.exception}` (line {line})"
            if result:
                findings.append(ok(check, ev, aspect="raises"))
            elif result is False:
                raised = ", ".join(f"`{q.rsplit('.', 1)[-1]}`" for q in reached.raised) or "nothing"
                findings.append(bad("contradicted", check, f"line {line}: `{label}` never raises `{st.exception}` "
                                    f"(what it and its callees raise: {raised})", ev, aspect="raises"))
            continue
        if st.result is None:
            continue
        kinds = return_kinds(ctx, fn)
        if kinds is not None and st.result.name is None and any(k.startswith("class:") for k in kinds):
            continue  # an object's repr can print as anything: only a class name is compared with it
        verdict = compare(ctx, st.result, kinds, claim) if kinds is not None else None
        said = st.result.name or st.result.kind or "?"
        check = f"`{shown}(...)` gives {said} (line {line})"
        if verdict is False and kinds is not None:
            findings.append(bad("contradicted", check, f"line {line}: `{label}` returns {describe(kinds)}, so "
                                f"`{st.text.strip()}` can't be its result", ev, aspect="returns"))
        elif verdict and st.result.kind == "None" and kinds == {"None"}:
            findings.append(ok(check, ev, aspect="returns"))  # one possible value: the kind is the value
        elif verdict is None and st.result.kind == "None" and st.result.name is None:
            found = not_none(ctx, fn, st.text, fallback=True)  # "# -> None if missing" over a raise or a fallback
            if found is not None:
                findings.append(bad("contradicted", check, f"line {line}: `{label}` {found.why}",
                                    *[ctx.evidence(d) for d in found.evidence], aspect="returns"))
    return findings
