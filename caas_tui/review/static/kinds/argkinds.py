"""Arguments a doc's code passes against the parameter's annotation: a class object where
the parameter takes a ``str`` (``get_component(ColliderComponent)`` for ``attr_id: str``),
a string literal where it takes a number, a number where it takes a string, a value a
``Literal[...]`` annotation does not list.

Only annotations that resolve to plain builtin kinds are compared (``type[X]``, unions with
unknown parts, ``Any``, ``object`` never are); a bool is an int, and an int passes for a
float, as in Python.
"""

from __future__ import annotations

import ast
import re

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.blocks.blockresults import value_of
from caas_tui.review.static.blocks.codeblocks import parse_block
from caas_tui.review.static.codefacts.rettypes import annotation_kinds
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad
from caas_tui.review.static.model.pysig import Signature

_SCALARS = frozenset({"str", "int", "float", "bool", "bytes", "list", "tuple", "dict", "set", "frozenset", "None"})
_LITERAL = {str: "str", int: "int", float: "float", bool: "bool", bytes: "bytes"}
# What a value of each kind may be passed as.
_ACCEPTS = {"str": {"str"}, "bytes": {"bytes"}, "int": {"int", "float", "bool"}, "bool": {"bool", "int", "float"},
            "float": {"float", "int"}}


_SHOWS_ERROR = re.compile(r"Traceback \(most recent call last\)|\braises\b|\btry:|#\s*(?:error|raises|fails)",
                          re.IGNORECASE)


def _bind(sig: Signature, call: ast.Call) -> list[tuple[str, ast.expr]]:
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return []
    names = [p.name for p in sig.positional]
    bound = list(zip(names, call.args, strict=False))
    return bound + [(k.arg, k.value) for k in call.keywords if k.arg]


def literal_values(annotation: ast.expr) -> tuple[object, ...] | None:
    """The values of a ``Literal["a", "b"]`` annotation (also inside ``Optional``/``| None``)."""
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        left, right = literal_values(annotation.left), literal_values(annotation.right)
        none = (None,)
        if left is not None and isinstance(annotation.right, ast.Constant) and annotation.right.value is None:
            return left + none
        if right is not None and isinstance(annotation.left, ast.Constant) and annotation.left.value is None:
            return right + none
        return None
    if not isinstance(annotation, ast.Subscript) or (dotted(annotation.value) or "").rsplit(".", 1)[-1] != "Literal":
        return None
    elts = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
    if not all(isinstance(e, ast.Constant) for e in elts):
        return None
    return tuple(e.value for e in elts if isinstance(e, ast.Constant))


def _literal_finding(ctx: ReviewContext, claim: Claim, sig: Signature, call: ast.Call, name: str, arg: ast.Constant,
                     annotation: ast.expr) -> Finding:
    label = sig.fn.qualname.rsplit(".", 2)
    shown = ".".join(label[-2:]) if sig.fn.owner is not None else label[-1]
    line = claim.start_line + getattr(call, "lineno", 1) - 1
    return bad("contradicted", f"`{shown}` argument `{name}` is one of its values",
               f"line {line}: `{shown}` takes `{name}: {ast.unparse(annotation)}`; {ast.unparse(arg)} is not one of them",
               ctx.evidence(sig.fn), aspect="parameters")


def check_arg_kinds(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind != "code" or _SHOWS_ERROR.search(claim.text):
        return []  # a block that shows an error may pass a wrong value on purpose
    tree = parse_block(claim.text)
    if tree is None:
        return []
    env = ctx.doc_env(claim.doc_path, claim.section)
    findings: list[Finding] = []
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
        fval = value_of(ctx, claim, env, call.func)
        if fval is None or fval.kind not in ("function", "class") or not fval.defn.is_project:
            continue
        sig = ctx.call_signature(fval.defn, on_instance=fval.bound)
        if sig is None or not sig.reliable:
            continue
        for name, arg in _bind(sig, call):
            p = sig.named(name)
            if p is None or p.annotation is None:
                continue
            allowed = literal_values(p.annotation)
            if allowed is not None and isinstance(arg, ast.Constant) and type(arg.value) in (str, int, bool):
                if arg.value not in allowed and not any(type(v) is bool for v in allowed):
                    findings.append(_literal_finding(ctx, claim, sig, call, name, arg, p.annotation))
                continue
            kinds = annotation_kinds(ctx, sig.fn, p.annotation)
            if kinds is None or not kinds <= _SCALARS:
                continue
            given: str | None = None
            if isinstance(arg, ast.Constant) and type(arg.value) in _LITERAL:
                given = _LITERAL[type(arg.value)]
                if kinds & _ACCEPTS[given]:
                    continue
                what = f"the {given} {ast.unparse(arg)}"
            elif isinstance(arg, (ast.Name, ast.Attribute)):
                val = value_of(ctx, claim, env, arg)
                if val is None or val.kind != "class" or not val.defn.is_project:
                    continue
                what = f"the class `{dotted(arg) or val.defn.short}`"
            else:
                continue
            label = sig.fn.qualname.rsplit(".", 2)
            shown = ".".join(label[-2:]) if sig.fn.owner is not None else label[-1]
            line = claim.start_line + getattr(call, "lineno", 1) - 1
            wanted = " | ".join(sorted(kinds))
            findings.append(bad("contradicted", f"`{shown}` argument `{name}` has the annotated kind",
                                f"line {line}: `{shown}` takes `{name}: {ast.unparse(p.annotation)}`; the code passes "
                                f"{what}, not a {wanted}", ctx.evidence(sig.fn), aspect="parameters"))
    return findings
