"""A numbering a doc gives ("day of week goes from 0 (Monday) to 6 (Sunday)") against the
numbering an upstream page gives the same thing ("day of week | 0-7 (0 or 7 is Sunday)").

Only names of a closed set (weekdays, months) are read as what a number means, so "0
(default)" is no mapping; the page's line must be about the same thing (two content words
in common besides the names), and a number the two map to different names of the set is
a contradiction. Table rows count: a manual's tables are where numberings live.
"""

from __future__ import annotations

import re

from caas_tui.models import Claim, EvidenceSpan
from caas_tui.review.static.context import ReviewContext
from caas_tui.review.static.findings import Finding, bad
from caas_tui.review.static.specs.upstream import pages
from caas_tui.review.static.wording.words import content_stems, same_word
from caas_tui.review.textutil import span_sha256

_SETS = (
    ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"),
    ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"),
)
_NAME = {n: i for i, names in enumerate(_SETS) for n in names}
_NAMES = "|".join(sorted(_NAME, key=len, reverse=True))
_NUMS = r"\d{1,2}(?:\s*(?:,|or|and)\s*\d{1,2})*"
# "0 (Monday)", "0 or 7 is Sunday", "0 = Sunday", "1: January"
_NUM_FIRST = re.compile(rf"(?<![\w.])(?P<nums>{_NUMS})\s*(?:\(\s*|\s+(?:is|are|means|for)\s+|\s*[:=]\s*)(?P<name>{_NAMES})\b",
                        re.IGNORECASE)
# "Monday (0)", "Sunday is 0", "Sunday = 7"
_NAME_FIRST = re.compile(rf"\b(?P<name>{_NAMES})\s*(?:\(\s*|\s+(?:is|=)\s+|\s*[:=]\s*)(?P<nums>{_NUMS})(?![\w.])",
                         re.IGNORECASE)
_HEDGE = re.compile(r"\b(?:e\.g\.|for\s+example|such\s+as|if|unless|when|by\s+default|configurable|can|may)\b",
                    re.IGNORECASE)


def numbering(text: str) -> dict[int, str]:
    """Number -> name of a closed set, as the text maps them; {} for a number mapped twice."""
    out: dict[int, str] = {}
    clash: set[int] = set()
    for pattern in (_NUM_FIRST, _NAME_FIRST):
        for m in pattern.finditer(text):
            name = m.group("name").lower()
            for num in re.findall(r"\d+", m.group("nums")):
                n = int(num)
                if out.get(n, name) != name:
                    clash.add(n)
                out[n] = name
    return {n: v for n, v in out.items() if n not in clash}


def _about(text: str) -> set[str]:
    words = re.sub(rf"\b(?:{_NAMES})\b|\d+", " ", text.replace("-", " "), flags=re.IGNORECASE)
    return content_stems(words)


def _same_thing(a: set[str], b: set[str]) -> bool:
    return sum(any(same_word(x, y) for y in b) for x in a) >= 2


def check_numberings(ctx: ReviewContext, claim: Claim) -> list[Finding]:
    if claim.kind != "prose" or claim.doc_path.startswith("upstream/") or _HEDGE.search(claim.text):
        return []
    text = re.sub(r"(`+)(.+?)\1", " ", claim.text)
    ours = numbering(text)
    if not ours:
        return []
    subject = _about(text)
    for page in pages(ctx):
        if page.path == claim.doc_path:
            continue
        for no, line in enumerate(page.lines, 1):
            if _HEDGE.search(line):
                continue
            theirs = numbering(line)
            shared = [n for n in ours if n in theirs and _NAME[ours[n]] == _NAME[theirs[n]]]
            if not shared or not _same_thing(subject, _about(line)):
                continue
            wrong = [n for n in shared if ours[n] != theirs[n]]
            if not wrong:
                continue
            n = wrong[0]
            quote = " ".join(line.strip(" |").split())
            ev = EvidenceSpan(page.path, no, no, None, span_sha256(page.lines, no, no))
            return [bad("contradicted", f"{n} is {ours[n].title()}, as `{page.path}` numbers it",
                        f"`{page.path}` (line {no}) gives {n} as {theirs[n].title()}, not {ours[n].title()}: "
                        f"“{quote[:160]}”", ev, aspect="value")]
    return []
