"""What a search asks for and what it gives back, as values.

A :class:`SearchRequest` is checked once, when made; the engine passes it whole instead
of its fields one by one. A :class:`SearchResult` carries the re-rank outcome with the
hits, so a caller on any thread reads how *its* search went.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from caas_tui.errors import CaasError
from caas_tui.limits import MAX_QUERY_CHARS
from caas_tui.models import KINDS, MODES, Hit, Kind, Mode

if TYPE_CHECKING:  # only a re-ranked search makes one: the module loads with the re-ranker
    from caas_tui.retrieve.rerank import RerankOutcome


def as_mode(value: str) -> Mode:
    """``value`` as a :data:`Mode`; CaasError naming the choices otherwise."""
    if value not in MODES:
        raise CaasError(f"unknown search mode {value!r} (choose from {', '.join(MODES)})")
    return value  # narrowed to Mode by the membership test


def as_kinds(values: Iterable[str] | None) -> tuple[Kind, ...] | None:
    """A sequence of kind names as a tuple of :data:`Kind` (None when empty); CaasError on an unknown one."""
    kinds = tuple(values or ())
    if not kinds:
        return None
    bad = [k for k in kinds if k not in KINDS]
    if bad:
        raise CaasError(f"unknown kind {bad[0]!r} (choose from {', '.join(KINDS)})")
    return cast("tuple[Kind, ...]", kinds)


@dataclass(frozen=True, slots=True)
class SearchRequest:
    """One search; CaasError on an unknown mode or kind.

    ``expand``: after the ``k`` hits, add up to ``k`` graph neighbours of the top 5 (callees,
    callers, tests, overrides, constants, upstream pages; ``Hit.via`` says why). ``rerank``:
    re-score the top fused hits with a transformer (``retrieve/rerank.py``). ``prefix_last``:
    the last query word is still being typed (search-as-you-type).
    """

    query: str
    k: int = 10
    mode: Mode = "hybrid"
    kinds: tuple[Kind, ...] | None = None
    path_glob: str | None = None
    prefix_last: bool = False
    expand: bool = False
    rerank: bool = False

    def __post_init__(self) -> None:
        as_mode(self.mode)
        if len(self.query) > MAX_QUERY_CHARS:  # one limit for the CLI, the app and MCP
            raise CaasError(f"query is {len(self.query)} characters, over the {MAX_QUERY_CHARS} limit")
        # Callers hand in lists; the request keeps an immutable, validated tuple.
        object.__setattr__(self, "kinds", as_kinds(self.kinds))


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The hits of one :class:`SearchRequest` and, when it asked to re-rank, how that went."""

    hits: tuple[Hit, ...]
    rerank: RerankOutcome | None = None  # None when the request did not ask to re-rank
