"""Pure rendering helpers: domain objects in, Rich renderables out.

Nothing here touches Textual widgets or the disk, so it is cheap to test and safe
to call from a worker thread. Every string that comes from the project or from a
reviewer goes into ``rich.text.Text`` (never markup): a ``[b]`` in a doc is text.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.syntax import Syntax
from rich.text import Text

from caas_tui.models import Claim, Fix, Hit, Verdict
from caas_tui.review.execute import outcome_of
from caas_tui.tui.hits_view import KIND_STYLE, why
from caas_tui.tui.state import ClaimState

# One colour per verdict: a foreground for badges and gutters, a tinted background
# for claim spans in the doc (dark tints keep the doc text readable).
VERDICT_FG: dict[str, str] = {
    "consistent": "#5fd787",
    "contradicted": "#ff5f5f",
    "incomplete": "#ffaf00",
    "unverified": "#87afff",
    "stale": "#af87d7",
    "pending": "#8a8a8a",
}
VERDICT_BG: dict[str, str] = {
    "consistent": "#16361f",
    "contradicted": "#4a1616",
    "incomplete": "#453300",
    "unverified": "#1b2a45",
    "stale": "#33253f",
    "pending": "#2a2a2a",
}
# A glyph beside every colour, so a verdict reads in monochrome (NO_COLOR) and in a screenshot.
VERDICT_GLYPH: dict[str, str] = {
    "consistent": "✓",
    "contradicted": "✗",
    "incomplete": "◐",
    "unverified": "?",
    "stale": "↻",  # not ⟳: common monospace fonts (DejaVu) lack it
    "pending": "·",
}
VERDICT_ORDER = ("consistent", "contradicted", "incomplete", "unverified", "stale", "pending")
# Decisions are letters, not ticks: a tick already means "consistent".
DECISION_MARK: dict[str, str] = {"pending": " ", "accepted": "A", "rejected": "R", "edited": "E",
                                 "needs another look": "!"}
LEXERS: dict[str, str] = {"python": "python", "markdown": "markdown", "rst": "rst", "text": "text"}
SYNTAX_THEME = "monokai"


def verdict_label(verdict: Verdict | None) -> str:
    return verdict.verdict if verdict is not None else "pending"


def one_line(text: str, width: int) -> str:
    """Collapse whitespace and cut to ``width`` characters (an ellipsis marks the cut)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: max(0, width - 1)] + "…"


def badge(label: str) -> Text:
    return Text(f" {VERDICT_GLYPH.get(label, '')} {label} ", style=f"bold #000000 on {VERDICT_FG.get(label, '#8a8a8a')}")


# -- claims list -------------------------------------------------------------------
def claim_prompt(claim: Claim, state: ClaimState) -> Text:
    text = Text()
    text.append(VERDICT_GLYPH[state.label] + " ", style=f"bold {VERDICT_FG[state.label]}")
    text.append(DECISION_MARK.get(state.decision, " ") + " ", style="bold")
    text.append(f"L{claim.start_line:<4}", style="dim")
    text.append(one_line(claim.text, 200))
    return text


# -- doc pane ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ClaimMark:
    claim: Claim
    label: str  # verdict label, "stale" or "pending"
    selected: bool = False


def _claim_pattern(text: str) -> re.Pattern[str] | None:
    words = text.split()
    if not words:
        return None
    return re.compile(r"\s+".join(re.escape(w) for w in words[:60]))


def _span_of(claim: Claim, lines: Sequence[str], offsets: Sequence[int], body: str) -> tuple[int, int]:
    """Character span of ``claim`` in ``body``: its exact words if found, else its whole lines.

    Several claims can share a line (two sentences), so lines alone would paint both
    claims over each other.
    """
    first = max(1, min(claim.start_line, len(lines)))
    last = max(first, min(claim.end_line, len(lines)))
    start, end = offsets[first - 1], offsets[last - 1] + len(lines[last - 1])
    pattern = _claim_pattern(claim.text)
    if pattern is not None:
        found = pattern.search(body, start, end)
        if found:
            return found.start(), found.end()
    return start, end


def render_doc(text: str, marks: Iterable[ClaimMark]) -> list[tuple[Text, Text]]:
    """The doc as (gutter, line) pairs: line numbers, each claim tinted by its verdict.

    The caller wraps each line under its own gutter, so long prose lines stay readable
    and line N can still be found on screen.
    """
    lines = text.split("\n")
    offsets: list[int] = []
    pos = 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1
    body = Text(text)
    gutter_marks: dict[int, tuple[str, bool]] = {}
    first_lines: set[int] = set()
    for mark in marks:
        start, end = _span_of(mark.claim, lines, offsets, text)
        style = f"bold underline on {VERDICT_BG[mark.label]}" if mark.selected else f"on {VERDICT_BG[mark.label]}"
        body.stylize(style, start, end)
        first_lines.add(mark.claim.start_line)
        for line_no in range(mark.claim.start_line, mark.claim.end_line + 1):
            if line_no not in gutter_marks or mark.selected:
                gutter_marks[line_no] = (mark.label, mark.selected)
    width = len(str(len(lines)))
    rows: list[tuple[Text, Text]] = []
    for number, row in enumerate(body.split("\n", allow_blank=True), start=1):
        gm = gutter_marks.get(number)
        gutter = Text(no_wrap=True)
        if gm is None:
            gutter.append(f"{number:>{width}}   ", style="dim")
        else:
            label, selected = gm
            gutter.append(f"{number:>{width}}", style="bold reverse" if selected else "dim")
            # The glyph on a claim's first line; a bar below it shows how far the claim runs.
            gutter.append("▌" if selected else "│", style=VERDICT_FG[label])
            gutter.append(VERDICT_GLYPH[label] if number in first_lines else " ", style=f"bold {VERDICT_FG[label]}")
            gutter.append(" ")
        rows.append((gutter, row))
    return rows


# -- evidence pane -----------------------------------------------------------------
def code_view(text: str, language: str, start_line: int, background: str = "default") -> Syntax:
    """Syntax-highlighted source with real file line numbers."""
    return Syntax(
        text,
        LEXERS.get(language, "text"),
        theme=SYNTAX_THEME,
        line_numbers=True,
        start_line=max(1, start_line),
        word_wrap=False,
        background_color=background,
        indent_guides=False,
    )


def hit_header(hit: Hit) -> Text:
    c = hit.chunk
    head = Text()
    head.append(f"{c.kind} ", style=KIND_STYLE.get(c.kind, "bold"))
    head.append(f"{c.path}:{c.start_line}-{c.end_line}", style="bold")
    if c.symbol:
        head.append(f"  {c.symbol}", style="italic")
    if hit.via:
        head.append(f"  ({why(hit)})", style="dim")
    return head


# -- verdict panel -----------------------------------------------------------------
def fix_diff(doc_path: str, doc_lines: Sequence[str], fix: Fix) -> str:
    """A small unified diff of the fix against the doc lines it replaces."""
    old = list(doc_lines[fix.start_line - 1 : fix.end_line])
    new = fix.replacement.split("\n") if fix.replacement else []
    out = [f"--- a/{doc_path}", f"+++ b/{doc_path}", f"@@ -{fix.start_line},{len(old)} +{fix.start_line},{len(new)} @@"]
    out += [f"-{line}" for line in old]
    out += [f"+{line}" for line in new]
    return "\n".join(out)


def fix_for(claim: Claim, state: ClaimState) -> Fix | None:
    """What export would write for this claim (an edit with no proposal replaces the claim's lines)."""
    if state.fix is None and state.replacement is not None:
        return Fix(claim.start_line, claim.end_line, state.replacement)
    return state.fix


def verdict_view(
    claim: Claim,
    state: ClaimState,
    doc_lines: Sequence[str],
    background: str = "default",
) -> RenderableType:
    """The verdict panel: label, reviewer, rationale, evidence and the fix as a diff."""
    parts: list[RenderableType] = []
    verdict = state.verdict
    head = Text()
    head.append_text(badge(state.label))
    if verdict is not None:
        head.append(f"  by {verdict.reviewer}", style="bold")
        if verdict.model:
            head.append(f" ({verdict.model})", style="dim")
    head.append(f"   decision: {state.decision}", style="bold" if state.decision != "pending" else "dim")
    head.append(f"   {claim.doc_path}:{claim.start_line}-{claim.end_line}", style="dim")
    parts.append(head)
    if verdict is not None and state.decided is not None:
        parts.append(decided_line(state))
    if verdict is None:
        parts.append(Text("Not reviewed yet: c reviews this claim, C the whole doc, ctrl+r with Claude.", style="dim"))
        return Group(*parts)
    if state.stale:
        parts.append(Text(verdict.rationale + " — review again: c this claim, R every stale one.",
                          style=VERDICT_FG["stale"]))
        if state.original is not None:
            verdict = state.original
            parts.append(Text(f"Was {verdict.verdict}:", style="bold"))
    parts.append(Text(verdict.rationale or "(no rationale)"))
    for other in state.also:
        also = Text("also: ", style="bold dim")
        also.append(f"{other.reviewer}: ", style="bold")
        also.append(other.verdict, style=VERDICT_FG.get(other.verdict, ""))
        also.append(f" — {other.rationale or '(no rationale)'}", style="dim")
        parts.append(also)
    fix = fix_for(claim, state)
    if fix is not None:
        parts.append(Text("Proposed fix" + (" (edited)" if state.decision == "edited" else "") + ":", style="bold"))
        parts.append(Syntax(fix_diff(claim.doc_path, doc_lines, fix), "diff", theme=SYNTAX_THEME,
                            background_color=background, word_wrap=True))
    elif verdict.verdict != "consistent":
        parts.append(Text("No fix proposed.", style="dim"))
    if verdict.evidence:
        ev = Text("Evidence:", style="bold")
        for span in verdict.evidence:
            ev.append("\n  ")
            ev.append(f"{span.path}:{span.start_line}-{span.end_line}", style="#87d7ff")
            if span.symbol:
                ev.append(f"  {span.symbol}", style="italic")
            if span.note:
                ev.append(f"  {span.note}", style="dim")
        parts.append(ev)
    ran = execution_view(verdict)  # an execute verdict's checks are its run, shown as such
    if ran is not None:
        parts.append(ran)
    elif verdict.checks:
        checks = Text("Checked:", style="bold dim")
        for check in verdict.checks:
            checks.append(f"\n  · {check}", style="dim")
        parts.append(checks)
    unchecked = [c.split(":", 1)[0] for c in verdict.coverage if c.endswith(":unchecked")]
    if unchecked:
        parts.append(Text("Not checked: " + ", ".join(unchecked), style="bold dim"))
    return Group(*parts)


def decided_line(state: ClaimState) -> Text:
    """``decided: accepted (contradicted, 2026-12-01) · newest: consistent``: which verdict is which."""
    decided = state.decided
    assert decided is not None and state.verdict is not None
    when = time.strftime("%Y-%m-%d", time.localtime(state.decided_at)) if state.decided_at else "earlier"
    newest = state.original if state.stale and state.original is not None else state.verdict
    was = "needs another look, was decided" if state.decision == "needs another look" else state.decision
    line = Text(f"decided: {was} ({decided.verdict}, {when}) · newest: {newest.verdict}", style="bold")
    if decided.verdict == newest.verdict and decided.fix != newest.fix:
        line.append(" with another fix", style="bold")
    return line


def diff_view(patch: str, background: str = "default") -> RenderableType:
    if not patch.strip():
        return Text("No accepted fixes yet: accept (a) or edit (e) a verdict with a fix first.", style="dim")
    return Syntax(patch, "diff", theme=SYNTAX_THEME, background_color=background, word_wrap=False, line_numbers=False)


def tally_text(counts: Mapping[str, int], *, compact: bool = False) -> Text:
    """``✓ 3 consistent  ✗ 1 contradicted ...`` for the status line (``✓3 ✗1`` when compact)."""
    out = Text()
    for label in VERDICT_ORDER:
        n = counts.get(label, 0)
        if n:
            glyph = VERDICT_GLYPH[label]
            out.append(f"{glyph}{n} " if compact else f"{glyph} {n} {label}  ", style=VERDICT_FG[label])
    return out


_OUTPUT_LINES = 12


def execution_view(verdict: Verdict) -> RenderableType | None:
    """How a block ran (``execute`` verdicts): status, the exception, the project frames (the
    evidence spans above open them) and the captured output, truncated with a note."""
    run = outcome_of(verdict)
    if run is None:
        return None
    parts: list[RenderableType] = []
    head = Text("Ran: ", style="bold")
    head.append(run.status, style=VERDICT_FG["contradicted"] if run.status == "exception" else "")
    if run.exception:
        head.append(f"  {run.exception}", style="bold")
    parts.append(head)
    if run.frames:
        frames = Text("Traceback in the project (outermost first):", style="bold dim")
        for frame in run.frames:
            frames.append(f"\n  {frame}", style="#87d7ff")
        parts.append(frames)
    if run.output:
        lines = run.output.rstrip("\n").split("\n")
        shown = "\n".join(lines[:_OUTPUT_LINES])
        left = run.truncated + len(run.output.rstrip("\n")) - len(shown)
        parts.append(Text("Output:", style="bold dim"))
        parts.append(Text(shown))
        if left > 0:
            parts.append(Text(f"… output truncated: {left} more characters not shown", style="dim"))
    return Group(*parts)

