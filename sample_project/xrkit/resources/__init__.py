"""Resource URIs and the loader that resolves them."""

from xrkit.resources.loader import ResourceCache, ResourceLoader
from xrkit.resources.uri import ResourceUri

__all__ = ["ResourceCache", "ResourceLoader", "ResourceUri"]
