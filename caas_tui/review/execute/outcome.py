"""A block's execution outcome carried on its verdict (``Verdict.checks``), so it survives
the verdict store; ``outcome_of`` reads it back for the app and the CLI."""

from __future__ import annotations

from dataclasses import dataclass

from caas_tui.models import Verdict
from caas_tui.review.execute.session import BlockOutcome

OUTPUT_CHARS = 2000
_STATUS, _EXC, _FRAME, _OUT, _TRUNC = "exec.status=", "exec.exception=", "exec.frame=", "exec.output=", "exec.truncated="


@dataclass(frozen=True, slots=True)
class ExecutionView:
    status: str  # ok | exception | timeout | not-run | crashed
    exception: str | None
    frames: tuple[str, ...]  # "path:line qualname", project frames only, outermost first
    output: str
    truncated: int  # characters of output left off


def encode_outcome(outcome: BlockOutcome, project_frames: tuple[str, ...]) -> tuple[str, ...]:
    out = [_STATUS + outcome.status]
    if outcome.error is not None:
        out.append(_EXC + outcome.error.text)
    out += [_FRAME + f for f in project_frames]
    text = outcome.output[:OUTPUT_CHARS]
    if text:
        out.append(_OUT + text)
        left = max(outcome.output_chars, len(outcome.output)) - len(text)
        if left > 0:
            out.append(_TRUNC + str(left))
    return tuple(out)


def outcome_of(verdict: Verdict) -> ExecutionView | None:
    """The execution outcome on an ``execute`` verdict, None for any other verdict."""
    status = next((c.removeprefix(_STATUS) for c in verdict.checks if c.startswith(_STATUS)), None)
    if status is None:
        return None
    exc = next((c.removeprefix(_EXC) for c in verdict.checks if c.startswith(_EXC)), None)
    frames = tuple(c.removeprefix(_FRAME) for c in verdict.checks if c.startswith(_FRAME))
    output = next((c.removeprefix(_OUT) for c in verdict.checks if c.startswith(_OUT)), "")
    trunc = next((int(c.removeprefix(_TRUNC)) for c in verdict.checks if c.startswith(_TRUNC)), 0)
    return ExecutionView(status, exc, frames, output, trunc)
