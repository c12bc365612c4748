"""The Messages API client for the configured provider: Anthropic (or any
Anthropic-compatible server behind ``base_url``), Amazon Bedrock or Google Vertex AI.

Each provider is the SDK's own client (``Anthropic``, ``AnthropicBedrock``,
``AnthropicVertex``), so request signing, URL layout and auth stay the SDK's.
Credentials come from the environment as the SDK reads them; a missing optional
extra or credential is a one-line ``ReviewError``, not an import traceback at the
first request.
"""

from __future__ import annotations

import os
from typing import Any

import anthropic

from caas_tui.config import REVIEW_PROVIDERS, Config
from caas_tui.errors import ConfigError, ReviewError
from caas_tui.review.providers import credentials_problem

# Local Anthropic-compatible servers (Ollama, llama.cpp) accept any key; the SDK insists on one.
LOCAL_KEY = "caas-local"


def make_client(
    provider: str = "anthropic", *, base_url: str | None = None, check: bool = True, **options: Any
) -> anthropic.Anthropic | anthropic.AnthropicBedrock | anthropic.AnthropicVertex:
    """The SDK client for ``provider``. ``options`` go to the SDK constructor as they are
    (``http_client``, ``aws_region``, ``region``, ``project_id``, ``access_token``, ``api_key``...)."""
    if provider not in REVIEW_PROVIDERS:
        raise ConfigError(f"unknown review provider {provider!r} (choose from {', '.join(REVIEW_PROVIDERS)})")
    if check and not any(k in options for k in ("api_key", "access_token", "aws_access_key")):
        problem = credentials_problem(provider, base_url)
        if problem:
            raise ReviewError(problem)
    try:
        if provider == "bedrock":
            return anthropic.AnthropicBedrock(base_url=base_url, **options)
        if provider == "vertex":
            return anthropic.AnthropicVertex(base_url=base_url, **options)
        url = base_url or os.environ.get("ANTHROPIC_BASE_URL") or None
        if url and "api_key" not in options and not (
            os.environ.get("ANTHROPIC_API_KEY", "").strip() or os.environ.get("ANTHROPIC_AUTH_TOKEN", "").strip()
        ):
            options["api_key"] = LOCAL_KEY
        return anthropic.Anthropic(base_url=url, **options)
    except (anthropic.AnthropicError, ValueError) as exc:  # e.g. no region configured
        raise ReviewError(f"cannot set up the {provider} client: {' '.join(str(exc).split())[:300]}") from None


def client_for(cfg: Config, **options: Any) -> anthropic.Anthropic | anthropic.AnthropicBedrock | anthropic.AnthropicVertex:
    return make_client(cfg.review_provider, base_url=cfg.review_base_url, **options)


__all__ = ["LOCAL_KEY", "client_for", "make_client"]
