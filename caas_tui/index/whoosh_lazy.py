"""Import Whoosh without compiling its English morphology tables (issue 20).

``whoosh.query`` imports ``whoosh.query.terms``, which imports ``variations`` from
``whoosh.lang.morph_en``; that module compiles six very large regular expressions at
import: the biggest single import cost of a one-shot ``caas-tui search`` (about a third of
Whoosh's import). Only Whoosh's ``Variations`` query (word-form expansion) calls it and
this program never builds one. :func:`install` puts a stand-in for that module in
``sys.modules`` before Whoosh is imported; the stand-in loads the real module the first
time anything in it is used, so behaviour is unchanged, only deferred.

:class:`MappedStorage` is the read side's storage: Whoosh's own mmap path hands each
sub-file of a compound segment to ``BufferFile``, whose ``BytesIO(memoryview)`` copies it, so
every searcher open copied most of the segment (38 MB at stdlib scale: half a one-shot
search's page faults). Its sub-files read their own map of the file in place instead.
"""

from __future__ import annotations

import functools
import importlib.machinery
import importlib.util
import mmap
import sys
import types
from array import array
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from whoosh.filedb.filestore import FileStorage

_NAME = "whoosh.lang.morph_en"


def _real() -> types.ModuleType:
    current = sys.modules.get(_NAME)
    if current is not None and not getattr(current, "_caas_stand_in", False):
        return current
    import whoosh.lang

    spec = importlib.machinery.PathFinder.find_spec(_NAME, list(whoosh.lang.__path__))
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot find {_NAME}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[_NAME] = module
    return module


def _variations(word: str) -> Any:
    return _real().variations(word)


def _getattr(name: str) -> Any:
    if name.startswith("__"):
        # the import system probes ``__path__`` and friends: a plain module has none
        raise AttributeError(name)
    return getattr(_real(), name)


def install() -> None:
    """Idempotent; does nothing once the real module (or the stand-in) is loaded."""
    if _NAME in sys.modules:
        return
    stand_in = types.ModuleType(_NAME, "stand-in for whoosh.lang.morph_en, loaded on first use (caas_tui)")
    stand_in._caas_stand_in = True  # type: ignore[attr-defined]
    stand_in.variations = _variations  # type: ignore[attr-defined]
    stand_in.__getattr__ = _getattr  # type: ignore[method-assign]  # PEP 562: any other name loads the real one
    sys.modules[_NAME] = stand_in


@functools.cache
def mapped_storage_class() -> type[FileStorage]:
    """:class:`MappedStorage`, defined on first use: the Whoosh storage modules it extends
    are not imported with this module (the Tantivy backend never loads them)."""
    from whoosh.codec.base import Segment
    from whoosh.filedb.filestore import FileStorage
    from whoosh.filedb.structfile import BufferFile, StructFile

    class MappedSubFile(StructFile):
        """One sub-file of a compound segment, read from a private read-only map of its byte range.

        Its own map (not a view of one shared map) gives it its own position, so ``read`` is the
        map's C method with no per-call translation, and nothing is exported from the map, so
        closing it never meets a live buffer. ``get`` does not move the position, as in
        ``BufferFile``.
        """

        def __init__(self, fileno: int, offset: int, length: int, name: str | None = None) -> None:
            start = offset - offset % mmap.ALLOCATIONGRANULARITY  # a map must start on a granule
            self._delta = offset - start
            self._mm = mmap.mmap(fileno, self._delta + length, access=mmap.ACCESS_READ, offset=start)
            super().__init__(self._mm, name=name)  # type: ignore[arg-type]  # mmap is file-like enough
            self._mm.seek(self._delta)
            self.read = self._mm.read  # type: ignore[method-assign]
            self.readline = self._mm.readline  # type: ignore[method-assign]

        def __iter__(self) -> Iterator[bytes]:
            return iter(self._mm.readline, b"")  # lines, like a file (iterating a map yields bytes)

        def tell(self, *args: Any, **kwargs: Any) -> int:
            return self._mm.tell() - self._delta

        def seek(self, pos: int, whence: Literal[0, 1, 2] = 0) -> int:
            if whence == 0:
                pos += self._delta
            self._mm.seek(pos, whence)
            return self._mm.tell() - self._delta

        def get(self, position: int, length: int) -> bytes:
            start = self._delta + position
            return self._mm[start : start + length]

        def get_array(self, position: int, typecode: str, length: int) -> array[Any]:
            a = array(typecode)  # itemsize: the native size BufferFile's struct.calcsize gives
            a.frombytes(self.get(position, length * a.itemsize))
            if sys.byteorder == "little":  # stored big-endian
                a.byteswap()
            return a

        def subset(self, position: int, length: int, name: str | None = None) -> StructFile:
            return BufferFile(self.get(position, length), name=name or self._name)

    class _SegmentFile(StructFile):
        """A compound segment file whose ``subset`` (what ``CompoundStorage`` opens a sub-file
        with when it has no map of its own) is a :class:`MappedSubFile`."""

        def subset(self, offset: int, length: int, name: str | None = None) -> StructFile:
            if length > 0:  # an empty map cannot be made
                try:
                    return MappedSubFile(self.file.fileno(), offset, length, name=name or self._name)
                except (OSError, ValueError):
                    pass  # e.g. out of address space: the unmapped sub-file reads the same bytes
            return super().subset(offset, length, name=name)

    class MappedStorage(FileStorage):
        """A ``FileStorage`` whose compound segments are read in place (see the module doc).

        ``supports_mmap=False`` keeps ``CompoundStorage`` from mapping the segment itself and
        copying each sub-file; it then asks the segment file's ``subset``, which maps the range.
        Writing and every non-segment file are ``FileStorage``'s own.
        """

        def __init__(self, path: str, readonly: bool = False) -> None:
            super().__init__(path, supports_mmap=False, readonly=readonly)

        def open_file(self, name: str, **kwargs: Any) -> StructFile:
            if kwargs or not name.endswith(Segment.COMPOUND_EXT):
                return super().open_file(name, **kwargs)
            return _SegmentFile(open(self._fpath(name), "rb"), name=name)  # noqa: SIM115  # closed by its CompoundStorage

    return MappedStorage
