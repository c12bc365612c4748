"""Walk paginated collections by following ``Link: rel="next"`` headers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .constants import DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE
from .headers import parse_link_header
from .models import Response

if TYPE_CHECKING:
    from .session import Session


class Paginator:
    """Iterate over the pages of a collection endpoint.

    Args:
        session: The session that sends each page request.
        url: The first page's URL.
        per_page: Items requested per page.
        params: Extra query parameters for the first request.
    """

    def __init__(
        self,
        session: Session,
        url: str,
        page_size: int = DEFAULT_PAGE_SIZE,
        params: dict[str, str] | None = None,
    ) -> None:
        self.session = session
        self.page_size = min(page_size, MAX_PAGE_SIZE)
        self._next: str | None = url
        self._params: dict[str, str] | None = {**(params or {}), "per_page": str(self.page_size)}

    def next_page(self) -> Response | None:
        """Fetch the next page.

        Returns:
            The page's response, or ``None`` once the last page has been read.
        """
        if self._next is None:
            return None
        response = self.session.get(self._next, params=self._params)
        response.raise_for_status()
        self._params = None  # the next link already carries the query string
        self._next = parse_link_header(response.headers.get("Link", "")).get("next")
        return response

    def pages(self) -> Iterator[Response]:
        """Yield every remaining page."""
        while (page := self.next_page()) is not None:
            yield page

    def items(self, key: str = "items") -> Iterator[Any]:
        """Yield the elements of ``page.json()[key]`` across all pages."""
        for page in self.pages():
            yield from page.json()[key]
