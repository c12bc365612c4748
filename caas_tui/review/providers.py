"""Can the configured Claude provider authenticate? Answered without importing ``anthropic``,
so ``select`` can fall back to the static reviewer before the SDK loads."""

from __future__ import annotations

import importlib.util
import os

from caas_tui.config import REVIEW_PROVIDERS


def credentials_problem(provider: str, base_url: str | None) -> str | None:
    """Why this provider cannot authenticate from the environment, or None when it can."""
    env = os.environ
    if provider == "anthropic":
        if env.get("ANTHROPIC_API_KEY", "").strip() or env.get("ANTHROPIC_AUTH_TOKEN", "").strip():
            return None
        if base_url or env.get("ANTHROPIC_BASE_URL", "").strip():
            return None  # a proxy or local server: LOCAL_KEY is sent
        return "ANTHROPIC_API_KEY is not set"
    if provider == "bedrock":
        if env.get("AWS_BEARER_TOKEN_BEDROCK", "").strip():
            return None
        if importlib.util.find_spec("boto3") is None:
            return "provider bedrock needs boto3 for AWS credentials: pip install 'anthropic[bedrock]'"
        return None
    if provider == "vertex":
        if importlib.util.find_spec("google") is None or importlib.util.find_spec("google.auth") is None:
            return "provider vertex needs google-auth: pip install 'anthropic[vertex]'"
        return None
    return f"unknown review provider {provider!r} (choose from {', '.join(REVIEW_PROVIDERS)})"


__all__ = ["credentials_problem"]
