"""Parameter fields (``:param name:``) in the body of a hand-written object description of a
guide (``.. function:: send_file(path, mimetype=None)``): each names a parameter of the
documented object, so it is checked against that object's signature. The description's own
signature line is checked elsewhere (as a call); the fields under it were not."""

from __future__ import annotations

import re

from caas_tui.models import Claim
from caas_tui.review.claims.docstrings import parse_field
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.drift.driftnames import param_finding
from caas_tui.review.static.findings import Finding
from caas_tui.review.static.kinds.paramchecks import check_param_entry
from caas_tui.review.static.model.resolve import Def
from caas_tui.review.static.naming.docmodule import current_module

_FIELD = re.compile(r"^:(?:param|parameter|arg|argument|key|keyword|kwarg)\s+(?:[^:\n]*\s)?(?P<name>\*{0,2}[A-Za-z_]\w*):")
_DIRECTIVE = re.compile(
    r"^(?P<indent>\s*)\.\.\s+(?:py:)?(?P<kind>function|method|class|classmethod|staticmethod|decorator|exception)::"
    r"\s*(?P<name>[A-Za-z_][\w.]*)")


def _enclosing(lines: list[str], index: int, indent: int) -> list[tuple[str, str]]:
    """(kind, name) of the directives around line ``index``, innermost first."""
    out: list[tuple[str, str]] = []
    for line in reversed(lines[:index]):
        if not line.strip():
            continue
        depth = len(line) - len(line.lstrip())
        if depth >= indent:
            continue
        m = _DIRECTIVE.match(line)
        if m is None:
            break  # a paragraph or another directive at a lower indent: not inside a description
        out.append((m.group("kind"), m.group("name")))
        indent = depth
        if depth == 0:
            break
    return out


def _described(ctx: ReviewContext, claim: Claim, chain: list[tuple[str, str]]) -> Def | None:
    module = current_module(ctx, claim)
    names = [name for _, name in reversed(chain)]
    dotted = ".".join(names)
    for candidate in ([f"{module}.{dotted}"] if module else []) + [dotted]:
        res = ctx.resolve(candidate, claim)
        target = res.target
        if res.found and not res.ambiguous and target is not None and target.is_project \
                and target.kind in ("function", "class"):
            return target
    return None


def check_description_fields(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind == "code" or not claim.doc_path.endswith((".rst", ".txt")):
        return []
    m = _FIELD.match(claim.text.lstrip())
    if m is None or m.group("name").startswith("*"):
        return []
    lines = ctx.doc_lines(claim.doc_path)
    index = claim.start_line - 1
    if not 0 <= index < len(lines) or not lines[index].lstrip().startswith(":"):
        return []
    line = lines[index]
    indent = len(line) - len(line.lstrip())
    chain = _enclosing(lines, index, indent)
    if not chain or _sibling_names(lines, index, indent, m.group("name")):
        return []
    owner = _described(ctx, claim, chain)
    if owner is None:
        return []
    findings = param_finding(ctx, owner, m.group("name"))
    fact = parse_field(claim.text)
    if fact is not None and findings and all(f.status == "ok" for f in findings):
        # its type and described kind ("the handler class"), read as a docstring's field is
        findings += check_param_entry(ctx, claim, fact, owner)
    return findings


def _sibling_names(lines: list[str], index: int, indent: int, name: str) -> bool:
    """A description with no body of its own just above the field, at the field's indent, whose
    signature names the parameter (``.. method:: evaluate(environment=None)`` with its text left
    unindented): the field is that method's, whatever the indentation says."""
    for line in reversed(lines[:index]):
        if not line.strip():
            continue
        depth = len(line) - len(line.lstrip())
        if depth < indent:
            return False
        m = _DIRECTIVE.match(line)
        if m is not None and depth == indent:
            return re.search(rf"[(,\s]\*{{0,2}}{re.escape(name)}\b", line[m.end():]) is not None
    return False
