"""Doc comments of TS/JS, Java, Kotlin, C#, Go and Rust code checked against their own
declaration: ``@param`` names that are not parameters, parameters the others document
and this one does not, ``@returns`` on a function that returns nothing, and ``@returns``
prose on a function that only hands back one of its parameters.
"""

from __future__ import annotations

import re

from caas_tui.errors import CaasError
from caas_tui.ingest.treesitter import Decl, Outline
from caas_tui.models import Claim, EvidenceSpan
from caas_tui.review.claims.doccomments import comment_blocks, source_language
from caas_tui.review.claims.docstrings import parse_field
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Edit, Finding, bad, ok
from caas_tui.review.static.languages.polyglot import check_prose, did_you_mean
from caas_tui.review.static.languages.tssig import params_of
from caas_tui.review.static.languages.tsymbols import outline_of

_NO_VALUE = frozenset({"void", "Unit", "()", "Void"})
_RETURN = re.compile(r"(?<![\w$.])return\b\s*([^;\n}]*)")
_ECHO_OK = re.compile(r"\b(?:given|same|input|argument|passed|unchanged|itself|as is|supplied)\b", re.IGNORECASE)
# Languages whose doc comments name parameters with @param (Go and Rust document in prose).
_PARAM_TAGS = frozenset({"typescript", "javascript", "java", "kotlin", "csharp"})


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def _decl_at(tree: Outline, line: int) -> Decl | None:
    for d in tree.walk():
        if d.doc is not None and d.doc.start <= line <= d.doc.end:
            return d
    return None


def _evidence(path: str, d: Decl) -> EvidenceSpan:
    return EvidenceSpan(path, d.start, d.end, d.symbol)


def _body(ctx: ReviewContext, path: str, d: Decl) -> str | None:
    try:
        return ctx.engine.read_span(path, d.decl_start, d.end)
    except CaasError:
        return None


def _after_params(body: str, signature: str) -> str:
    """The body text after the signature (so ``return`` in a default value is not counted)."""
    head = signature.strip().splitlines()[-1].strip() if signature.strip() else ""
    i = body.find(head) if head else -1
    return body[i + len(head):] if i >= 0 else body


def _returns_value(ctx: ReviewContext, path: str, d: Decl, language: str) -> bool | None:
    """Whether the function hands back a value: False for void / Unit / no return type
    (where the language says that means nothing), None when it cannot be told."""
    if d.kind == "constructor" or d.kind not in ("function", "method"):
        return None
    ret = (d.returns or "").strip()
    if ret:
        return ret not in _NO_VALUE
    if language in ("go", "rust"):
        return False
    if language in ("java", "csharp"):
        return None
    if re.search(r"\basync\b|function\s*\*|^\s*\*", d.signature):
        return None  # a promise or a generator: ``@returns`` describes what it resolves to / yields
    body = _body(ctx, path, d)
    if body is None:
        return None
    rest = _after_params(body, d.signature).lstrip()
    if language == "kotlin":
        if rest.startswith("="):
            return True
        if not rest.startswith("{"):
            return None  # abstract / interface member
        return any(m.group(1).strip() for m in _RETURN.finditer(rest))
    # TS / JS: an arrow with an expression body returns it; otherwise look for ``return <value>``
    if "=>" in rest.split("{", 1)[0]:
        return True if not rest.split("=>", 1)[1].lstrip().startswith("{") else \
            any(m.group(1).strip() for m in _RETURN.finditer(rest))
    if "{" not in rest:
        return None  # an overload signature or an abstract member
    return any(m.group(1).strip() for m in _RETURN.finditer(rest))


def _returned_param(ctx: ReviewContext, path: str, d: Decl, names: list[str]) -> str | None:
    """The parameter every ``return`` statement of the body hands back unchanged, if one does."""
    body = _body(ctx, path, d)
    if body is None:
        return None
    values = {m.group(1).strip() for m in _RETURN.finditer(_after_params(body, d.signature))}
    if len(values) == 1:
        only = next(iter(values))
        if only in names:
            return only
    return None


def check_doc_comment(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    """Findings for one claim of a source file's doc comments."""
    language = source_language(claim.doc_path)
    if language is None:
        return []
    if claim.kind != "field":
        return check_prose(ctx, claim)
    fact = parse_field(claim.text)
    tree = outline_of(ctx.engine, claim.doc_path)
    d = _decl_at(tree, claim.start_line) if tree is not None else None
    if fact is None or d is None or d.doc is None:
        return []
    ev = _evidence(claim.doc_path, d)
    params = params_of(d, language)
    names = [p.name for p in params if p.name]
    if fact.role == "param" and language in _PARAM_TAGS and fact.name:
        return _check_param(ctx, claim, d, fact.name, names, language, ev)
    if fact.role == "returns":
        gives = _returns_value(ctx, claim.doc_path, d, language)
        if gives is False:
            what = d.returns or "no return type"
            return [bad("contradicted", f"`{d.name}` returns a value",
                        f"`{d.name}` returns nothing ({what}), yet its doc comment describes a return value",
                        ev, aspect="returns")]
        echoed = _returned_param(ctx, claim.doc_path, d, names) if gives else None
        if echoed is not None and not re.search(rf"\b{re.escape(echoed)}\b", fact.desc) and not _ECHO_OK.search(fact.desc):
            return [bad("contradicted", f"`{d.name}` returns what its doc comment describes",
                        f"`{d.name}` returns its parameter `{echoed}` unchanged, not {_lower_first(fact.desc.rstrip('.')) or 'a new value'}",
                        ev, aspect="returns")]
    return []


def _check_param(
    ctx: ReviewContext, claim: Claim, d: Decl, name: str, names: list[str], language: str, ev: EvidenceSpan
) -> list[Finding]:
    if name.startswith("<") or "." in name:
        return []  # a Java type parameter (``@param <T>``) or a property of an options object
    if not names and d.kind not in ("function", "method", "constructor"):
        return []  # a type's comment: its constructor is declared elsewhere
    out: list[Finding] = []
    if name in names:
        out.append(ok(f"`{d.name}` has parameter `{name}`", ev, aspect=("names", "parameters")))
    else:
        rationale = f"`{d.name}` has no parameter `{name}` (its parameters: " + (
            ", ".join(f"`{n}`" for n in names) or "none") + ")"
        sug = did_you_mean(ctx, name, set(names))
        edit = None
        if sug is not None:
            rationale += f"; did you mean `{sug.name}`?"
            edit = Edit(claim.start_line, claim.end_line, name, sug.name) if sug.unambiguous else None
        out.append(bad("contradicted", f"`{d.name}` has parameter `{name}`", rationale, ev, edit=edit,
                       aspect=("names", "parameters")))
    # Parameters left out: reported once, on the comment's first @param entry.
    if d.doc is None:
        return out
    fields = [b for b in comment_blocks(d.doc, language, d.symbol) if b.kind == "field" and b.text]
    documented = [f.name for b in fields if (f := parse_field(b.text or "")) and f.role == "param" and f.name]
    first = next((b for b in fields if (f := parse_field(b.text or "")) and f.role == "param"), None)
    if first is not None and first.start == claim.start_line:
        missing = [n for n in names if n not in documented]
        if missing:
            listed = ", ".join(f"`{n}`" for n in missing)
            out.append(bad("incomplete", f"every parameter of `{d.name}` has an @param",
                           f"`{d.name}` documents {len(documented)} of its parameters; {listed} "
                           f"{'has' if len(missing) == 1 else 'have'} no @param", ev, aspect="parameters"))
    return out
