"""A bare backticked name (```load_json```, ```evaluate()```, ``:meth:`override```) that the
normal lookup can't place: the project's one function, class or method of that name.

A bare lower-case word is as often a parameter, an attribute, a settings key or a variable
of the doc's own examples, so such a word resolves only when the code has no other use for it,
unless it is written called or as a ``:func:``/``:meth:``/``:class:`` role. Several
definitions resolve only when the claim's context (its section's class, its docstring's owner,
a class the sentence or heading names) keeps exactly one.
"""

from __future__ import annotations

import ast
import io
import pathlib
import re
import sys
import weakref

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import Mention
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.project import Project
from caas_tui.review.static.model.pysig import is_property
from caas_tui.review.static.model.resolve import Resolution, external_object

_CALLABLE_ROLES = frozenset({"func", "meth", "method", "class", "function"})
_OTHER_USES: weakref.WeakKeyDictionary[Project, frozenset[str]] = weakref.WeakKeyDictionary()


def _other_uses(project: Project) -> frozenset[str]:
    """Every parameter, attribute and variable name in the project's code: a bare word the doc may mean."""
    cached = _OTHER_USES.get(project)
    if cached is not None:
        return cached
    names: set[str] = set()
    for src in project.all_modules():
        assert src.tree is not None
        for node in ast.walk(src.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                a = node.args
                names.update(p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs))
                names.update(p.arg for p in (a.vararg, a.kwarg) if p is not None)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)  # a local or module variable a docstring may speak of
            elif isinstance(node, ast.ClassDef):
                for stmt in node.body:
                    targets = stmt.targets if isinstance(stmt, ast.Assign) else \
                        [stmt.target] if isinstance(stmt, ast.AnnAssign) else []
                    names.update(t.id for t in targets if isinstance(t, ast.Name))
            elif isinstance(node, ast.keyword) and node.arg:
                names.add(node.arg)
    out = frozenset(names)
    _OTHER_USES[project] = out
    return out


def _role(claim: Claim, m: Mention) -> str | None:
    role = re.match(r":(?:py:)?(\w+):", claim.text[max(m.start, 0):]) if m.origin == "role" else None
    return role.group(1) if role is not None else None


def _guarded(ctx: ReviewContext, claim: Claim, name: str) -> bool:
    """The bare word has another plausible reading: parameter, attribute, key, doc variable,
    builtin or stdlib name, module."""
    if name in _other_uses(ctx.project) or name in ctx.project.string_literals():
        return True
    if name in ctx.doc_env(claim.doc_path, claim.section):
        return True
    if external_object(name) is not None or name in sys.stdlib_module_names or ctx.maybe_stdlib(name):
        return True
    return ctx.project.has_module(name) or any(mod.rsplit(".", 1)[-1] == name for mod in ctx.project.paths)


def _context_classes(ctx: ReviewContext, claim: Claim) -> tuple[set[int], str]:
    """Nodes of the classes the claim's docstring sits in, and the text naming classes."""
    nodes: set[int] = set()
    if claim.doc_path.endswith((".py", ".pyi")):
        owner = ctx.docstring_owner(claim.doc_path, claim.start_line)
        while owner is not None:
            if owner.kind == "class" and owner.node is not None:
                nodes.add(id(owner.node))
            owner = owner.owner
    return nodes, f"{claim.section or ''}\n{claim.text}"


def bare_fallback(ctx: ReviewContext, claim: Claim, m: Mention) -> Resolution | None:
    """The one project function/class/method a bare code span or role names, else None."""
    name = m.name
    if "." in name or m.origin not in ("code", "role") or m.raw.strip().lstrip("~!").startswith("."):
        return None
    role = _role(claim, m)
    if m.origin == "role" and role not in _CALLABLE_ROLES:
        return None  # ``:attr:`x```, ``:mod:`x```, or a role whose kind can't be read
    # written called (```name()```) or as a callable role, the writer means a callable
    explicit = m.called if m.origin == "code" else True
    if not explicit and _guarded(ctx, claim, name):
        return None
    tests = ctx.project.test_modules
    found = [d for d in ctx.resolver.defs_named(name)
             if d.is_project and d.kind in ("class", "function") and d.module is not None
             and d.module.name not in tests and not is_property(d, accessors=True)]
    if len(found) > 1:
        nodes, text = _context_classes(ctx, claim)
        found = [d for d in found if d.owner is not None and d.owner.kind == "class" and (
            (d.owner.node is not None and id(d.owner.node) in nodes)
            or re.search(rf"(?<![\w.]){re.escape(d.owner.short)}\b", text))]
    if len(found) != 1:
        return None
    return Resolution("found", target=found[0])


# Methods of the objects a doc's unbound variable is most often (strings, containers, files,
# paths, numbers): ``f.write(...)`` or ``data.get(...)`` says nothing about the project.
_COMMON_METHODS = frozenset(
    n for t in (str, bytes, list, dict, set, tuple, int, float, io.IOBase, io.TextIOWrapper, pathlib.Path) for n in dir(t)
)


def member_fallback(ctx: ReviewContext, claim: Claim, m: Mention, head: str, rest: str) -> Resolution | None:
    """``producer.flush()`` with ``producer`` bound by no block and named after no class: the
    project's one public method of that name, when it is written called (a call on an
    instance) and the name is no common method of strings, containers, files or paths."""
    if m.origin not in ("code", "call") or not m.called or "." in rest or rest.startswith("_"):
        return None
    if rest in _COMMON_METHODS or head in ctx.doc_env(claim.doc_path, claim.section) or ctx.project.has_module(head) \
            or head in sys.stdlib_module_names or external_object(head) is not None or head[:1].isupper():
        return None
    tests = ctx.project.test_modules
    found = [d for d in ctx.resolver.defs_named(rest)
             if d.is_project and d.kind == "function" and d.owner is not None and d.owner.kind == "class"
             and d.module is not None and d.module.name not in tests and not is_property(d, accessors=True)]
    if len(found) != 1:
        return None
    return Resolution("found", target=found[0])
