"""Checks on the names a prose or field claim mentions: does each project name exist,
and do calls written inline (```Scene.spawn(name, tolerance=1e-3)```) fit the signature."""

from __future__ import annotations

import ast
import keyword
import re

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import Mention, dotted, find_mentions, parse_inline
from caas_tui.review.claims.nonpython import not_a_python_name
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Edit, Finding, bad, ok
from caas_tui.review.static.model.modgetattr import may_bind
from caas_tui.review.static.model.resolve import UNKNOWN, Def, Resolution, external_object
from caas_tui.review.static.naming.barenames import bare_fallback, member_fallback
from caas_tui.review.static.naming.docmodule import current_module, describes_object
from caas_tui.review.static.naming.kwforward import varkw_finding
from caas_tui.review.static.naming.nouns import class_for_variable
from caas_tui.review.static.naming.rolekinds import module_for_object_role
from caas_tui.review.textutil import counted

_SECTION_SYMBOL = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


def judged_mentions(claim: Claim) -> list[Mention]:
    """Mentions that assert something about the API: roles, code spans, calls, and
    fully qualified dotted names (the head decides later whether it is the project's)."""
    seen: set[str] = set()
    out: list[Mention] = []
    for m in find_mentions(claim.text):
        if m.origin == "ident" or m.name in seen:
            continue
        seen.add(m.name)
        out.append(m)
    return out


def elsewhere(ctx: ReviewContext, owner: Def, member: str, shown: str) -> list[str]:
    """The same symbol defined elsewhere in the project, written the way ``shown`` is:
    ``pkg.TokenBucket`` -> ``pkg.ratelimit.TokenBucket``; ``Client.retry`` -> ``Session.retry``."""
    out: list[str] = []
    for d in ctx.resolver.defs_named(member):
        if not d.is_project or d.kind not in ("class", "function") or d.qualname == f"{owner.qualname}.{member}":
            continue
        if owner.kind == "class" and d.owner is not None and shown.count(".") == 1:
            out.append(f"{d.owner.short}.{member}")
        elif owner.kind == "module" and d.owner is not None:
            continue  # ``pkg.retry`` is not a method someone forgot to qualify
        else:
            out.append(d.qualname)
    return list(dict.fromkeys(out))


def missing_finding(ctx: ReviewContext, claim: Claim, name: str, owner: Def, member: str, what: str = "") -> Finding:
    parts = name.split(".")
    shown = ".".join(parts[: parts.index(member) + 1]) if member in parts else name
    rationale = f"`{shown}` does not exist" + (f" {what}" if what else "")
    same = elsewhere(ctx, owner, member, shown)
    if len(same) == 1:
        return bad("contradicted", f"`{name}` exists", rationale + f"; did you mean `{same[0]}`?", ctx.evidence(owner),
                   edit=Edit(claim.start_line, claim.end_line, shown, same[0]))
    if 1 < len(same) <= 3:
        choices = ", ".join(f"`{q}`" for q in same)
        return bad("contradicted", f"`{name}` exists", rationale + f"; did you mean one of {choices}?", ctx.evidence(owner))
    suggestion = ctx.suggest(owner, member)
    edit = None
    if suggestion is not None:
        rationale += f"; did you mean `{suggestion.name}`?"
        if suggestion.unambiguous:
            edit = Edit(claim.start_line, claim.end_line, member, suggestion.name)
    elif not what:
        rationale += f" (`{owner.qualname}` has no `{member}`)"
    return bad("contradicted", f"`{name}` exists", rationale, ctx.evidence(owner), edit=edit)


def resolve_mention(ctx: ReviewContext, claim: Claim, m: Mention) -> Resolution:
    res = ctx.resolve(m.name, claim)
    head, _, rest = m.name.partition(".")
    if res.status == "unknown" and rest and m.origin == "role" and m.raw.strip().lstrip("~!").startswith("."):
        res = suffix_lookup(ctx, m.name)
    if res.status == "unknown" and m.origin in ("code", "role") and not m.raw.strip().lstrip("~!").startswith(".") \
            and (m.origin == "role" and rest or describes_object(ctx, claim)):
        # ``.. class:: Version`` / ``:meth:`Version.parse``` under ``.. module:: pkg.version``: Sphinx's
        # reading (a bare role is ``prosenames``' to judge)
        module = current_module(ctx, claim) if not ctx.project.is_project(m.name) else None
        if module is not None:
            mod = ctx.resolver.module_def(module)
            walked = ctx.resolver.walk(mod, m.name.split("."))
            # a role falls back to the name as written (``:class:`asyncio.Runner```): the module must
            # have the head for a missing member to count; a description documents the module's own name
            if walked.found or describes_object(ctx, claim) or ctx.resolver.member(mod, head).found:
                res = walked
    if res.status == "unknown" and rest and m.origin in ("code", "role", "call"):
        # ``scene.spawn`` where an earlier code block of this doc did ``scene = Scene()``.
        val = ctx.doc_env(claim.doc_path, claim.section).get(head)
        if val is not None:
            res = ctx.resolver.walk(val.defn, rest.split("."))
            if res.status == "missing" and not val.exact and res.member and ctx.any_subclass_has(val.defn, res.member):
                return UNKNOWN
        elif not ctx.project.has_module(head):
            res = named_instance(ctx, claim, head, rest) or member_fallback(ctx, claim, m, head, rest) or res
    if not rest and (res.status == "unknown" or res.ambiguous):
        res = bare_fallback(ctx, claim, m) or res
    return res


def named_instance(ctx: ReviewContext, claim: Claim, head: str, rest: str) -> Resolution | None:
    """``store.put(key)`` with no block binding ``store``: an instance of the one project class
    the variable is named after. A member it lacks counts only when the doc names that class,
    so the reader can tell which object is meant."""
    cls = class_for_variable(ctx, head)
    if cls is None:
        return None
    res = ctx.resolver.walk(cls, rest.split("."))
    if res.found:
        return res
    if res.status == "missing" and res.member and not ctx.any_subclass_has(cls, res.member) \
            and re.search(rf"\b{re.escape(cls.short)}\b", "\n".join(ctx.doc_lines(claim.doc_path))):
        return res
    return None


def suffix_lookup(ctx: ReviewContext, name: str) -> Resolution:
    """Sphinx's reading of a role target with a leading dot (``.abc.Limiter.set``): any
    project module whose path ends with the target's module part (``pkg.abc``). Only one
    distinct answer counts."""
    parts = name.split(".")
    results: dict[object, Resolution] = {}

    def key(d: Def) -> object:
        return id(d.node) if d.node is not None else d.qualname

    for i in range(len(parts) - 1, 0, -1):
        tail = "." + ".".join(parts[:i])
        for mod in sorted(ctx.project.paths):
            if mod.endswith(tail) and mod not in ctx.project.test_modules:
                res = ctx.resolver.walk(ctx.resolver.module_def(mod), parts[i:])
                if res.found and res.target is not None:
                    results.setdefault(key(res.target), res)
                elif res.status == "missing" and res.owner is not None:
                    results.setdefault((key(res.owner), res.member), res)
        if results:
            break
    return next(iter(results.values())) if len(results) == 1 else UNKNOWN


def unbound_in_docstring(ctx: ReviewContext, claim: Claim, m: Mention) -> Finding | None:
    """A bare cross-reference (``:func:`helper```, or ```helper()``` in a module or class
    docstring) to a name the docstring's module neither defines nor imports: Sphinx and
    readers look it up there, so it is broken."""
    if not claim.doc_path.endswith((".py", ".pyi")) or "." in m.name or m.origin not in ("role", "code"):
        return None
    role = re.match(r":(?:py:)?(\w+):", claim.text[max(m.start, 0):]) if m.origin == "role" else None
    if m.origin == "role":
        if m.raw.strip().lstrip("~!").startswith(".") or (role is not None and role.group(1) == "mod"):
            return None
    elif not m.called:
        return None
    src = ctx.project.module_for_path(claim.doc_path)
    if src is None or src.tree is None or may_bind(src, m.name) or src.star_imports or m.name in src.bindings:
        return None
    if keyword.iskeyword(m.name) or external_object(m.name) is not None or ctx.project.has_module(m.name):
        return None
    # API docs usually render a submodule's docstrings under the package (``currentmodule:: pkg``).
    parts = src.name.split(".")
    for i in range(len(parts) - 1, 0, -1):
        if ctx.resolver.walk(ctx.resolver.module_def(".".join(parts[:i])), [m.name]).status != "missing":
            return None
    owner = ctx.docstring_owner(claim.doc_path, claim.start_line)
    if owner is not None and owner.kind == "function":
        if m.origin == "code":
            return None  # ``progress()`` in a function's docstring may be a parameter or a callback
        sig = ctx.signature(owner)
        if sig is None or sig.named(m.name) is not None:
            return None  # ``:func:`object_type``` naming the function's own parameter
    if role is not None and role.group(1) in ("meth", "attr", "method") and ctx.resolver.defs_named(m.name):
        return None  # a method of some other class the reader knows from context
    cls = owner if owner is not None and owner.kind == "class" else owner.owner if owner is not None else None
    while cls is not None:
        status = ctx.resolver.member(cls, m.name).status
        if status != "missing":
            return None
        cls = cls.owner
    mod = ctx.resolver.module_def(src.name)
    if m.origin == "code" and not elsewhere(ctx, mod, m.name, m.name) and ctx.suggest(mod, m.name) is None:
        return None  # ```fn(scene, dt)```: a placeholder for a shape, unless the name is a real symbol
    return missing_finding(ctx, claim, m.name, mod, m.name, f"in `{src.name}` (it neither defines nor imports it)")


def read_as_key(ctx: ReviewContext, name: str) -> bool:
    """The code has ``name`` as a string (a key it reads); for ``pkg.key`` with ``pkg`` a
    top-level package, the lower-case ``key`` alone will do (``S('reload_templates', ...)``)."""
    literals = ctx.project.string_literals()
    if name in literals:
        return True
    head, _, key = name.partition(".")
    return head in ctx.project.packages and "." not in key and key.islower() and key in literals


def check_mentions(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    findings: list[Finding] = []
    for m in judged_mentions(claim):
        if m.origin == "dotted" and not ctx.project.is_project(m.name):
            continue
        unbound = unbound_in_docstring(ctx, claim, m)
        if unbound is not None:
            findings.append(unbound)
            continue
        bare = "." not in m.name
        if bare and not (m.called or m.name[:1].isupper()):
            # a lone lower-case word in backticks: a variable, parameter or id, unless it can
            # only be the project's one callable of that name
            lone = bare_fallback(ctx, claim, m)
            if lone is not None and lone.target is not None:
                findings.append(ok(f"`{m.name}` exists", ctx.evidence(lone.target)))
            continue
        res = resolve_mention(ctx, claim, m)
        target = res.target
        if res.found and target is not None and target.is_project:
            odd = module_for_object_role(ctx, claim, m, target, m.name)
            if odd is not None:
                findings.append(odd)
                continue
            if bare and target.kind not in ("class", "function"):
                continue
            findings.append(ok(f"`{m.name}` exists", ctx.evidence(target)))
        elif res.status == "missing" and res.owner is not None and res.member is not None:
            if not ctx.project.is_project(m.name) and ctx.maybe_stdlib(m.name):
                continue  # ``Path.read_text`` may well mean pathlib's Path
            if m.origin != "role" and not_a_python_name(m.name, claim.text, m.start, "\n".join(
                    ctx.doc_lines(claim.doc_path)), qualified=ctx.project.is_project(m.name)):
                continue  # ``app.py``, the endpoint ``admin.index``: a file or a string, not a symbol
            if m.origin != "role" and read_as_key(ctx, m.name):
                continue  # ``pyramid.reload_templates``: a settings key the code reads, not a symbol
            findings.append(missing_finding(ctx, claim, m.name, res.owner, res.member))
    return findings


def section_subject(ctx: ReviewContext, claim: Claim) -> Def | None:
    """The function or class a docstring claim belongs to (``claim.section``)."""
    section = claim.section or ""
    if not _SECTION_SYMBOL.fullmatch(section) or not ctx.project.is_project(section):
        return None
    if claim.doc_path.endswith((".py", ".pyi")):
        # By position: a property setter shares its getter's name but has its own docstring.
        return ctx.docstring_owner(claim.doc_path, claim.start_line)
    res = ctx.resolve(section)
    if res.found and res.target is not None and res.target.kind in ("function", "class"):
        return res.target
    return None


def callable_mentions(ctx: ReviewContext, claim: Claim) -> list[tuple[int, Def]]:
    """(offset, definition) of every callable the claim names unambiguously."""
    out: list[tuple[int, Def]] = []
    for m in find_mentions(claim.text):
        if m.origin in ("ident",) or (m.origin == "dotted" and not ctx.project.is_project(m.name)):
            continue
        res = resolve_mention(ctx, claim, m)
        target = res.target
        if res.found and not res.ambiguous and target is not None and target.is_project \
                and target.kind in ("function", "class"):
            out.append((m.start, target))
    return out


_PRONOUN = re.compile(r"[,;:]\s*(?:this|it|which|these|they)\b", re.IGNORECASE)
_COMPARED = re.compile(r"\b(?:unlike|like|than|see|except|as with)\s*:?\s*$", re.IGNORECASE)


def _aside(text: str, pos: int, offset: int) -> bool:
    """A mention in a closed parenthesis (``(see :meth:`x`)``) or a comparison (``unlike `x```):
    not the sentence's subject."""
    head = text[:pos]
    if head.count("(") > head.count(")") and ")" in text[pos:offset]:
        return True
    return bool(_COMPARED.search(head))


def subject_before(ctx: ReviewContext, claim: Claim, offset: int) -> Def | None:
    """The one callable named before ``offset`` (the sentence's subject), or the
    docstring's owner when none is named; None when it is ambiguous."""
    text = claim.text
    mentions = [(pos, d) for pos, d in callable_mentions(ctx, claim) if pos < offset and not _aside(text, pos, offset)]
    if mentions and _PRONOUN.search(text[mentions[-1][0]:offset]):
        return section_subject(ctx, claim)  # "Unlike `x`, this never ...": the subject is the docstring's own
    before = {id(d.node): d for _, d in mentions}
    if len(before) == 1:
        return next(iter(before.values()))
    if not before:
        return section_subject(ctx, claim)
    return None


def check_call_args(
    ctx: ReviewContext, claim: Claim, call: ast.Call, target: Def, *, on_instance: bool,
    strict: bool, line: tuple[int, int] | None = None,
) -> list[Finding]:
    """Keyword names and positional count of ``call`` against ``target``'s signature;
    ``strict`` (code blocks) also reports missing required parameters as ``incomplete``."""
    sig = ctx.call_signature(target, on_instance=on_instance)
    if sig is None or not sig.reliable:
        return []
    span = line or (claim.start_line, claim.end_line)
    ev = ctx.evidence(sig.fn)
    fn_name = sig.fn.qualname.rsplit(".", 2)[-2] + "." + sig.fn.short if sig.fn.owner else sig.fn.short
    if target.kind == "class":
        fn_name = target.short
    findings: list[Finding] = []
    # ``f(a, ...)``: the ellipsis stands for "more arguments", so counts can't be judged.
    starred = any(isinstance(a, ast.Starred) or (isinstance(a, ast.Constant) and a.value is Ellipsis) for a in call.args)
    double = any(k.arg is None for k in call.keywords)
    params = {p.name: p for p in sig.params if p.kind not in ("var", "varkw")}
    for kw in call.keywords:
        if kw.arg is None:
            continue
        p = params.get(kw.arg)
        if p is not None and p.kind != "posonly":
            findings.append(ok(f"`{fn_name}` has parameter `{kw.arg}`", ev, aspect="parameters"))
        elif sig.has_varkw:
            findings.append(varkw_finding(ctx, sig, fn_name, kw.arg))
        else:
            passed = {k.arg for k in call.keywords if k.arg} | {p.name for p in sig.positional[: len(call.args)]}
            pool = {q for q, pp in params.items() if pp.kind != "posonly" and q not in passed}
            sug = ctx.suggest(sig.fn, kw.arg, pool)
            rationale = f"`{fn_name}` has no parameter `{kw.arg}`"
            edit = None
            if sug is not None:
                rationale += f"; did you mean `{sug.name}`?"
                if sug.unambiguous:
                    edit = Edit(span[0], span[1], kw.arg, sug.name)
            findings.append(bad("contradicted", f"`{fn_name}` has parameter `{kw.arg}`", rationale, ev, edit=edit, aspect="parameters"))
    positional = sig.positional
    if not starred:
        given = len(call.args)
        if given > len(positional) and not sig.has_var:
            findings.append(bad(
                "contradicted", f"`{fn_name}` accepts {counted(given, 'positional argument')}",
                f"`{fn_name}` takes at most {counted(len(positional), 'positional argument')} ({given} given)", ev, aspect="arity",
            ))
        elif given <= len(positional) or sig.has_var:
            findings.append(ok(f"`{fn_name}` accepts {counted(given, 'positional argument')}", ev, aspect="arity"))
    written = [a.id for a in call.args if isinstance(a, ast.Name)]
    order = [p.name for p in positional[: len(written)]]
    if claim.kind != "code" and not starred and len(written) == len(call.args) > 1 and written != order \
            and sorted(written) == sorted(order):
        # ``copy(dst, src)`` in prose: the signature's own names, in another order
        findings.append(bad("contradicted", f"`{fn_name}` takes its arguments in the order written",
                            f"`{fn_name}` takes `{'`, `'.join(order)}` in that order, not `{'`, `'.join(written)}`", ev,
                            edit=Edit(span[0], span[1], ", ".join(written), ", ".join(order)), aspect="parameters"))
    if strict and not starred and not double:
        covered = {p.name for p in positional[: len(call.args)]} | {k.arg for k in call.keywords if k.arg}
        missing = [p.name for p in sig.params if p.required and p.name not in covered]
        if missing:
            names = ", ".join(f"`{m}`" for m in missing)
            findings.append(bad(
                "incomplete", f"call to `{fn_name}` passes every required parameter",
                f"call to `{fn_name}` omits required parameter{'s' if len(missing) > 1 else ''} {names}", ev, aspect="parameters",
            ))
        else:
            findings.append(ok(f"call to `{fn_name}` passes every required parameter", ev, aspect="parameters"))
    return findings


def inline_calls(ctx: ReviewContext, claim: Claim) -> list[tuple[Mention, ast.Call, Def]]:
    """Calls written in backticks in prose, each with the project callable it calls."""
    out: list[tuple[Mention, ast.Call, Def]] = []
    for m in find_mentions(claim.text):
        if m.origin != "code" or "(" not in m.raw or m.raw.strip().endswith("()"):
            continue
        call = parse_inline(m.raw.strip().removeprefix("@"))
        if not isinstance(call, ast.Call):
            continue
        name = dotted(call.func)
        if name is None or name != m.name:
            continue
        imported = ctx.doc_env(claim.doc_path, claim.section).get(name) if "." not in name else None
        if imported is not None and imported.kind in ("function", "class") and not imported.bound \
                and imported.defn.is_project:
            # ``fetch(url, verbose=True)`` after a block did ``from pkg.net import fetch``: the
            # doc's own import says which callable the bare name is.
            out.append((m, call, imported.defn))
            continue
        res = resolve_mention(ctx, claim, m)
        if not res.found or res.ambiguous or res.target is None or not res.target.is_project:
            continue
        export = ctx.resolver.exported(name) if "." not in name and res.target.kind != "class" else None
        if "." not in name and res.target.kind != "class" and (export is None or export.node is not res.target.node):
            # ``progress(done, total)``: a bare name may be any callable (a parameter, a callback),
            # unless it is what the package exports under that name (``pre_load(pass_many=True)``)
            continue
        out.append((m, call, res.target))
    return out


def check_inline_calls(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    """Calls written in backticks in prose: keyword names, positional count and required
    parameters (``f(a, ...)`` and ``f()`` abbreviate, so they are not judged for what's missing).
    ``Scene.spawn(x)`` in prose means "call spawn on a scene"; written with arguments (and no
    ``...``) it is a call like one in a code block, judged the same way."""
    findings: list[Finding] = []
    for _, call, target in inline_calls(ctx, claim):
        findings.extend(check_call_args(ctx, claim, call, target, on_instance=True, strict=True))
    return findings
