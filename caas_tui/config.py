"""Project configuration: ``ROOT/caas.toml`` merged over defaults.

Example::

    [index]
    include = ["src/**", "docs/**"]
    exclude = ["**/generated/**"]
    upstream = ["upstream", "third_party_docs"]
    max_file_bytes = 1000000
    dir = ".caas"
    model = "/abs/path/to/model2vec-model"   # or a hub id; empty = shipped default

    [search]
    rrf_k = 60
    bm25_weight = 1.0
    dense_weight = 1.0

    [review]
    model = "claude-sonnet-4-6"
    concurrency = 4
    rerank = true      # re-rank the reviewer's evidence searches (needs caas-tui[transformers])
    execute = false    # also run the docs' Python code blocks in a sandbox (reviewer "execute")
    python = "/path/to/python"  # runs them when the project has no .venv/ or venv/
    provider = "anthropic"   # or "bedrock" / "vertex" (the SDK's AnthropicBedrock / AnthropicVertex)
    base_url = "http://localhost:11434"   # a proxy or local server; ANTHROPIC_BASE_URL also works
    max_tokens = 4096  # per answer; a local model's context must hold the whole tool loop
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from caas_tui.errors import ConfigError
from caas_tui.limits import DEFAULT_MAX_FILE_BYTES

CONFIG_FILE = "caas.toml"
REVIEW_PROVIDERS: tuple[str, ...] = ("anthropic", "bedrock", "vertex")
LEXICAL_BACKENDS: tuple[str, ...] = ("whoosh", "tantivy")  # index/lexical_select.py


@dataclass(frozen=True, slots=True)
class Config:
    """The defaults, ``caas.toml`` over them, then command-line overrides (``load_config``)."""

    root: Path
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    upstream: tuple[str, ...] = ("upstream",)
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    index_dir: Path | None = None  # absolute; None means ROOT/.caas
    model: str | None = None  # None = the shipped default model
    lexical: str = "whoosh"  # lexical backend, one of LEXICAL_BACKENDS
    rrf_k: float = 60.0
    bm25_weight: float = 1.0
    dense_weight: float = 1.0
    review_model: str = "claude-sonnet-4-6"
    review_concurrency: int = 4
    review_rerank: bool = True
    review_execute: bool = False
    review_python: str | None = None
    review_provider: str = "anthropic"  # anthropic | bedrock | vertex
    review_base_url: str | None = None  # a proxy or an Anthropic-compatible server; None = the SDK's default
    review_max_tokens: int = 4096
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def caas_dir(self) -> Path:
        return self.index_dir if self.index_dir is not None else self.root / ".caas"

    def with_overrides(self, **changes: Any) -> Config:
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


def _strings(value: Any, key: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise ConfigError(f"caas.toml: {key} must be a string or a list of strings")


def _number(value: Any, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(f"caas.toml: {key} must be a number")
    return float(value)


def load_config(root: Path, **overrides: Any) -> Config:
    """Read ``root/caas.toml`` (optional) and apply non-None keyword overrides."""
    root = root.resolve()
    cfg = Config(root=root)
    path = root / CONFIG_FILE
    if path.is_file():
        import tomllib  # here: compiling its patterns costs a one-shot command without a caas.toml

        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: not valid TOML ({exc})") from exc
        index = data.get("index", {})
        search = data.get("search", {})
        review = data.get("review", {})
        changes: dict[str, Any] = {}
        for key in ("include", "exclude", "upstream"):
            if key in index:
                changes[key] = _strings(index[key], f"index.{key}")
        if "max_file_bytes" in index:
            changes["max_file_bytes"] = int(_number(index["max_file_bytes"], "index.max_file_bytes"))
        if "dir" in index:
            d = Path(str(index["dir"]))
            d = (d if d.is_absolute() else root / d).resolve()
            # caas.toml is repository content: it may not make caas-tui write outside the project.
            if not d.is_relative_to(root):
                raise ConfigError(f"{path}: index.dir must be inside the project (got {index['dir']}); use --index-dir instead")
            changes["index_dir"] = d
        if index.get("model"):
            spec = str(index["model"])
            # A relative path means relative to the project, not to wherever caas-tui runs.
            local = root / spec
            changes["model"] = str(local) if spec.startswith(".") or local.exists() else spec
        if "lexical" in index:
            if index["lexical"] not in LEXICAL_BACKENDS:
                raise ConfigError(f"{path}: index.lexical must be one of {', '.join(LEXICAL_BACKENDS)}")
            changes["lexical"] = index["lexical"]
        for key in ("rrf_k", "bm25_weight", "dense_weight"):
            if key in search:
                changes[key] = _number(search[key], f"search.{key}")
        if "model" in review:
            changes["review_model"] = str(review["model"])
        if "concurrency" in review:
            changes["review_concurrency"] = max(1, int(_number(review["concurrency"], "review.concurrency")))
        if "provider" in review:
            if review["provider"] not in REVIEW_PROVIDERS:
                raise ConfigError(f"{path}: review.provider must be one of {', '.join(REVIEW_PROVIDERS)}")
            changes["review_provider"] = review["provider"]
        if review.get("base_url"):
            changes["review_base_url"] = str(review["base_url"])
        if "max_tokens" in review:
            changes["review_max_tokens"] = max(1, int(_number(review["max_tokens"], "review.max_tokens")))
        if "rerank" in review:
            if not isinstance(review["rerank"], bool):
                raise ConfigError(f"{path}: review.rerank must be true or false")
            changes["review_rerank"] = review["rerank"]
        if "execute" in review:
            if not isinstance(review["execute"], bool):
                raise ConfigError(f"{path}: review.execute must be true or false")
            changes["review_execute"] = review["execute"]
        if review.get("python"):
            changes["review_python"] = str(review["python"])
        cfg = replace(cfg, **changes)
    if overrides.get("index_dir") is not None:
        overrides["index_dir"] = Path(overrides["index_dir"]).resolve()
    return cfg.with_overrides(**overrides)
