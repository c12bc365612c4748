"""Which interpreter runs a doc's code: the project's own environment first."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from caas_tui.errors import ConfigError

_ENV_DIRS = (".venv", "venv")


@dataclass(frozen=True, slots=True)
class PythonChoice:
    path: str
    line: str  # the one line that says which, for the user


def _env_python(env: Path) -> Path | None:
    for candidate in (env / "bin" / "python", env / "Scripts" / "python.exe"):
        if candidate.is_file():
            return candidate
    return None


def pick_python(root: Path, configured: str | None = None) -> PythonChoice:
    """The project's ``.venv/`` or ``venv/``, else ``configured`` (``--python`` / ``[review] python``),
    else the interpreter caas-tui runs in."""
    for name in _ENV_DIRS:
        found = _env_python(root / name)
        if found is not None:
            return PythonChoice(str(found), f"executing docs with the project's environment {name}/ ({found})")
    if configured:
        path = Path(configured).expanduser()
        if not path.is_absolute():
            path = (root / path) if (root / path).exists() else path.resolve()
        if not path.is_file():
            raise ConfigError(f"python {configured}: no such interpreter")
        return PythonChoice(str(path), f"executing docs with {path} (--python / [review] python)")
    return PythonChoice(sys.executable, f"executing docs with caas-tui's own interpreter ({sys.executable})")
