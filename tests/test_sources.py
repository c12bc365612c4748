"""sources/: discovery (gitignore, globs, kinds, caps) and loading (binary, UTF-8, vanished)."""

from __future__ import annotations

import builtins
import hashlib
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from caas_tui.config import Config
from caas_tui.errors import ProjectError
from caas_tui.models import SourceFile
from caas_tui.sources import Discovery, FileEntry, Skipped, discover, load

from .conftest import write

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")


def _paths(d: Discovery) -> list[str]:
    return [e.path for e in d.entries]


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def _git_init(root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    _git(root, "init", "-q")
    _git(root, "config", "user.email", "dev@example.com")
    _git(root, "config", "user.name", "Dev")


def _outside_git(path: Path) -> bool:
    return not any((d / ".git").exists() for d in (path, *path.parents))


def _layout(root: Path) -> None:
    write(root, ".gitignore", "build/\nsecret.md\n*.gen.py\nkeep.md\n")
    write(root, "pkg/mod.py", "x = 1\n")
    write(root, "pkg/fast.gen.py", "y = 2\n")
    write(root, "build/out.py", "z = 3\n")
    write(root, "secret.md", "# no\n")
    write(root, "docs/guide.md", "# Guide\n")
    write(root, "docs/draft.md", "# Draft\n")
    write(root, "docs/keep.md", "# Keep\n")
    # A nested .gitignore: ignores every md in docs/ except keep.md (last match wins).
    write(root, "docs/.gitignore", "*.md\n!keep.md\n")
    write(root, "data.json", "{}\n")  # unknown language: never an entry


EXPECTED = ["docs/keep.md", "pkg/mod.py"]


def test_gitignore_honoured_outside_git(tmp_path: Path) -> None:
    if not _outside_git(tmp_path):
        pytest.skip("tmp_path lives inside a git work tree")
    _layout(tmp_path)
    assert _paths(discover(Config(root=tmp_path))) == EXPECTED


@needs_git
def test_gitignore_honoured_in_git_repo_with_untracked_and_deleted(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    _git_init(root)
    _layout(root)
    write(root, "gone.py", "pass\n")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "init")
    (root / "gone.py").unlink()  # still in the git index, no longer on disk
    write(root, "new_untracked.md", "# New\n")
    # Only git knows .git/info/exclude: proves ls-files (not the walker) decided.
    (root / ".git" / "info").mkdir(exist_ok=True)
    (root / ".git" / "info" / "exclude").write_text("private.md\n")
    write(root, "private.md", "# Private\n")
    assert _paths(discover(Config(root=root))) == ["docs/keep.md", "new_untracked.md", "pkg/mod.py"]


@needs_git
def test_root_in_subdirectory_of_repo_gives_root_relative_paths(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _git_init(repo)
    write(repo, "top.md", "# Top\n")
    write(repo, "sub/.gitignore", "skip.py\n")
    write(repo, "sub/a/mod.py", "x = 1\n")
    write(repo, "sub/skip.py", "x = 1\n")
    assert _paths(discover(Config(root=repo / "sub"))) == ["a/mod.py"]


@needs_git
def test_root_ignored_by_enclosing_repo_is_walked(tmp_path: Path) -> None:
    outer = tmp_path / "outer"
    _git_init(outer)
    write(outer, ".gitignore", "/vendor\n")
    root = outer / "vendor" / "lib"
    write(root, "mod.py", "x = 1\n")
    write(root, ".gitignore", "skip.md\n")
    write(root, "skip.md", "# skip\n")
    assert _paths(discover(Config(root=root))) == ["mod.py"]


def test_include_and_exclude_globs(tmp_path: Path) -> None:
    for rel in ("src/pkg/a.py", "src/pkg/generated/b.py", "docs/x.md", "notes.txt", "tools/t.py"):
        write(tmp_path, rel, "x\n")
    cfg = Config(root=tmp_path, include=("src/**", "*.md"), exclude=("**/generated/**",))
    assert _paths(discover(cfg)) == ["docs/x.md", "src/pkg/a.py"]
    only_exclude = Config(root=tmp_path, exclude=("src/", "*.txt"))
    assert _paths(discover(only_exclude)) == ["docs/x.md", "tools/t.py"]


def test_kinds_and_languages(tmp_path: Path) -> None:
    files = {
        "src/pkg/mod.py": ("code", "python"),
        "src/pkg/stub.pyi": ("code", "python"),
        "tests/test_a.py": ("test", "python"),
        "pkg/test/helpers.py": ("test", "python"),
        "pkg/test_b.py": ("test", "python"),
        "pkg/b_test.py": ("test", "python"),
        "conftest.py": ("test", "python"),
        "tests/data.txt": ("doc", "text"),
        "docs/a.md": ("doc", "markdown"),
        "docs/b.markdown": ("doc", "markdown"),
        "docs/c.rst": ("doc", "rst"),
        "README": ("doc", "text"),
        "CHANGELOG": ("doc", "text"),
        "upstream/lib/x.py": ("upstream", "python"),
        "upstream/guide.md": ("upstream", "markdown"),
        "third/ref.rst": ("upstream", "rst"),
        "upstreamish/y.py": ("code", "python"),
        "Makefile": None,
    }
    for rel in files:
        write(tmp_path, rel, "x\n")
    cfg = Config(root=tmp_path, upstream=("upstream", "./third/"))
    got = {e.path: (e.kind, e.language) for e in discover(cfg).entries}
    assert got == {k: v for k, v in files.items() if v is not None}


def test_always_skipped_dirs_and_swap_files(tmp_path: Path) -> None:
    for rel in (
        "keep.py",
        ".venv/lib/x.py",
        "venv/y.py",
        "node_modules/pkg/README.md",
        "pkg/__pycache__/z.py",
        ".caas/notes.md",
        "myindex/chunks.md",
        ".#keep.py",
        "keep.py~",
        ".git/HEAD.md",
    ):
        write(tmp_path, rel, "x\n")
    cfg = Config(root=tmp_path, index_dir=tmp_path / "myindex")
    assert _paths(discover(cfg)) == ["keep.py"]


def test_symlinks_outside_root_skipped_inside_kept(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    write(root, "real.md", "# Real\n")
    write(tmp_path, "elsewhere.md", "# Elsewhere\n")
    os.symlink(tmp_path / "elsewhere.md", root / "escape.md")
    os.symlink(root / "real.md", root / "alias.md")
    d = discover(Config(root=root))
    assert _paths(d) == ["alias.md", "real.md"]
    assert d.skipped == [Skipped("escape.md", "escape.md: symlink pointing outside the project root")]


def test_over_size_cap_is_skipped_with_reason(tmp_path: Path) -> None:
    write(tmp_path, "small.md", "# ok\n")
    (tmp_path / "big.md").write_bytes(b"a" * 3_200_000)
    d = discover(Config(root=tmp_path))
    assert _paths(d) == ["small.md"]
    assert d.skipped == [Skipped("big.md", "big.md: over the 1 MB size cap (3.2 MB)")]


def test_discovery_reads_no_file_contents(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not _outside_git(tmp_path):
        pytest.skip("tmp_path lives inside a git work tree")
    _layout(tmp_path)
    real_open = builtins.open

    def guarded(file: Any, *args: Any, **kwargs: Any) -> Any:
        assert str(file).endswith(".gitignore"), f"discover read {file}"
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", guarded)
    assert _paths(discover(Config(root=tmp_path))) == EXPECTED


def test_missing_root_is_a_project_error(tmp_path: Path) -> None:
    with pytest.raises(ProjectError):
        discover(Config(root=tmp_path / "nope"))


def _entry(cfg: Config, rel: str) -> FileEntry:
    return next(e for e in discover(cfg).entries if e.path == rel)


def test_load_decodes_hashes_and_normalises_newlines(tmp_path: Path) -> None:
    raw = b"\xef\xbb\xbf# Title\r\n\r\nBody\rline\n"
    (tmp_path / "a.md").write_bytes(raw)
    cfg = Config(root=tmp_path)
    src = load(cfg, _entry(cfg, "a.md"))
    assert isinstance(src, SourceFile)
    assert src.text == "# Title\n\nBody\nline\n"
    assert src.sha256 == hashlib.sha256(raw).hexdigest()
    assert (src.kind, src.language, src.size, src.warnings) == ("doc", "markdown", len(raw), ())


def test_load_skips_binary(tmp_path: Path) -> None:
    (tmp_path / "blob.py").write_bytes(b"x = 1\n\x00\x01\x02")
    cfg = Config(root=tmp_path)
    assert load(cfg, _entry(cfg, "blob.py")) == Skipped("blob.py", "blob.py: binary file (NUL byte in the first 8 KB)")


def test_load_bad_utf8_replaces_and_warns(tmp_path: Path) -> None:
    (tmp_path / "latin.md").write_bytes("caf\u00e9 na\u00efve\n".encode("latin-1"))
    cfg = Config(root=tmp_path)
    src = load(cfg, _entry(cfg, "latin.md"))
    assert isinstance(src, SourceFile)
    assert src.text == "caf\ufffd na\ufffdve\n"
    assert src.warnings == ("latin.md: not valid UTF-8, 2 bytes replaced",)


def test_load_vanished_file_is_skipped(tmp_path: Path) -> None:
    write(tmp_path, "gone.py", "x = 1\n")
    cfg = Config(root=tmp_path)
    entry = _entry(cfg, "gone.py")
    (tmp_path / "gone.py").unlink()
    result = load(cfg, entry)
    assert isinstance(result, Skipped)
    assert result.path == "gone.py" and "vanished" in result.reason


def test_load_rechecks_cap_and_refuses_paths_outside_root(tmp_path: Path) -> None:
    write(tmp_path, "grew.md", "x\n")
    cfg = Config(root=tmp_path, max_file_bytes=10)
    entry = _entry(cfg, "grew.md")
    (tmp_path / "grew.md").write_text("y" * 2000)
    assert load(cfg, entry) == Skipped("grew.md", "grew.md: over the 10 bytes size cap (2 KB)")
    sneaky = FileEntry(path="../outside.md", kind="doc", language="markdown", size=1, mtime=0.0)
    assert load(cfg, sneaky) == Skipped("../outside.md", "../outside.md: outside the project root")
