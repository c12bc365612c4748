"""A claim that a project wrapper behaves as the library it wraps does by default, against
the argument the wrapper passes: "`open_session(host)` gives up after 30 seconds, the
library's default" where the upstream page documents ``tidewire.connect(host, timeout=30)``
and the wrapper calls ``tidewire.connect(host, timeout=None)``.

The library's defaults are read from the signatures an upstream page writes in inline code
(``name(arg, p=literal)``). A wrapper is the claim's subject (or a project function it calls,
``delegation.callee``) that calls the same dotted name; the parameter must be named in the
claim's words (``timeout`` as "timeout" or "times out", ``max_retries`` as "retries") and the
claim must state the documented default. A literal argument that differs from it is a
contradiction; no argument at all keeps the default, which the page confirms. A computed
argument decides nothing.
"""

from __future__ import annotations

import ast
import re
import weakref
from dataclasses import dataclass

from caas_tui.models import Claim, EvidenceSpan
from caas_tui.review.claims.mentions import dotted
from caas_tui.review.static.codefacts.delegation import callee
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad, ok
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.referents.subjects import subject_of
from caas_tui.review.static.specs.platformrules import bodies
from caas_tui.review.static.specs.upstream import pages
from caas_tui.review.static.wording.units import Quantity, bare_numbers, matches, quantities
from caas_tui.review.textutil import span_sha256

_SPAN = re.compile(r"`([A-Za-z_][\w.]*\([^`]*\))`")
_MISSING = object()


@dataclass(frozen=True, slots=True)
class Documented:
    name: str  # dotted, as the page writes it
    defaults: tuple[tuple[str, object], ...]
    path: str
    line: int
    evidence: EvidenceSpan


_DOCUMENTED: weakref.WeakKeyDictionary[ReviewContext, tuple[int, list[Documented]]] = weakref.WeakKeyDictionary()


def documented(ctx: ReviewContext) -> list[Documented]:
    """Every ``name(p=literal, ...)`` signature the upstream pages write in inline code."""
    found = pages(ctx)
    cached = _DOCUMENTED.get(ctx)
    if cached is not None and cached[0] == id(found):
        return cached[1]
    out: list[Documented] = []
    for page in found:
        for no, line in enumerate(page.lines, 1):
            for m in _SPAN.finditer(line):
                try:
                    node = ast.parse(m.group(1), mode="eval").body
                except SyntaxError:
                    continue
                if not isinstance(node, ast.Call) or not dotted(node.func):
                    continue
                defaults = tuple((k.arg, k.value.value) for k in node.keywords
                                 if k.arg and isinstance(k.value, ast.Constant))
                if defaults:
                    ev = EvidenceSpan(page.path, no, no, None, span_sha256(page.lines, no, no))
                    out.append(Documented(dotted(node.func) or "", defaults, page.path, no, ev))
    _DOCUMENTED[ctx] = (id(found), out)
    return out


def _same_callable(code_name: str, doc_name: str) -> bool:
    a, b = code_name.split("."), doc_name.split(".")
    if a[-1] != b[-1]:
        return False
    return len(a) < 2 or len(b) < 2 or a[-2] == b[-2]


def param_words(param: str) -> re.Pattern[str]:
    """How prose names a parameter: ``timeout`` as "timeout(s)" or "times out", ``max_retries``
    as "retries"; parts shorter than four letters are not names on their own."""
    parts = [p for p in param.lower().split("_") if p]
    options = {re.escape(param.lower().replace("_", " "))}
    for part in parts:
        if len(part) >= 4 or len(parts) == 1:
            options.add(re.escape(part) + r"(?:s|es|ed|ing)?")
            for i in range(3, len(part) - 2):
                options.add(re.escape(part[:i]) + r"\w{0,3}\s+" + re.escape(part[i:]))
    return re.compile(r"\b(?:" + "|".join(sorted(options, key=len, reverse=True)) + r")\b", re.IGNORECASE)


def _states(prose: str, qs: list[Quantity], param: str, value: object) -> bool | None:
    """True: the claim states ``value``; False: it states another number; None: no number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    verdicts = [matches(q, param, float(value)) for q in qs]
    if any(verdicts):
        return True
    numbers = [n for n, _ in bare_numbers(prose)]
    if any(n == value for n in numbers):
        return True
    return False if (verdicts and all(v is False for v in verdicts)) or numbers else None


def _call_site(ctx: ReviewContext, fn: Def, doc: Documented) -> tuple[Def, ast.Call] | None:
    for body in bodies(ctx, fn):
        for name, call in body.calls:
            if callee(ctx, body.fn, call) is None and _same_callable(name, doc.name):
                return body.fn, call
    return None


def _label(fn: Def) -> str:
    parts = fn.qualname.split(".")
    return ".".join(parts[-2:]) if fn.owner is not None else parts[-1]


def check_wrapped_defaults(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind not in ("prose", "field") or claim.doc_path.startswith("upstream/"):
        return []
    docs = documented(ctx)
    if not docs:
        return []
    prose = re.sub(r"(`+)(.+?)\1|:[\w:-]+:`[^`]*`", lambda m: " " * len(m.group(0)), claim.text)
    qs = quantities(prose)
    findings: list[Finding] = []
    for doc in docs:
        for param, default in doc.defaults:
            said = param_words(param).search(prose)
            if said is None or not _states(prose, qs, param, default):
                continue
            subject = subject_of(ctx, claim, said.start())
            if subject is None or subject.kind != "function" or not subject.is_project:
                continue
            site = _call_site(ctx, subject, doc)
            if site is None:
                continue
            where, call = site
            passed = next((k.value for k in call.keywords if k.arg == param), _MISSING)
            check = f"`{_label(subject)}` keeps `{doc.name}`'s default `{param}={default!r}`"
            if passed is _MISSING:
                findings.append(ok(check, ctx.evidence(where), doc.evidence, aspect=("value", "default")))
                continue
            if not isinstance(passed, ast.Constant):
                continue  # computed: which value reaches the library is not known here
            if passed.value == default or _states(prose, qs, param, passed.value):
                continue
            findings.append(bad(
                "contradicted", check,
                f"`{_label(where)}` calls `{ast.unparse(call)}`: it passes `{param}={passed.value!r}`, not the "
                f"library's default `{default!r}` (`{doc.path}` line {doc.line})",
                ctx.evidence(where), doc.evidence, aspect=("value", "default", "behaviour")))
            return findings
    return findings
