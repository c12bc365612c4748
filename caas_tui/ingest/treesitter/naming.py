"""Scopes from file paths, for languages without a package line (TS/JS modules, Rust files)."""

from __future__ import annotations

_JS_EXTS = (".d.ts", ".d.mts", ".d.cts", ".tsx", ".ts", ".mts", ".cts", ".jsx", ".js", ".mjs", ".cjs")


def _parts(path: str) -> list[str]:
    return [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]


def js_module_name(path: str) -> str:
    """Like Python's ``module_name``: ``src/shapes/index.ts`` -> ``shapes``, ``lib/a.js`` -> ``a``."""
    parts = _parts(path)
    if len(parts) > 1 and parts[0] in ("src", "lib"):
        parts = parts[1:]
    if parts:
        last = parts[-1]
        for ext in _JS_EXTS:
            if last.endswith(ext):
                parts[-1] = last[: -len(ext)]
                break
        if parts[-1] == "index" and len(parts) > 1:
            parts.pop()
    return ".".join(parts)


def rust_module_name(path: str) -> str:
    """The module path inside the crate: ``src/geo/mod.rs`` -> ``geo``; ``src/lib.rs`` -> ``""``."""
    parts = _parts(path)
    if "src" in parts[:-1]:
        parts = parts[len(parts) - parts[::-1].index("src") :]
    if parts and parts[-1].endswith(".rs"):
        parts[-1] = parts[-1][:-3]
    if parts and parts[-1] in ("lib", "main", "mod"):
        parts.pop()
    return ".".join(parts)


def join(*names: str | None) -> str:
    return ".".join(n for n in names if n)
