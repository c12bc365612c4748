"""The verdict of a plain block whose comments state outputs, and the fix that rewrites a wrong one."""

from __future__ import annotations

from collections.abc import Sequence

from caas_tui.models import Claim, EvidenceSpan, Fix, Verdict
from caas_tui.review.execute.stated import Judged
from caas_tui.review.textutil import counted


def stated_verdict(reviewer: str, claim: Claim, judged: Sequence[Judged], doc_lines: Sequence[str],
                   evidence: Sequence[EvidenceSpan], unchecked: int = 0) -> Verdict:
    """``contradicted`` on the first wrong stated output; ``consistent`` only when every stated output
    was compared and held and no other comment (``unchecked``) asserts something that was not."""
    wrong = [j for j in judged if j.status == "mismatch"]
    matched = sum(j.status == "match" for j in judged)
    skipped = [j for j in judged if j.status == "skip"]
    if wrong:
        first = wrong[0]
        did = "evaluates to" if first.stated.kind == "value" else "printed"
        rationale = (f"stated output differs: the comment says {first.stated.want.strip()!r}, "
                     f"the code {did} {first.got.strip()!r}")
        if len(wrong) > 1:
            rationale += f" (and {len(wrong) - 1} more output{'s' if len(wrong) > 2 else ''})"
        return Verdict(claim.id, "contradicted", reviewer, rationale, tuple(evidence),
                       fix=_fix(claim, wrong, doc_lines))
    left = f"; {counted(len(skipped), 'stated output')} not compared ({skipped[0].note})" if skipped else ""
    if unchecked:
        left += f"; {counted(unchecked, 'other comment')} not checked"
    if not matched:
        return Verdict(claim.id, "unverified", reviewer, f"ran without error{left}")
    said = f"ran; {counted(matched, 'stated output')} matched{left}"
    return Verdict(claim.id, "unverified" if left else "consistent", reviewer, said)


def _edit(claim: Claim, j: Judged, doc_lines: Sequence[str]) -> tuple[int, int, list[str]] | None:
    """Doc lines ``start..end`` and what replaces them so the comment states ``j.got``."""
    block = claim.text.split("\n")
    s = j.stated
    start = claim.start_line + s.text_line
    end = start + s.text_lines - 1
    if not 0 < start <= end <= len(doc_lines) or s.text_line >= len(block):
        return None
    doc_line, template = doc_lines[start - 1], block[s.text_line]
    if not doc_line.endswith(template):
        return None
    prefix = doc_line[: len(doc_line) - len(template)]
    got = j.got.strip("\n").split("\n")
    if len(got) == 1 and s.text_lines == 1:
        return start, end, [prefix + s.keep + got[0] + s.tail]
    if s.kind != "since":  # a trailing comment cannot hold several lines
        return None
    header = s.keep.rstrip()
    if not header.endswith(":"):
        header = template[: template.index(":") + 1]
    indent = header[: len(header) - len(header.lstrip())]
    return start, end, [prefix + header, *(prefix + indent + ("# " + line if line else "#") for line in got)]


def _fix(claim: Claim, wrong: Sequence[Judged], doc_lines: Sequence[str]) -> Fix | None:
    edits = []
    for j in wrong:
        edit = _edit(claim, j, doc_lines)
        if edit is None:
            return None  # a fix that rewrites only some of the wrong outputs would still be wrong
        edits.append(edit)
    edits.sort()
    start, end = edits[0][0], max(e[1] for e in edits)
    out: list[str] = []
    at = start
    for s_line, e_line, new in edits:
        out += doc_lines[at - 1 : s_line - 1]
        out += new
        at = e_line + 1
    out += doc_lines[at - 1 : end]
    return Fix(start, end, "\n".join(out))
