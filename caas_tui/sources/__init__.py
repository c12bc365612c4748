"""sources layer: files on disk -> ``FileEntry`` (discover) -> ``SourceFile`` (load)."""

from caas_tui.sources.discover import discover
from caas_tui.sources.entries import Discovery, FileEntry, Skipped, kind_of, language_of
from caas_tui.sources.load import load, load_path

__all__ = ["Discovery", "FileEntry", "Skipped", "discover", "kind_of", "language_of", "load", "load_path"]
