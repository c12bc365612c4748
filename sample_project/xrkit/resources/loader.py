"""Loading resources from package directories on disk."""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

from xrkit.config import RESOURCE_CACHE_SIZE
from xrkit.errors import ResourceNotFoundError
from xrkit.geometry.mesh import Mesh
from xrkit.resources.uri import ResourceUri


class ResourceCache:
    """A small least-recently-used cache of loaded bytes.

    Args:
        max_items: Entries kept before the least recently used one is
            evicted. Defaults to 128.
    """

    def __init__(self, max_items: int = RESOURCE_CACHE_SIZE) -> None:
        self.max_items = max_items
        self._items: OrderedDict[str, bytes] = OrderedDict()

    def get(self, key: str) -> bytes | None:
        """Cached bytes for ``key`` (marking it recently used), or None."""
        data = self._items.get(key)
        if data is not None:
            self._items.move_to_end(key)
        return data

    def put(self, key: str, data: bytes) -> None:
        """Store ``data``, evicting the oldest entry if full."""
        self._items[key] = data
        self._items.move_to_end(key)
        while len(self._items) > self.max_items:
            self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


class ResourceLoader:
    """Resolves ``res://`` URIs to files and reads them.

    A package ``demo`` maps to the directory ``<root>/demo`` unless it was
    mapped elsewhere with :meth:`mount`.

    Args:
        root: Directory holding one sub-directory per package.
        cache_size: Loaded resources kept in memory.
    """

    def __init__(self, root: str | Path, *, cache_size: int = RESOURCE_CACHE_SIZE) -> None:
        self.root = Path(root)
        self.cache = ResourceCache(cache_size)
        self._mounts: dict[str, Path] = {}

    def mount(self, package: str, directory: str | Path) -> None:
        """Serve ``package`` from ``directory`` instead of ``<root>/<package>``."""
        self._mounts[package] = Path(directory)

    def resolve(self, uri: ResourceUri | str) -> Path:
        """Filesystem path for ``uri`` (which need not exist)."""
        uri = ResourceUri.parse(uri) if isinstance(uri, str) else uri
        base = self._mounts.get(uri.package, self.root / uri.package)
        return base.joinpath(*uri.path.split("/"))

    def exists(self, uri: ResourceUri | str) -> bool:
        """True if ``uri`` resolves to an existing file."""
        return self.resolve(uri).is_file()

    def load(self, uri: ResourceUri | str, *, cache: bool = True) -> bytes:
        """Read the resource at ``uri``.

        Args:
            uri: A :class:`ResourceUri` or its string form.
            use_cache: Serve from and store into the in-memory cache.

        Returns:
            bytes: The file contents.

        Raises:
            ResourceNotFoundError: If the URI does not resolve to a file.
        """
        key = str(uri)
        if cache and (hit := self.cache.get(key)) is not None:
            return hit
        path = self.resolve(uri)
        if not path.is_file():
            raise ResourceNotFoundError(f"{key} -> {path} does not exist")
        data = path.read_bytes()
        if cache:
            self.cache.put(key, data)
        return data

    def load_text(self, uri: ResourceUri | str, encoding: str = "utf-8") -> str:
        """Read the resource at ``uri`` and decode it."""
        return self.load(uri).decode(encoding)

    def load_mesh(self, uri: ResourceUri | str) -> Mesh:
        """Load a Wavefront OBJ resource as a :class:`~xrkit.geometry.mesh.Mesh`."""
        uri = ResourceUri.parse(uri) if isinstance(uri, str) else uri
        if uri.suffix != ".obj":
            raise ValueError(f"only .obj meshes are supported, got {uri.name!r}")
        return Mesh.from_obj(self.load_text(uri), source=uri)
