"""Pagination follows Link headers and clamps the page size."""

import json

from .conftest import reply


def page(items, next_url=None):
    extra = {"Link": f'<{next_url}>; rel="next"'} if next_url else {}
    return reply(200, json.dumps({"items": items}).encode(), **extra)


def test_items_across_pages(make_session):
    session, script = make_session(page([1, 2], "https://api.example/items?page=2"), page([3]))
    assert list(session.paginate("items").items()) == [1, 2, 3]
    assert script.calls == 2


def test_page_size_is_clamped(make_session):
    session, _ = make_session(page([]))
    paginator = session.paginate("items", page_size=500)
    assert paginator.page_size == 200
    assert paginator.next_page().request.url.endswith("per_page=200")
    assert paginator.next_page() is None
