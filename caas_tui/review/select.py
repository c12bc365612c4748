"""Pick a reviewer by name, falling back to the static one when Claude can't run."""

from __future__ import annotations

import importlib

from caas_tui.config import Config
from caas_tui.errors import ConfigError
from caas_tui.review.base import Reviewer
from caas_tui.review.providers import credentials_problem
from caas_tui.review.static.reviewer import StaticReviewer

REVIEWERS: tuple[str, ...] = ("static", "claude")
NO_KEY = "ANTHROPIC_API_KEY is not set; using the static reviewer"
NO_MODULE = "the claude reviewer is not available; using the static reviewer"


def make_reviewer(name: str, cfg: Config) -> tuple[Reviewer, str | None]:
    """The reviewer and, when it fell back to ``static``, the one-line reason why."""
    if name == "static":
        return StaticReviewer(), None
    if name != "claude":
        raise ConfigError(f"unknown reviewer {name!r} (choose from {', '.join(REVIEWERS)})")
    problem = credentials_problem(cfg.review_provider, cfg.review_base_url)
    if problem:
        return StaticReviewer(), f"{problem}; using the static reviewer"  # NO_KEY when the key is missing
    try:
        module = importlib.import_module("caas_tui.review.claude")  # lazy: anthropic loads only when asked for
    except ModuleNotFoundError as exc:
        if exc.name not in ("caas_tui.review.claude", "anthropic"):
            raise
        return StaticReviewer(), NO_MODULE
    factory = getattr(module, "ClaudeReviewer", None)
    if factory is None:
        return StaticReviewer(), NO_MODULE
    reviewer: Reviewer = factory.from_env(cfg) if hasattr(factory, "from_env") else factory()
    return reviewer, None
