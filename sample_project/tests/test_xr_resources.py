"""res:// URIs and the resource loader."""

import pytest

from xrkit.errors import ResourceNotFoundError, ResourceUriError
from xrkit.resources import ResourceLoader, ResourceUri
from xrkit.utils import asset_uri


def test_uri_building():
    uri = ResourceUri(package="demo", path="models/crate.obj")
    assert str(uri) == "res://demo/models/crate.obj"
    assert uri.name == "crate.obj"
    assert uri.suffix == ".obj"
    assert str(uri.with_suffix(".glb")) == "res://demo/models/crate.glb"
    assert str(ResourceUri("demo", "textures").join("wood", "oak.png")) == "res://demo/textures/wood/oak.png"


def test_parse_round_trip():
    uri = ResourceUri.parse("res://demo/models/crate.obj")
    assert uri == ResourceUri("demo", "models/crate.obj")
    assert ResourceUri.parse(str(uri)) == uri


def test_nested_scheme_is_syntactically_accepted_but_lands_in_the_path():
    uri = ResourceUri(package="demo", path="res://models/crate.obj")
    assert str(uri) == "res://demo/res://models/crate.obj"
    assert uri.path.startswith("res:")


@pytest.mark.parametrize(
    "package, path",
    [("Demo", "a.png"), ("demo", ""), ("demo", "/abs.png"), ("demo", "../up.png"), ("demo", "a\\b.png")],
)
def test_invalid_uris(package, path):
    with pytest.raises(ResourceUriError):
        ResourceUri(package, path)


def test_parse_rejects_other_schemes():
    with pytest.raises(ResourceUriError):
        ResourceUri.parse("file:///tmp/a.png")
    with pytest.raises(ResourceUriError):
        ResourceUri.parse("res://demo")


def test_asset_uri_defaults_to_app_package():
    assert str(asset_uri("models/crate.obj")) == "res://app/models/crate.obj"
    assert str(asset_uri("x.png", package="demo")) == "res://demo/x.png"


def test_loader_reads_and_caches(asset_root):
    loader = ResourceLoader(asset_root)
    uri = ResourceUri("demo", "models/crate.obj")
    assert loader.exists(uri)
    data = loader.load(uri)
    assert data.startswith(b"#")
    assert len(loader.cache) == 1
    loader.load(uri, cache=False)
    assert len(loader.cache) == 1
    mesh = loader.load_mesh(str(uri))
    assert len(mesh.vertices) == 8 and len(mesh.triangles) == 12
    assert mesh.source == uri


def test_loader_nested_scheme_does_not_resolve(asset_root):
    loader = ResourceLoader(asset_root)
    assert not loader.exists(ResourceUri(package="demo", path="res://models/crate.obj"))
    with pytest.raises(ResourceNotFoundError):
        loader.load("res://demo/res://models/crate.obj")


def test_loader_mount(tmp_path):
    (tmp_path / "a.txt").write_text("hello")
    loader = ResourceLoader(tmp_path / "nowhere")
    loader.mount("extra", tmp_path)
    assert loader.load_text("res://extra/a.txt") == "hello"
