"""What a guide's prose asserts about names beyond a dotted name existing.

- A bare cross-reference (``:func:`contextfilter```): Sphinx resolves it in the doc's current
  module (``.. currentmodule:: pkg.mod``), else as written, so under a current module it must
  be that module's name ("did you mean" offers the same symbol's qualified name elsewhere), and
  without one, a name the project binds nowhere is broken (removed or renamed), unless it is a
  builtin, a standard library module, or something the doc defines itself.
- An attribute or a parameter named in words ("the ``context`` attribute of a `Schema`",
  "the ``strict`` parameter of `Schema.load`", "`load`'s ``partial`` argument") against the
  owner's members or signature. A signature with ``**kwargs`` cannot rule a keyword out: no
  finding, so the claim stays unverified.
"""

from __future__ import annotations

import ast
import keyword
import re
import sys
import weakref

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import Mention, find_mentions
from caas_tui.review.claims.nonpython import classified_as_non_python
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Edit, Finding, bad, ok
from caas_tui.review.static.model.modgetattr import may_bind
from caas_tui.review.static.model.project import Project
from caas_tui.review.static.model.resolve import Def, external_object
from caas_tui.review.static.naming.docmodule import DEFINING, current_module
from caas_tui.review.static.naming.kwforward import varkw_finding
from caas_tui.review.static.naming.names import elsewhere, missing_finding, resolve_mention
from caas_tui.review.static.naming.rolekinds import module_for_object_role

_DEF_ROLES = frozenset({"func", "function", "class", "exc", "meth", "method"})
_MODULE_ROLES = frozenset({"func", "function", "class", "exc"})  # a bare method may mean the current class's
_ROLE_AT = re.compile(r":(?:py:)?(\w+):`")
_CODE = r"(?::\w+:)?`{{1,2}}~?(?P<{0}>[A-Za-z_][\w.]*?)(?:\(\))?`{{1,2}}"
_WHAT = r"(?P<what>attribute|property|parameter|argument|keyword argument|keyword|option)s?"
# "the ``x`` parameter of `f`", "the ``x`` attribute on a `C`"; "`f`'s ``x`` argument".
_OF = re.compile(rf"\b[Tt]he\s+{_CODE.format('name')}\s+{_WHAT}\s+(?:of|to|on|for)\s+(?:(?:the|a|an|any|each)\s+)?"
                 rf"{_CODE.format('owner')}(?!\s*(?:'s|\u2019s))")
_POSSESSIVE = re.compile(rf"{_CODE.format('owner')}(?:'s|\u2019s)\s+{_CODE.format('name')}\s+{_WHAT}")
# "pass ``wrap=True`` to `Grid.add`", "give `Store` a `ttl=` argument": a keyword written as
# one (``name=``) is a parameter; a bare ``name`` passed to a callable may be the doc's own value.
_KW = r"`{1,2}(?P<name>[A-Za-z_]\w*)\s*=[^`]*`{1,2}"
_PASS_KW = re.compile(rf"\b(?i:pass|passing|give|giving|add|adding|supply|supplying|set|setting)\s+(?:an?\s+|the\s+)?{_KW}"
                      rf"(?:\s+(?:argument|parameter|keyword|option|flag))?\s+(?:to|on|when\s+(?:calling|creating))\s+"
                      rf"(?:(?:the|a|an|any|each)\s+)?{_CODE.format('owner')}(?!\s*(?:'s|\u2019s|\.|\())")

_NAMES: weakref.WeakKeyDictionary[Project, frozenset[str]] = weakref.WeakKeyDictionary()
_ATTRS: weakref.WeakKeyDictionary[Project, frozenset[str]] = weakref.WeakKeyDictionary()


def _bound_anywhere(project: Project) -> frozenset[str]:
    """Every name any project module binds anywhere: definitions, assignments (``self.x`` too),
    imports. A superset of what exists, so "bound nowhere" is a safe negative."""
    cached = _NAMES.get(project)
    if cached is not None:
        return cached
    names: set[str] = set()
    for src in project.all_modules():
        names.update(src.bindings)
        names.update(src.name.split("."))
        assert src.tree is not None
        for node in ast.walk(src.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load):
                names.add(node.attr)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names.update((a.asname or a.name).split(".")[-1] for a in node.names)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
                names.add(node.value)  # ``__all__`` entries, ``setattr(obj, "name", ...)``
    out = frozenset(names)
    _NAMES[project] = out
    return out


def _set_as_attribute(project: Project) -> frozenset[str]:
    """Names the project assigns as an attribute of an object other than ``self``/``cls``
    (``wrapper.cache_clear = ...``): functions and objects that gain them at run time."""
    cached = _ATTRS.get(project)
    if cached is not None:
        return cached
    names: set[str] = set()
    for src in project.all_modules():
        assert src.tree is not None
        for node in ast.walk(src.tree):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                    and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                names.add(node.attr)
    out = frozenset(names)
    _ATTRS[project] = out
    return out


def _doc_defines(ctx: ReviewContext, claim: Claim, name: str, *, directives: bool = True) -> bool:
    """The guide defines ``name``: in an example, or (``directives``) with a directive (``.. function:: name``)."""
    text = "\n".join(ctx.doc_lines(claim.doc_path))
    n = re.escape(name)
    described = rf"|^\s*\.\.\s+(?:py:)?{DEFINING}::\s*(?:[\w.]+\.)?{n}\b" if directives else ""
    return re.search(rf"\b(?:def|class)\s+{n}\b|(?<![\w.]){n}\s*=[^=]{described}", text, re.MULTILINE) is not None


def check_undefined_roles(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    """``:func:`name``` in a guide, where ``name`` is bound nowhere in the project."""
    if claim.doc_path.endswith((".py", ".pyi")) or not ctx.project.packages:
        return []  # docstrings: ``names.unbound_in_docstring`` resolves them in their module
    findings: list[Finding] = []
    module = current_module(ctx, claim)
    for m in find_mentions(claim.text):
        if m.origin != "role" or "." in m.name:
            continue
        # ``:class:`~.Version```: Sphinx looks for that name in any module, never only the current one
        anywhere = m.raw.strip().lstrip("~!").startswith(".")
        role = _ROLE_AT.match(claim.text, m.start)
        name = m.name
        if role is None or role.group(1) not in _DEF_ROLES or keyword.iskeyword(name) or name.startswith("__"):
            continue
        if external_object(name) is not None or ctx.maybe_stdlib(name) or name in sys.stdlib_module_names:
            continue
        # under a project module, ``.. class:: name`` documents the project's ``name``: it defines nothing
        in_module = module is not None and role.group(1) in _MODULE_ROLES and not anywhere
        if _doc_defines(ctx, claim, name, directives=module is None) or classified_as_non_python(claim.text, m.start):
            continue  # a function the guide's own example defines; "the :func:`attr` filter" of a template
        if in_module and module is not None:
            findings += _in_module(ctx, claim, module, name, m)
        elif not (name in _bound_anywhere(ctx.project) or ctx.resolver.defs_named(name)):
            findings.append(undefined_name(ctx, claim, name))
    return findings


def _in_module(ctx: ReviewContext, claim: Claim, module: str, name: str, mention: Mention | None = None) -> list[Finding]:
    """A bare ``:func:`name``` under ``.. currentmodule:: module``: Sphinx looks it up there."""
    src = ctx.project.module(module)
    if src is None or src.tree is None or may_bind(src, name) or src.star_imports:
        return []
    mod = ctx.resolver.module_def(module)
    res = ctx.resolver.member(mod, name)
    if res.found and res.target is not None:
        odd = module_for_object_role(ctx, claim, mention, res.target, f"{module}.{name}") if mention else None
        if odd is not None:
            return [odd]
        return [ok(f"`{module}.{name}` exists", ctx.evidence(res.target) if res.target.is_project else ctx.evidence(mod))]
    if res.status != "missing":
        return []
    what = "(the doc's current module has no such name)"
    if elsewhere(ctx, mod, name, name):  # the same symbol, qualified: ``did you mean `pkg.other.name```
        return [missing_finding(ctx, claim, f"{module}.{name}", mod, name, what)]
    if name in _set_as_attribute(ctx.project):
        return []  # set on an object at run time (``wrapper.cache_clear = ...``): the role may mean that
    rationale = f"`{module}.{name}` does not exist {what}"
    # a near-miss among the module's names, never one of its submodules: a role names an object
    pool = {n for n in ctx.resolver.member_names(mod) if not ctx.project.has_module(f"{module}.{n}")}
    sug = ctx.suggest(mod, name, pool)
    edit = None
    if sug is not None:
        rationale += f"; did you mean `{sug.name}`?"
        if sug.unambiguous:
            edit = Edit(claim.start_line, claim.end_line, name, sug.name)
    return [bad("contradicted", f"`{module}.{name}` exists", rationale, ctx.evidence(mod), edit=edit)]


def undefined_name(ctx: ReviewContext, claim: Claim, name: str,
                   consequence: str = "so this reference cannot resolve") -> Finding:
    """``name`` binds nowhere in the project: contradicted, with a near-miss among what a
    package exports (never one of its module names) as the did-you-mean."""
    rationale = (f"`{name}` is not defined anywhere in the project (no module, class, function or "
                 f"assignment binds that name), {consequence}")
    edit = None
    ev = None
    for pkg in sorted(ctx.project.packages):
        if not ctx.project.has_module(pkg):
            continue
        mod = ctx.resolver.module_def(pkg)
        ev = ev or ctx.evidence(mod)
        # a near-miss among what the package exports, never one of its module names
        pool = {n for n in ctx.resolver.member_names(mod) if not ctx.project.has_module(f"{pkg}.{n}")}
        sug = ctx.suggest(mod, name, pool)
        if sug is not None:
            rationale += f"; did you mean `{pkg}.{sug.name}`?"
            if sug.unambiguous:
                edit = Edit(claim.start_line, claim.end_line, name, sug.name)
            break
    return bad("contradicted", f"`{name}` is defined in the project", rationale, ev, edit=edit)


def _owner(ctx: ReviewContext, claim: Claim, text: str, lo: int, hi: int) -> Def | None:
    """The one project class or function ``text`` (written between ``lo`` and ``hi``) means."""
    for m in find_mentions(claim.text):
        if m.name == text and lo <= m.start <= hi:
            res = resolve_mention(ctx, claim, m)
            target = res.target
            if res.found and not res.ambiguous and target is not None and target.is_project \
                    and target.kind in ("class", "function"):
                return target
            return None
    return None


def check_named_members(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    """An attribute or parameter named in words, against its owner."""
    findings: list[Finding] = []
    seen: set[tuple[str, str]] = set()
    for pattern in (_OF, _POSSESSIVE, _PASS_KW):
        for m in pattern.finditer(claim.text):
            name, owner_text = m.group("name"), m.group("owner")
            if "." in name or (name, owner_text) in seen:
                continue
            seen.add((name, owner_text))
            owner = _owner(ctx, claim, owner_text, m.start(), m.end())
            if owner is None:
                continue
            what = m.group("what") if "what" in pattern.groupindex else "keyword"
            if what in ("attribute", "property"):
                findings += _attribute(ctx, claim, owner, name)
            else:
                findings += _parameter(ctx, claim, owner, name)
    return findings


def _attribute(ctx: ReviewContext, claim: Claim, owner: Def, name: str) -> list[Finding]:
    if owner.kind != "class":
        return []
    res = ctx.resolver.member(owner, name)
    check = f"`{owner.short}` has attribute `{name}`"
    if res.found and res.target is not None:
        return [ok(check, ctx.evidence(res.target) if res.target.is_project else ctx.evidence(owner))]
    if res.status != "missing" or ctx.any_subclass_has(owner, name):
        return []
    sig = ctx.call_signature(owner, on_instance=True)
    if sig is not None and sig.named(name) is not None:
        return []  # a constructor argument the object may keep under another name: not a clear miss
    sug = ctx.suggest(owner, name)
    rationale = f"`{owner.short}` has no attribute `{name}` (neither the class, its bases nor its methods set it)"
    edit = None
    if sug is not None:
        rationale += f"; did you mean `{sug.name}`?"
        if sug.unambiguous:
            edit = Edit(claim.start_line, claim.end_line, name, sug.name)
    return [bad("contradicted", check, rationale, ctx.evidence(owner), edit=edit)]


def _parameter(ctx: ReviewContext, claim: Claim, owner: Def, name: str) -> list[Finding]:
    sig = ctx.call_signature(owner, on_instance=True)
    if sig is None or not sig.reliable:
        return []
    label = owner.short if owner.kind == "class" else (
        f"{owner.owner.short}.{owner.short}" if owner.owner is not None else owner.short)
    check = f"`{label}` has parameter `{name}`"
    ev = ctx.evidence(sig.fn)
    p = sig.named(name)
    if p is not None and p.kind not in ("var", "varkw"):
        return [ok(check, ev, aspect="parameters")]
    if sig.has_varkw:
        return [varkw_finding(ctx, sig, label, name)]
    pool = {q.name for q in sig.params if q.kind not in ("var", "varkw")}
    sug = ctx.suggest(sig.fn, name, pool)
    rationale = f"`{label}` has no parameter `{name}`"
    edit = None
    if sug is not None:
        rationale += f"; did you mean `{sug.name}`?"
        if sug.unambiguous:
            edit = Edit(claim.start_line, claim.end_line, name, sug.name)
    return [bad("contradicted", check, rationale, ev, edit=edit, aspect="parameters")]
