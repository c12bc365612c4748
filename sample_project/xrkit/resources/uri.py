"""``res://`` resource URIs."""

from __future__ import annotations

import re
from dataclasses import dataclass

from xrkit.config import RESOURCE_SCHEME
from xrkit.errors import ResourceUriError

_PACKAGE = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")
_PREFIX = f"{RESOURCE_SCHEME}://"


@dataclass(frozen=True, slots=True)
class ResourceUri:
    """Address of a packaged asset: ``res://<package>/<path>``.

    The package names an asset bundle; the path is relative to the bundle
    root and uses forward slashes. ``str()`` gives the URI form the Helios
    platform expects.

    Args:
        package: Bundle name (lower case, digits, ``_``, ``.``, ``-``).
        path: Path inside the bundle, without a leading slash.

    Raises:
        ResourceUriError: If the package name is invalid, or the path is
            empty, absolute, or climbs out of the bundle with ``..``.

    Example:
        >>> str(ResourceUri(package="demo", path="models/crate.obj"))
        'res://demo/models/crate.obj'
    """

    package: str
    path: str

    def __post_init__(self) -> None:
        if not _PACKAGE.match(self.package):
            raise ResourceUriError(f"invalid package name {self.package!r}")
        if not self.path or self.path.startswith("/"):
            raise ResourceUriError(f"path must be relative and non-empty, got {self.path!r}")
        if ".." in self.path.split("/"):
            raise ResourceUriError(f"path may not contain '..': {self.path!r}")
        if "\\" in self.path:
            raise ResourceUriError(f"use forward slashes in resource paths: {self.path!r}")

    @classmethod
    def parse(cls, text: str) -> "ResourceUri":
        """Parse ``res://<package>/<path>``.

        Everything after the first slash following the package is the path.

        Raises:
            ResourceUriError: If ``text`` does not use the ``res`` scheme or
                has no path.
        """
        if not text.startswith(_PREFIX):
            raise ResourceUriError(f"not a {RESOURCE_SCHEME}:// URI: {text!r}")
        package, sep, path = text[len(_PREFIX):].partition("/")
        if not sep:
            raise ResourceUriError(f"missing path in {text!r}")
        return cls(package=package, path=path)

    def join(self, *parts: str) -> "ResourceUri":
        """Append path segments: ``uri.join("textures", "wood.png")``."""
        segments = [self.path.rstrip("/"), *(p.strip("/") for p in parts)]
        return ResourceUri(self.package, "/".join(s for s in segments if s))

    @property
    def name(self) -> str:
        """Final path segment (``"crate.obj"``)."""
        return self.path.rstrip("/").rsplit("/", 1)[-1]

    @property
    def suffix(self) -> str:
        """Extension of :attr:`name` including the dot, or ``""``."""
        stem, dot, ext = self.name.rpartition(".")
        return f".{ext}" if dot and stem else ""

    def with_suffix(self, suffix: str) -> "ResourceUri":
        """The same URI with the extension replaced by ``suffix`` (e.g. ``".ktx2"``)."""
        head, _, _ = self.path.rpartition(self.name)
        stem = self.name[: -len(self.suffix)] if self.suffix else self.name
        return ResourceUri(self.package, f"{head}{stem}{suffix}")

    def __str__(self) -> str:
        return f"{_PREFIX}{self.package}/{self.path}"
