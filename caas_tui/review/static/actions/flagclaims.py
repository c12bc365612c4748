"""Behaviour stated without the switch that turns it on.

"`CsvSource` strips whitespace around every field for you" where stripping happens only
when ``strip=True`` (default ``False``); "Malformed lines are skipped" in a class whose
methods call ``read_json_lines(self.path)`` without ``skip_invalid`` (default ``False``).
A verb of the sentence that is the first word of a boolean parameter defaulting to
``False`` -- of the subject itself, or of a project function its methods call -- names
behaviour the code does only on request. A sentence that states a condition, a
capability ("can strip"), a negation or the parameter itself is left alone.
"""

from __future__ import annotations

import ast
import re

from caas_tui.models import Claim
from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.codefacts.delegation import callee
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad
from caas_tui.review.static.model.pysig import Param
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.referents.subjects import claim_signatures, owner_of
from caas_tui.review.static.wording.words import same_word, stem

_WORD = re.compile(r"[A-Za-z][a-z]{3,}")
_SPAN = re.compile(r"(`+)(.+?)\1|:[\w:-]+:`[^`]*`")
# Conditions, options and bounds (a limit of the behaviour, judged by ``counts``) anywhere in the sentence;
# capability, obligation, purpose ("to be reused") and negation in the verb's
# clause ("lines are skipped, so one bad line does not stop ..." still states the skip).
_CONDITIONED = re.compile(
    r"\b(?:if|when|whenever|unless|only|pass|passing|set|setting|enable|enabled|enabling|option|options|optionally|"
    r"configur\w*|request|asked|with|up\s+to|at\s+most|at\s+least|limits?)\b",
    re.IGNORECASE,
)
_HEDGED = re.compile(r"\b(?:can|could|may|might|must|should|needs?|able|allows?|lets?|supports?|not|never|no|without|"
                     r"nor|to\s+be)\b|n't\b",
                     re.IGNORECASE)
_CLAUSE = re.compile(r"[,;:()\u2014\u2013]|\s-\s|\b(?:so|but|and|which|while)\b", re.IGNORECASE)
_UNCONDITIONAL = re.compile(r"\b(?:for\s+you|automatically|always|by\s+default|on\s+its\s+own|by\s+itself)\b",
                            re.IGNORECASE)
_SUBJECT = re.compile(r"`[^`]+`")
_PREPOSITIONS = frozenset({"for", "of", "to", "in", "from", "by", "on", "with", "like", "than", "as", "into", "via"})
_INFLECTED = re.compile(r"(?:[^s]s|ed)$")
# Parameter-name heads that are not verbs of behaviour (``from_error``, ``auto_attribs``).
_NOT_VERBS = frozenset({"from", "with", "auto", "into", "over", "allow", "force", "instance", "use", "is", "has"})
_OTHER_KINDS = frozenset({"raise", "return", "yield", "call", "default"})  # judged by their own checks


def _off_flag(p: Param) -> bool:
    return isinstance(p.default, ast.Constant) and p.default.value is False and p.kind in ("pos", "kwonly")


def _stated_verbs(claim: Claim) -> list[tuple[str, str | None]]:
    """Inflected verbs ("strips", "are skipped") of unhedged clauses, each with what it is
    about: the first name in that clause before it, or None (in a docstring: the
    documented object itself)."""
    out: list[tuple[str, str | None]] = []
    in_docstring = claim.doc_path.endswith((".py", ".pyi"))
    for clause in _CLAUSE.split(claim.text):
        prose = _SPAN.sub(lambda s: "_" * len(s.group(0)), clause or "")  # offsets kept
        if not prose.strip() or _HEDGED.search(prose):
            continue
        first = _SUBJECT.search(clause)
        for m in _WORD.finditer(prose):
            word = m.group(0)
            if not _INFLECTED.search(word) or not prose[: m.start()].strip(" \t\n*"):
                continue  # a bare stem, or the summary line's opening verb ("Reads ...")
            if first is not None and first.start() < m.start():
                before = clause[: first.start()].split()
                between = prose[first.end(): m.start()].split()
                if (before and before[-1].lower() in _PREPOSITIONS) or len(between) > 3:
                    continue  # "helper for `extract` that strips ...": the name is not what strips
                out.append((word, first.group(0).strip("`")))
            elif first is None and in_docstring:
                out.append((word, None))
    return out


def _verb_for(name: str, stated: list[tuple[str, str | None]], subject: Def, owner: Def | None) -> str | None:
    head = stem(name.split("_", 1)[0])
    if len(head) < 4 or head in _OTHER_KINDS or head in _NOT_VERBS or same_word(stem(subject.short.strip("_")), head):
        return None
    if any(head in stem(part) for part in subject.qualname.lower().split(".")[-1].split("_")):
        return None  # ``update`` with ``update_header``: the flag refines what the callable is named for
    verbs = [w for w, about in stated if (about is None and owner is not None and owner.node is subject.node)
             or (about is not None and about.rsplit(".", 1)[-1].rstrip("()") == subject.short)]
    return next((w for w in verbs if same_word(stem(w), head) and w.lower() != head), None)


def _names(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text) is not None


def own_functions(ctx: ReviewContext, subject: Def) -> list[Def]:
    """``subject`` itself if it is a function; a class's methods defined in its own body."""
    if subject.kind == "function":
        return [subject]
    if not isinstance(subject.node, ast.ClassDef):
        return []
    out: list[Def] = []
    for stmt in subject.node.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            res = ctx.resolver.member(subject, stmt.name)
            if res.found and res.target is not None and res.target.kind == "function":
                out.append(res.target)
    return out


def _own_value(call: ast.Call, name: str) -> ast.expr | None | bool:
    """The expression passed for keyword ``name``; True when ``**kwargs`` may pass it; None when absent."""
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
        if kw.arg is None:
            return True
    return None


def check_flag_conditions(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind != "prose":
        return []
    if _CONDITIONED.search(_SPAN.sub(" ", claim.text)):
        return []
    verbs = _stated_verbs(claim)
    if not verbs:
        return []
    owner = owner_of(ctx, claim)
    strong = bool(_UNCONDITIONAL.search(_SPAN.sub(" ", claim.text)))
    out: list[Finding] = []
    for subject, sig in claim_signatures(ctx, claim).values():
        label = subject.short
        own = {p.name: p for p in sig.params if _off_flag(p)}
        for name in own:
            verb = _verb_for(name, verbs, subject, owner)
            if verb is not None and not _names(claim.text, name):
                out.append(bad(
                    "contradicted" if strong else "incomplete", f"`{label}` {verb} by default",
                    f"`{label}` does that only when `{name}=True` (it defaults to `False`); the doc states it "
                    "without that condition", ctx.evidence(sig.fn), aspect="behaviour",
                ))
                return out
        for method in own_functions(ctx, subject):
            if method.node is None:
                continue
            for call in (n for n in ast.walk(method.node) if isinstance(n, ast.Call)):
                target = callee(ctx, method, call)
                tsig = ctx.signature(target) if target is not None and target.kind == "function" else None
                if tsig is None or not tsig.reliable:
                    continue
                for p in tsig.params:
                    verb = _verb_for(p.name, verbs, subject, owner) if _off_flag(p) else None
                    if verb is None or _names(claim.text, p.name):
                        continue
                    passed = _own_value(call, p.name)
                    if passed is None:
                        out.append(bad(
                            "contradicted", f"`{label}` {verb}",
                            f"`{method.short}` calls `{tsig.fn.short}` without `{p.name}` (it defaults to `False`), "
                            f"so `{label}` never does that", ctx.evidence(method), ctx.evidence(tsig.fn),
                            aspect="behaviour",
                        ))
                        return out
                    source = (dotted(passed) or "").removeprefix("self.") if isinstance(passed, ast.expr) else ""
                    if source in own:
                        out.append(bad(
                            "contradicted" if strong else "incomplete", f"`{label}` {verb} by default",
                            f"`{label}` hands `{p.name}={source}` to `{tsig.fn.short}`, and `{source}` defaults to "
                            "`False`: it does that only on request", ctx.evidence(sig.fn), ctx.evidence(tsig.fn),
                            aspect="behaviour",
                        ))
                        return out
    return out
