""""Returns itself so calls chain", "returns the system it was given", "returns `handler`
unchanged" against the function's ``return`` statements: each must hand back that very name
(``return self``, ``return system``). A ``return`` of a literal, of ``None`` (or falling off the
end), of another argument, or of a new instance of the class (``type(self)(...)``,
``copy.copy(self)``, ``replace(self, ...)``) contradicts it; any other value (a call, an
attribute) is not read, so the claim stays unchecked.
"""

from __future__ import annotations

import ast

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import FieldFact
from caas_tui.review.static.codefacts.guardatoms import exits
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.pysig import own_nodes
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.referents.subjects import subject_of
from caas_tui.review.static.wording.givenback import SELF, GivenBack, stated_given_back
from caas_tui.review.static.wording.voice import verb_start

_COPIES = frozenset({"copy", "deepcopy", "replace", "evolve"})


def _annotation_word(node: ast.expr | None) -> str:
    if node is None:
        return ""
    text = ast.unparse(node).strip("'\"")
    return text.rsplit(".", 1)[-1].lower()


def _target(fn: Def, node: ast.FunctionDef | ast.AsyncFunctionDef, gb: GivenBack) -> str | None:
    """The name the claim says comes back: ``self`` or one parameter; None when unclear."""
    args = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
    bound = fn.owner is not None and fn.owner.kind == "class" and bool(args) and args[0].arg == "self" \
        and not any(isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod") for d in node.decorator_list)
    params = args[1:] if bound else args
    if gb.what == SELF:
        return "self" if bound else None
    if gb.what.startswith("="):
        name = gb.what[1:]
        return name if any(a.arg == name for a in params) else None
    if not gb.what:
        return params[0].arg if len(params) == 1 else None
    named = [a.arg for a in params if a.arg.lower() == gb.what]
    if len(named) == 1:
        return named[0]
    typed = [a.arg for a in params if _annotation_word(a.annotation) == gb.what]
    return typed[0] if len(typed) == 1 else None


def _new_instance(value: ast.expr, owner: str) -> bool:
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    if isinstance(func, ast.Name) and func.id == owner:
        return True
    if isinstance(func, ast.Call) and isinstance(func.func, ast.Name) and func.func.id == "type":
        return True  # ``type(self)(...)``
    if isinstance(func, ast.Attribute) and func.attr == "__class__":
        return True
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    first = value.args[0] if value.args else None
    return name in _COPIES and isinstance(first, ast.Name) and first.id == "self" \
        and not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self")


def hands_back(node: ast.FunctionDef | ast.AsyncFunctionDef, target: str, owner: str) -> tuple[bool, str] | None:
    """(True, "") when every ``return`` hands back ``target``; (False, what comes back instead);
    None when a result is not read here or the function returns no value at all."""
    nodes = own_nodes(node)
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in nodes):
        return None
    returns = [n for n in nodes if isinstance(n, ast.Return)]
    if not any(r.value is not None for r in returns):
        return None  # returns nothing: ``returnclaims`` says so for any stated value
    names = {a.arg for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]}
    for r in returns:
        v = r.value
        if isinstance(v, ast.Name) and v.id == target:
            continue
        said = f"line {r.lineno}: `{ast.unparse(r)}`"
        if v is None or isinstance(v, ast.Constant):
            return False, f"hands back a literal ({said})"
        if isinstance(v, ast.Name) and v.id in names:
            return False, f"hands back `{v.id}` instead ({said})"
        if target == "self" and _new_instance(v, owner):
            return False, f"hands back a new object, not itself ({said})"
        return None
    if not exits(node.body):
        return False, "can fall off the end of its body, which hands back None"
    return True, ""


def check_given_back(ctx: ReviewContext, claim: Claim, fact: FieldFact | None, subject: Def | None) -> list[Finding]:
    if fact is not None and fact.role != "returns":
        return []
    text = "returns " + fact.desc if fact is not None else claim.text
    out: list[Finding] = []
    for gb in stated_given_back(text):
        fn = subject if fact is not None else subject_of(ctx, claim, verb_start(text, gb.start))
        if fn is None or fn.kind != "function" or not isinstance(fn.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        target = _target(fn, fn.node, gb)
        if target is None:
            continue
        owner = fn.owner.short if fn.owner is not None else ""
        judged = hands_back(fn.node, target, owner)
        if judged is None:
            continue
        said = "itself" if target == "self" else f"its argument `{target}`"
        check = f"`{fn.label}` returns {said}"
        held, why = judged
        out.append(ok(check, ctx.evidence(fn), aspect="returns") if held else
                   bad("contradicted", check, f"`{fn.label}` {why}", ctx.evidence(fn), aspect="returns"))
    return out
