import json

import pytest
from mapgrid import BBox, BBoxError, CoordinateError, GeoJSONError, LatLon, geojson, polygon

SQUARE = [LatLon(0, 0), LatLon(0, 1), LatLon(1, 1), LatLon(1, 0)]  # lat, lon: counterclockwise on a map


def test_bbox_checks():
    with pytest.raises(BBoxError):
        BBox(0, 10, 1, 5)
    with pytest.raises(CoordinateError):
        BBox(0, 0, 200, 1)
    with pytest.raises(BBoxError):
        BBox.from_points([])


def test_bbox_antimeridian():
    box = BBox(170, -10, -170, 10)
    assert box.crosses_antimeridian and box.width == 20
    assert box.contains(LatLon(0, 179)) and box.contains(LatLon(0, -175))
    assert not box.contains(LatLon(0, 0))
    assert box.center() == LatLon(0, -180)
    assert box.intersects(BBox(-175, 0, -160, 5))


def test_bbox_expand_is_metres_and_clamps():
    box = BBox(0, 0, 1, 1).expand(1000)
    assert box.north - 1 == pytest.approx(0.008993, rel=1e-3)
    polar = BBox(-10, 89.9, 10, 89.99).expand(50_000)
    assert polar.north == 90.0
    assert BBox(0, 0, 1, 1).expand() == BBox(0, 0, 1, 1).expand(50.0)


def test_bbox_union_and_list():
    u = BBox(0, 0, 1, 1).union(BBox(2, -1, 3, 0.5))
    assert u.as_list() == [0, -1, 3, 1]


def test_winding_and_area():
    assert not polygon.is_clockwise(SQUARE)
    assert polygon.is_clockwise(list(reversed(SQUARE)))
    area = polygon.ring_area(SQUARE)
    assert area == pytest.approx(1.236e10, rel=0.01)
    assert polygon.ring_area(list(reversed(SQUARE))) == pytest.approx(area)
    with pytest.raises(CoordinateError):
        polygon.ring_area(SQUARE[:2])


def test_contains_and_centroid():
    assert polygon.contains(SQUARE, LatLon(0.5, 0.5))
    assert not polygon.contains(SQUARE, LatLon(2, 0.5))
    assert polygon.centroid(SQUARE) == LatLon(0.5, 0.5)


def test_point_feature_is_lon_lat():
    feature = geojson.point_feature(LatLon(51.5, -0.1), {"name": "x"})
    assert feature["geometry"]["coordinates"] == [-0.1, 51.5]
    assert geojson.point_feature(LatLon(0, 0))["properties"] is None


def test_polygon_feature_reverses_clockwise_rings():
    ring = geojson.polygon_feature(list(reversed(SQUARE)))["geometry"]["coordinates"][0]
    assert ring[0] == ring[-1]
    assert not polygon.is_clockwise([LatLon(lat, lon) for lon, lat in ring])
    with pytest.raises(GeoJSONError):
        geojson.polygon_feature(SQUARE[:2])


def test_parse_point():
    assert geojson.parse_point({"type": "Point", "coordinates": [2.35, 48.85, 35]}) == LatLon(48.85, 2.35)
    feature = geojson.point_feature(LatLon(1, 2))
    assert geojson.parse_point(feature) == LatLon(1, 2)
    with pytest.raises(GeoJSONError):
        geojson.parse_point({"type": "LineString", "coordinates": []})
    with pytest.raises(CoordinateError):
        geojson.parse_point({"type": "Point", "coordinates": [0, 95]})


def test_bbox_of_and_dumps():
    assert geojson.bbox_of({"bbox": [1, 2, 3, 4]}) == BBox(1, 2, 3, 4)
    with pytest.raises(GeoJSONError):
        geojson.bbox_of({"type": "Point"})
    text = geojson.dumps(geojson.point_feature(LatLon(1.123456789, 2)), decimals=3)
    assert json.loads(text)["geometry"]["coordinates"] == [2, 1.123]


def test_expand_across_antimeridian_can_cover_the_world():
    assert BBox(170, 0, -170, 1).expand(1000).crosses_antimeridian
    assert BBox(170, 0, -170, 1).expand(20_000_000).as_list()[::2] == [-180.0, 180.0]


def test_from_points_never_crosses_antimeridian():
    box = BBox.from_points([LatLon(0, 179), LatLon(1, -179)])
    assert not box.crosses_antimeridian and box.width == 358
