"""Names a guide writes for API that real projects drop between releases, in the forms the
name checks of ``names``/``prosenames`` do not read:

- ``Class.member`` where ``Class`` is also a common standard-library class name (``Request``,
  ``Response``, ``Session``): in a project whose top-level package exports a class of that
  name, the guide means the project's class (unless the doc imports the name from elsewhere).
- A member named in words with more than "the ``x`` attribute of `C`": a parenthesis in
  between ("the ``context`` attribute (a dictionary) of a `Schema`"), a method or decorator
  ("the ``before_request`` decorator of `Flask`"), "`C` has a ``x`` attribute".
- A parameter named in words with a verb: "`f` accepts a ``timeout`` argument", and a
  keyword written as code next to the call it belongs to ("call `f` with ``name="x"``").
"""

from __future__ import annotations

import re

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import find_mentions
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.kwforward import varkw_finding
from caas_tui.review.static.naming.names import missing_finding, subject_before

_CODE = r"(?::\w+:)?`{{1,2}}~?(?P<{0}>[A-Za-z_][\w.]*?)(?:\(\))?`{{1,2}}"
_PAREN = r"(?:\s*\([^()\n]{1,60}\))?"
_ART = r"(?:(?:the|a|an|any|each|every|your)\s+)?"
_MEMBER_WORD = r"(?P<what>attribute|property|method|decorator|classmethod|staticmethod)s?"
_PARAM_WORD = r"(?:argument|parameter|keyword argument|keyword|kwarg)s?"
# "the ``x`` attribute (a dict) of a `C`", "the ``x`` method of `C`" (the plain attribute form is prosenames')
_MEMBER_OF = re.compile(
    rf"\b[Tt]he\s+{_CODE.format('name')}\s+{_MEMBER_WORD}{_PAREN}\s+(?:of|on)\s+{_ART}{_CODE.format('owner')}"
    rf"(?!\s*(?:'s|\u2019s))")
# "`C` has a ``x`` attribute", "`C` objects provide the ``x`` method"
_HAS_MEMBER = re.compile(
    rf"{_CODE.format('owner')}(?:\s+(?:class|classes|object|objects|instance|instances))?\s+"
    rf"(?:has|have|provides?|exposes?|offers?)\s+{_ART}{_CODE.format('name')}\s+{_MEMBER_WORD}")
# "`C`'s ``x`` method"
_POSS_MEMBER = re.compile(
    rf"{_CODE.format('owner')}(?:'s|\u2019s)\s+{_CODE.format('name')}\s+"
    rf"(?P<what>method|decorator|classmethod|staticmethod)s?")
# "`f` accepts a ``timeout`` argument", "`f` also takes the ``x`` and ``y`` parameters"
_TAKES = re.compile(
    rf"{_CODE.format('owner')}(?:\s+(?:also|now|optionally|still))?\s+(?:takes|accepts|has|supports|receives)\s+"
    rf"{_ART}(?:(?:new|optional|extra|additional|keyword)\s+)?{_CODE.format('name')}\s+{_PARAM_WORD}\b")
_KEYWORD_SPAN = re.compile(r"``?(?P<name>[a-z_]\w*)=(?!=)[^`\n]*``?")
_WITH = re.compile(r"\b(?:with|passing)\s+$", re.IGNORECASE)
_IMPORT = re.compile(r"^\s*from\s+([\w.]+)\s+import\s+([^\n]+)$", re.MULTILINE)


def _owner_at(ctx: ReviewContext, claim: Claim, lo: int, hi: int) -> Def | None:
    """The one project class or function the mention written between ``lo`` and ``hi`` names."""
    for m in find_mentions(claim.text):
        if lo <= m.start < hi and m.origin in ("role", "code"):
            target = project_target(ctx, claim, m.name)
            if target is not None and target.kind in ("class", "function"):
                return target
            return None
    return None


def imported_elsewhere(ctx: ReviewContext, claim: Claim, name: str) -> bool:
    """The doc imports ``name`` from a module outside the project (``from requests import Session``)."""
    text = "\n".join(ctx.doc_lines(claim.doc_path))
    for m in _IMPORT.finditer(text):
        names = {p.split(" as ")[-1].strip(" ()") for p in m.group(2).split(",")}
        if name in names and not ctx.project.is_project(m.group(1)):
            return True
    return False


def project_target(ctx: ReviewContext, claim: Claim, name: str) -> Def | None:
    """What ``name`` (``Response`` or ``pkg.Response``) means in the project's own guide."""
    if imported_elsewhere(ctx, claim, name.split(".")[0]):
        return None  # the doc's ``from requests import Response``: that library's class
    res = ctx.resolve(name, claim)
    if res.found and not res.ambiguous and res.target is not None and res.target.is_project:
        return res.target
    if "." not in name and (res.ambiguous or ctx.maybe_stdlib(name)):
        return ctx.resolver.exported(name)  # several classes of that name: the one the package exports
    return None


def check_stdlib_named(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    """``Response.charset`` where the project exports its own ``Response`` (``names`` leaves such
    names alone: they may mean the standard library's class)."""
    if claim.doc_path.endswith((".py", ".pyi")):
        return []
    findings: list[Finding] = []
    seen: set[str] = set()
    for m in find_mentions(claim.text):
        head, _, rest = m.name.partition(".")
        if m.origin not in ("role", "code") or not rest or m.name in seen or not ctx.maybe_stdlib(head):
            continue
        seen.add(m.name)
        cls = ctx.resolver.exported(head)
        if cls is None or cls.kind != "class" or imported_elsewhere(ctx, claim, head):
            continue
        res = ctx.resolver.walk(cls, rest.split("."))
        if res.found and res.target is not None:
            findings.append(ok(f"`{m.name}` exists", ctx.evidence(res.target) if res.target.is_project
                               else ctx.evidence(cls)))
        elif res.status == "missing" and res.owner is not None and res.member is not None:
            if res.owner.kind == "class" and ctx.any_subclass_has(res.owner, res.member):
                continue  # a subclass the reader may hold has it
            findings.append(missing_finding(ctx, claim, m.name, res.owner, res.member))
    return findings


def check_worded_members(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    """Members and parameters named in the wordings listed in the module docstring."""
    if claim.kind == "code":
        return []
    findings: list[Finding] = []
    seen: set[tuple[str, str]] = set()
    for pattern in (_MEMBER_OF, _HAS_MEMBER, _POSS_MEMBER, _TAKES):
        for m in pattern.finditer(claim.text):
            name, owner_text = m.group("name"), m.group("owner")
            if "." in name or name.startswith("__") or (name, owner_text) in seen:
                continue
            what = m.groupdict().get("what") or "parameter"
            # the plain "the ``x`` attribute of `C`" is prosenames': only what it leaves undecided is added
            plain = pattern is _MEMBER_OF and what in ("attribute", "property") and not re.search(
                r"\)\s+(?:of|on)\b", m.group(0))
            seen.add((name, owner_text))
            lo = m.start("owner") - 8  # a role starts before the name: ":class:`C`"
            owner = _owner_at(ctx, claim, max(lo, 0), m.end("owner") + 2)
            if owner is None:
                continue
            found = param_finding(ctx, owner, name) if what == "parameter" else _member(ctx, claim, owner, name)
            findings += [f for f in found if f.status == "unchecked"] if plain else found
    for m in _KEYWORD_SPAN.finditer(claim.text):
        if not _WITH.search(claim.text[max(0, m.start() - 12): m.start()]):
            continue
        owner = subject_before(ctx, claim, m.start())
        name = m.group("name")
        # "call :func:`f` with ``x=1``": the call is named as a role or a capitalised class, not a
        # bare word that may be the name of an option (``prompt``) as much as of a function
        if owner is None or (name, owner.qualname) in seen or not _named_as_api(claim.text[: m.start()], owner.short):
            continue
        seen.add((name, owner.qualname))
        findings += param_finding(ctx, owner, name)
    return findings


def _named_as_api(before: str, short: str) -> bool:
    return re.search(rf":\w+:`~?(?:[\w.]+\.)?{re.escape(short)}(?:\(\))?`|``?{re.escape(short)}\(\)``?", before) is not None \
        or short[:1].isupper()


def _member(ctx: ReviewContext, claim: Claim, owner: Def, name: str) -> list[Finding]:
    if owner.kind != "class":
        return []
    res = ctx.resolver.member(owner, name)
    if res.found and res.target is not None:
        return [ok(f"`{owner.short}` has `{name}`", ctx.evidence(res.target) if res.target.is_project
                   else ctx.evidence(owner))]
    if res.status == "unknown":
        return [Finding("unchecked", f"`{owner.short}` has `{name}`",
                        f"the members of `{owner.short}` cannot all be listed (a metaclass, a class decorator or an "
                        f"unresolved base may add them), so `{name}` was not checked", (), None, ("names",))]
    if res.status != "missing" or ctx.any_subclass_has(owner, name):
        return []
    sig = ctx.call_signature(owner, on_instance=True)
    if sig is not None and sig.named(name) is not None:
        return []  # a constructor argument the object may keep under another name
    return [missing_finding(ctx, claim, f"{owner.short}.{name}", owner, name,
                            "(neither the class, its bases nor its methods define it)")]


def param_finding(ctx: ReviewContext, owner: Def, name: str) -> list[Finding]:
    sig = ctx.call_signature(owner, on_instance=True)
    if sig is None or not sig.reliable:
        return []
    label = owner.short if owner.kind == "class" or owner.owner is None else f"{owner.owner.short}.{owner.short}"
    check = f"`{label}` has parameter `{name}`"
    ev = ctx.evidence(sig.fn)
    p = sig.named(name)
    if p is not None and p.kind not in ("var", "varkw", "posonly"):
        return [ok(check, ev, aspect="parameters")]
    if sig.has_varkw:
        return [varkw_finding(ctx, sig, label, name)]
    pool = {q.name for q in sig.params if q.kind not in ("var", "varkw", "posonly")}
    sug = ctx.suggest(sig.fn, name, pool)
    rationale = f"`{label}` has no parameter `{name}`" + (f"; did you mean `{sug.name}`?" if sug is not None else "")
    return [bad("contradicted", check, rationale, ev, aspect="parameters")]
