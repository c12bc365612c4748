"""What discovery produces, and the path-only rules that classify a file.

Everything here looks at the relative path alone (no I/O), so discovery can
classify thousands of files without touching their contents.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from caas_tui.models import Kind

# Extension -> language. Anything else is not indexable and never becomes an entry.
LANGUAGES: dict[str, str] = {
    ".py": "python",
    ".pyi": "python",
    ".md": "markdown",
    ".markdown": "markdown",
    ".rst": "rst",
    ".txt": "text",
    ".ts": "typescript",
    ".tsx": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".js": "javascript",
    ".jsx": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".java": "java",
    ".kt": "kotlin",
    ".kts": "kotlin",
    ".cs": "csharp",
    ".go": "go",
    ".rs": "rust",
}
# Languages whose files are source code (code or test), not documentation.
CODE_LANGUAGES: frozenset[str] = frozenset(
    {"python", "typescript", "javascript", "java", "kotlin", "csharp", "go", "rust"}
)
# File-name conventions that mark a test, per language (Python's are checked in ``kind_of``).
_TEST_SUFFIXES: dict[str, tuple[str, ...]] = {
    "typescript": (".test.ts", ".spec.ts", ".test.tsx", ".spec.tsx", ".test.mts", ".spec.mts"),
    "javascript": (".test.js", ".spec.js", ".test.jsx", ".spec.jsx", ".test.mjs", ".spec.mjs", ".test.cjs",
                   ".spec.cjs"),
    "java": ("Test.java", "Tests.java"),
    "kotlin": ("Test.kt", "Tests.kt"),
    "csharp": ("Tests.cs", "Test.cs"),
    "go": ("_test.go",),
    "rust": (),
}
# Conventional extension-less documentation files (compared upper-cased).
TEXT_NAMES: frozenset[str] = frozenset({"README", "CHANGELOG", "CHANGES", "NEWS", "HISTORY"})

# Directory names skipped at any depth: VCS metadata, caches, environments and
# our own index never hold project documentation or code worth checking, and
# several are large enough to dominate the walk.
SKIP_DIRS: frozenset[str] = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".caas",
        "__pycache__",
        "node_modules",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
    }
)
TEST_DIRS: frozenset[str] = frozenset({"tests", "test"})


@dataclass(frozen=True, slots=True)
class FileEntry:
    """One indexable file found by discovery (no contents read yet)."""

    path: str  # relative to the project root, forward slashes
    kind: Kind
    language: str  # python | markdown | rst | text | typescript | javascript | java | kotlin | csharp | go | rust
    size: int  # bytes, from stat
    mtime: float  # seconds since the epoch, from stat


@dataclass(frozen=True, slots=True)
class Skipped:
    """A file that would have been indexed but cannot be; ``reason`` is one line."""

    path: str
    reason: str


@dataclass(frozen=True, slots=True)
class Discovery:
    """Every indexable file of a project, and those left out with their reason."""

    entries: list[FileEntry] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)


def language_of(path: str) -> str | None:
    """The language of ``path`` by extension (or well-known name), else None."""
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    if dot > 0:
        return LANGUAGES.get(name[dot:].lower())
    if dot < 0 and name.upper() in TEXT_NAMES:
        return "text"
    return None


def is_swap_file(name: str) -> bool:
    """Editor droppings (vim swap, emacs backup and lock files)."""
    return name.endswith((".swp", "~")) or name.startswith(".#")


def normalise_folder(folder: str) -> str:
    """``./upstream/`` -> ``upstream``: config folders compared as path prefixes."""
    folder = folder.replace("\\", "/").strip()
    while folder.startswith("./"):
        folder = folder[2:]
    return folder.strip("/")


def under(path: str, folder: str) -> bool:
    return bool(folder) and (path == folder or path.startswith(folder + "/"))


def kind_of(path: str, language: str, upstream: tuple[str, ...]) -> Kind:
    """upstream > test > doc > code, by path alone."""
    if any(under(path, normalise_folder(u)) for u in upstream):
        return "upstream"
    if language == "python":
        parts = path.split("/")
        name = parts[-1]
        if (
            any(p in TEST_DIRS for p in parts[:-1])
            or name.startswith("test_")
            or name.endswith(("_test.py", "_test.pyi"))
            or name == "conftest.py"
        ):
            return "test"
        return "code"
    if language in CODE_LANGUAGES:
        parts = path.split("/")
        if any(p in TEST_DIRS or p == "__tests__" for p in parts[:-1]) or parts[-1].endswith(
            _TEST_SUFFIXES.get(language, ())
        ):
            return "test"
        return "code"
    return "doc"


def format_size(n: int) -> str:
    """Decimal units, one decimal at most: ``1 MB``, ``3.2 MB``, ``512 bytes``."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f}".removesuffix(".0") + f" {unit}"
    return f"{n} bytes"
