"""``X is a `C``` claims: an attribute's class, or a class's base.

"`scene.events` is an `EventBus`" states the class of what ``Scene.events`` holds;
"`SpinSystem` is a `ManagedSystem`" states a base class. Both are judged against the
code: the attribute's class as one place in the owner says it (``delegation``), the
class's resolved bases. A claim either form can't decide keeps its ``type`` kind
unchecked (``assertions`` sorts it as one).
"""

from __future__ import annotations

import ast
import builtins
import re

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import parse_field
from caas_tui.review.claims.mentions import find_mentions, role_target
from caas_tui.review.static.codefacts.delegation import attribute_class
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import resolve_mention
from caas_tui.review.static.wording.assertions import IS_A


def _class_of(ctx: ReviewContext, claim: Claim, span: str) -> Def | None:
    for m in find_mentions(span):
        res = resolve_mention(ctx, claim, m)
        target = res.target if res.found and not res.ambiguous else None
        return target if target is not None and target.kind == "class" and target.is_project else None
    return None


def _subject(ctx: ReviewContext, claim: Claim, span: str) -> Def | None:
    for m in find_mentions(span):
        res = resolve_mention(ctx, claim, m)
        return res.target if res.found and not res.ambiguous else None
    return None


def _ancestors(ctx: ReviewContext, cls: Def) -> tuple[list[Def], bool]:
    """Every project base of ``cls`` (transitively) and whether one could not be resolved."""
    seen: dict[int, Def] = {}
    unknown = False
    todo = [cls]
    while todo:
        cur = todo.pop()
        if not isinstance(cur.node, ast.ClassDef) or cur.module is None:
            unknown = True
            continue
        bases, missing = ctx.resolver.bases(cur)
        unknown = unknown or missing
        for b in bases:
            if b.kind == "class" and b.node is not None and id(b.node) not in seen:
                seen[id(b.node)] = b
                todo.append(b)
            elif b.kind != "class" or b.node is None:
                unknown = True
    return list(seen.values()), unknown


def _is_kind_of(ctx: ReviewContext, cls: Def, wanted: Def) -> bool | None:
    if cls.node is wanted.node:
        return True
    ancestors, unknown = _ancestors(ctx, cls)
    if any(a.node is wanted.node for a in ancestors):
        return True
    return None if unknown else False


def check_is_a(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind == "code":
        return []
    out: list[Finding] = []
    for m in IS_A.finditer(claim.text):
        wanted = _class_of(ctx, claim, m.group("cls"))
        subject = _subject(ctx, claim, m.group("subject"))
        if wanted is None or subject is None or not subject.is_project:
            continue
        rel = (m.group("rel") or "").lower()
        if subject.kind == "class" and not rel.startswith("instance"):
            actual, what = subject, f"`{subject.short}`"
        elif subject.kind != "class" and not rel.startswith("subclass") and subject.owner is not None:
            found = attribute_class(ctx, subject.owner, subject.short)
            if found is None:
                continue
            actual, what = found, f"`{subject.owner.short}.{subject.short}` holds a `{found.short}`, which"
        else:
            continue
        verdict = _is_kind_of(ctx, actual, wanted)
        article = "an" if wanted.short[:1] in "AEIOU" else "a"
        fact = f"{m.group('subject')} is {article} `{wanted.short}`"
        if verdict is True:
            out.append(ok(fact, ctx.evidence(actual), aspect="type"))
        elif verdict is False:
            out.append(bad("contradicted", fact, f"{what} is not {article} `{wanted.short}` (nor derived from it)",
                           ctx.evidence(actual), ctx.evidence(wanted), aspect="type"))
    return out


_CLS = r"(?::\w+:`~?(?P<role>[\w.]+)`|``?(?P<code>[\w.]+)``?)"
# In a raises entry the pronoun is the exception: "it is a ``ValueError``", "``except KeyError`` catches it".
_PRONOUN_IS = re.compile(
    rf"\b(?:it|this|which)\s+(?:is\s+(?:also\s+)?(?:an?\s+)?(?:subclass\s+of\s+(?:an?\s+)?)?|"
    rf"(?:derives|inherits)\s+from\s+|subclasses\s+){_CLS}", re.IGNORECASE)
_EXCEPT_CATCHES = re.compile(rf"\bexcept\s+{_CLS}``?\s+(?:also\s+)?(?:catches|handles)\s+(?:it|them)\b",
                             re.IGNORECASE)


def _builtin_exception(name: str) -> type | None:
    value = getattr(builtins, name, None)
    return value if isinstance(value, type) and issubclass(value, BaseException) else None


def _derives_from_builtin(ctx: ReviewContext, cls: Def, wanted: type) -> bool | None:
    """Whether project class ``cls`` derives from builtin ``wanted``; None when a base can't be placed."""
    todo, seen = [cls], set()
    while todo:
        cur = todo.pop()
        if cur.kind == "external":
            if not isinstance(cur.value, type):
                return None
            if issubclass(cur.value, wanted):
                return True
            continue
        if cur.kind != "class" or not isinstance(cur.node, ast.ClassDef) or id(cur.node) in seen:
            if cur.kind != "class":
                return None
            continue
        seen.add(id(cur.node))
        bases, missing = ctx.resolver.bases(cur)
        if missing:
            return None
        todo.extend(bases)
    return False


def check_raised_bases(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    """A raises entry saying what the exception is a kind of, against its class's bases."""
    fact = parse_field(claim.text) if claim.kind == "field" else None
    if fact is None or fact.role != "raises" or not fact.name or "," in fact.name:
        return []
    exc = _class_of(ctx, claim, f"`{fact.name.strip()}`")
    if exc is None:
        return []
    out: list[Finding] = []
    done: set[str] = set()
    for m in [*_PRONOUN_IS.finditer(fact.desc), *_EXCEPT_CATCHES.finditer(fact.desc)]:
        name = role_target(m.group("role")) if m.group("role") else m.group("code")
        if name in done:
            continue
        done.add(name)
        builtin = _builtin_exception(name) if "." not in name else None
        wanted = None if builtin is not None else _class_of(ctx, claim, f"`{name}`")
        if builtin is not None:
            verdict = _derives_from_builtin(ctx, exc, builtin)
        elif wanted is not None:
            verdict = _is_kind_of(ctx, exc, wanted)
        else:
            continue
        short = name.rsplit(".", 1)[-1]
        article = "an" if short[:1] in "AEIOU" else "a"
        fact_text = f"`{exc.short}` is {article} `{short}`"
        extra = [ctx.evidence(wanted)] if wanted is not None else []
        if verdict is True:
            out.append(ok(fact_text, ctx.evidence(exc), aspect="type"))
        elif verdict is False:
            out.append(bad("contradicted", fact_text, f"`{exc.short}` is not {article} `{short}` (nor derived from it)",
                           ctx.evidence(exc), *extra, aspect="type"))
    return out
