"""Adapter to caas_tui.review (provisional until the review package lands)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from caas_tui.config import Config
from caas_tui.errors import CaasError
from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.tui.state import ClaimState


class ReviewPort:
    def __init__(self, engine: Engine, cfg: Config) -> None:
        self.engine = engine
        self.cfg = cfg

    def claims(self, path: str) -> list[Claim]:
        from caas_tui.review.claims import extract_claims
        from caas_tui.review.textutil import read_text

        return extract_claims(path, read_text(self.engine.resolve_path(path)))

    def states(self, claims: Sequence[Claim]) -> dict[str, ClaimState]:
        return {}

    def close(self) -> None:
        pass
