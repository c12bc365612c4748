"""Output budgets: every answer must fit an agent's context, and say when it doesn't.

Limits come from the command line only, never from files in the project: repository
content is data and must not be able to change how the tools behave.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from pydantic import BaseModel

from caas_tui.limits import MAX_QUERY_CHARS, MCP_OUTPUT_CHARS
from caas_tui.mcp_server.results import Budgeted

DEFAULT_OUTPUT_CHARS = MCP_OUTPUT_CHARS
DEFAULT_SNIPPET_CHARS = 400
MIN_SNIPPET_CHARS = 40
B = TypeVar("B", bound=Budgeted)
MIN_OUTPUT_CHARS = 2_000  # below this not even one definition with its docstring fits


@dataclass(frozen=True, slots=True)
class Limits:
    output_chars: int = DEFAULT_OUTPUT_CHARS  # the whole JSON answer of one tool call
    snippet_chars: int = DEFAULT_SNIPPET_CHARS  # per search hit
    docstring_chars: int = 1_500  # per definition
    max_k: int = 50  # search hits per call
    max_query_chars: int = MAX_QUERY_CHARS
    max_claim_chars: int = 4_000
    max_depth: int = 3  # related: hops from the symbol
    refresh_interval: float = 2.0  # seconds between freshness checks

    def __post_init__(self) -> None:
        if self.output_chars < MIN_OUTPUT_CHARS:
            raise ValueError(f"output budget must be at least {MIN_OUTPUT_CHARS} characters")
        if self.snippet_chars < MIN_SNIPPET_CHARS:
            raise ValueError(f"snippet size must be at least {MIN_SNIPPET_CHARS} characters")


def clip(text: str, limit: int) -> tuple[str, bool]:
    """``text`` cut to ``limit`` characters (ending in an ellipsis), and whether it was cut."""
    if len(text) <= limit:
        return text, False
    return text[: max(0, limit - 1)] + "…", True


def size(model: BaseModel) -> int:
    """Characters of the JSON text the client receives (compact, non-ASCII kept)."""
    return len(model.model_dump_json())


def fit_items(result: B, field: str, budget: int, what: str, hint: str) -> B:
    """Drop items from the end of ``result.<field>`` until the JSON fits ``budget``.

    Items are ranked best-first, so the tail is what goes. The note says how many
    were kept and how to see the rest. Call it last: notes added afterwards are not
    counted against the budget.
    """
    items: list[BaseModel] = list(getattr(result, field))
    if size(result) <= budget:
        return result
    total = len(items)
    earlier = f"{result.note}; " if result.note else ""  # notes added before fitting are kept

    def note(kept: int) -> str:  # no str.format: earlier notes may quote names with braces in them
        return earlier + f"showing {kept} of {total} {what} to stay under {budget} characters; {hint}"

    # Room for the note itself, which is added after counting.
    overhead = size(result.model_copy(update={field: [], "truncated": True, "note": note(total)}))
    kept: list[BaseModel] = []
    used = overhead
    for item in items:
        cost = size(item) + 1  # the separating comma
        if used + cost > budget:
            break
        kept.append(item)
        used += cost
    fitted = result.model_copy(update={field: kept, "truncated": True, "note": note(len(kept))})
    while kept and size(fitted) > budget:  # the estimate is exact for compact JSON, but be safe
        kept.pop()
        fitted = result.model_copy(update={field: kept, "truncated": True, "note": note(len(kept))})
    return fitted


def add_note(result: B, note: str, *, truncated: bool = False) -> B:
    """Append a note (several reasons can apply to one answer)."""
    joined = f"{result.note}; {note}" if result.note else note
    return result.model_copy(update={"note": joined, "truncated": result.truncated or truncated})
