"""What the behaviour checks share: whose code a claim is about, and clause-level wording."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Sequence
from typing import TypeVar

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import parse_field
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.names import callable_mentions, section_subject
from caas_tui.review.static.referents.subjects import subject_of

# A clause that contrasts or denies ("unlike `re.search`", "never copies"): no assertion to check.
_DENIED = re.compile(r"\b(?:not|never|no|nor|unlike|instead\s+of|rather\s+than|as\s+opposed\s+to|than|without|"
                     r"neither|compared?\s+(?:to|with)|except)\b|n't\b", re.IGNORECASE)
_CLAUSE = re.compile(r"[.;!?]\s|,\s+(?:but|while|whereas|though|although)\s|\bbut\b|\bwhereas\b")


def prose_of(claim: Claim) -> str:
    """The claim's words, a field's description only, roles as inline code."""
    text = claim.text
    if claim.kind == "field":
        fact = parse_field(text)
        if fact is not None:
            text = fact.desc
    return re.sub(r":[\w:-]+:`~?([^`]*)`", r"`\1`", text)


def clause_before(prose: str, start: int) -> str:
    bounds = [m.end() for m in _CLAUSE.finditer(prose, 0, start)]
    return prose[bounds[-1] if bounds else 0:start]


def denied(prose: str, start: int) -> bool:
    """Whether the clause up to ``start`` denies or contrasts what follows."""
    return bool(_DENIED.search(clause_before(prose, start)))


T = TypeVar("T")


def stated_of_functions(ctx: ReviewContext, claim: Claim, prose: str,
                        patterns: Sequence[tuple[re.Pattern[str], T]]) -> Iterator[tuple[T, Def]]:
    """For each pattern the prose states (its first match, not denied), what it stands for and the
    project function the words describe."""
    for pattern, said in patterns:
        m = pattern.search(prose)
        if m is None or denied(prose, m.start()):
            continue
        subj = subject(ctx, claim, m.start())
        if subj is not None and subj.kind == "function":
            yield said, subj


def subject(ctx: ReviewContext, claim: Claim, offset: int) -> Def | None:
    """The project function or class the words at ``offset`` describe: a docstring field's
    owner, else the callable named before (or the docstring's or heading's symbol)."""
    if claim.kind == "field":
        found = section_subject(ctx, claim)
    else:
        # ``offset`` is in the prose; the mention offsets are in the raw text, with roles longer
        raw = _raw_offset(claim.text, offset)
        found = subject_of(ctx, claim, raw) or _relative_subject(ctx, claim, raw)
    return found if found is not None and found.is_project and found.kind in ("function", "class") else None


_RELATIVE = re.compile(r"^\S*\s*,?\s*(?:which|that|who)\b[^,;.]*$", re.IGNORECASE)


def _relative_subject(ctx: ReviewContext, claim: Claim, offset: int) -> Def | None:
    """"`archive`, which uses ...": the one callable a relative clause hangs on."""
    before = [(pos, d) for pos, d in callable_mentions(ctx, claim) if pos < offset]
    if len({id(d.node) for _, d in before}) != 1:
        return None
    pos, d = before[-1]
    end = claim.text.find("`", claim.text.find("`", pos) + 1) + 1 if "`" in claim.text[pos:offset] else pos
    return d if _RELATIVE.match(claim.text[end:offset]) else None


def _raw_offset(text: str, prose_offset: int) -> int:
    """``prose_of`` shortens roles: map an offset in the prose back onto the raw text."""
    shift = 0
    for m in re.finditer(r":[\w:-]+:`~?([^`]*)`", text):
        short_start = m.start() - shift
        if short_start >= prose_offset:
            break
        shift += len(m.group(0)) - len(m.group(1)) - 2
    return min(len(text), prose_offset + shift)


def functions_of(ctx: ReviewContext, d: Def) -> list[Def]:
    """``d`` itself for a function; a class's methods defined in its own body."""
    if d.kind == "function":
        return [d]
    if not isinstance(d.node, ast.ClassDef):
        return []
    out: list[Def] = []
    for stmt in d.node.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            res = ctx.resolver.member(d, stmt.name)
            if res.found and res.target is not None and res.target.kind == "function":
                out.append(res.target)
    return out


def owning_class(ctx: ReviewContext, d: Def) -> Def | None:
    """``d`` if it is a class, a method's class otherwise."""
    if d.kind == "class":
        return d
    return d.owner if d.owner is not None and d.owner.kind == "class" else None


def label(fn: Def) -> str:
    parts = fn.qualname.split(".")
    return ".".join(parts[-2:]) if fn.owner is not None else parts[-1]
