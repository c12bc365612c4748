"""Drift forms real projects' guides show after an API removal, each with a correct twin:
members named with a parenthesis or as methods/decorators, "`C` has a ``x`` attribute",
parameters named with a verb or as ``name=value`` next to the call, ``Response.x`` where the
project exports its own ``Response``, ``:param x:`` fields under a hand-written object
description, deprecation notes about names already gone, and removed decorators.

A small web-toolkit package written for these tests (real Engine, real index)."""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer
from caas_tui.review.static.drift.removednotes import pending_removal
from tests.conftest import verdict_containing as by_text

from .conftest import write

PACKAGE = {
    "web/__init__.py": '''
        """A web toolkit."""
        from web.app import Flask as Flask
        from web.helpers import send_file as send_file
        from web.wrappers import Request as Request, Response as Response
        ''',
    "web/app.py": '''
        from typing import Any, Callable


        class Scaffold:
            def before_request(self, f: Callable[..., Any]) -> Callable[..., Any]:
                return f


        class Flask(Scaffold):
            def __init__(self, import_name: str, static_folder: str | None = "static") -> None:
                self.import_name = import_name
                self.config: dict[str, Any] = {}

            def make_response(self, rv: Any) -> Any:
                return rv
        ''',
    "web/helpers.py": '''
        from typing import Any


        def send_file(path_or_file: str, mimetype: str | None = None, as_attachment: bool = False,
                      download_name: str | None = None) -> Any:
            return path_or_file


        def pass_environment(f: Any) -> Any:
            return f
        ''',
    "web/wrappers.py": '''
        class Request:
            """A request."""

            def __init__(self, environ: dict) -> None:
                self.environ = environ

            def get_data(self, cache: bool = True) -> bytes:
                return b""


        class Response:
            """A response."""

            default_mimetype = "text/plain"

            def __init__(self, response: object = None) -> None:
                self.response = response
        ''',
}

DOCS = {
    "docs/guide.rst": """
        Guide
        =====

        You can set the ``context`` attribute (a dictionary) of a `Flask` application.

        You can read the ``config`` attribute (a dictionary) of a `Flask` application.

        The ``before_first_request`` decorator of `Flask` registers a function.

        The ``before_request`` decorator of `Flask` registers a function.

        The :class:`Response` class has a ``charset`` attribute.

        The :class:`Response` class has a ``default_mimetype`` attribute.

        :func:`send_file` accepts a ``cache_timeout`` argument.

        :func:`send_file` accepts a ``download_name`` argument.

        Call :func:`send_file` with ``attachment_filename="x.txt"`` to rename.

        Call :func:`send_file` with ``download_name="x.txt"`` to rename.

        Use :attr:`Request.charset` to pick the encoding.

        Use :meth:`Request.get_data` to read the body.

        :class:`~web.wrappers.BaseRequest` is deprecated and will be removed in version 2.1.

        :class:`~web.wrappers.Request` is deprecated and will be removed in version 9.

        ``web.wrappers.BaseRequest`` was removed in 2.1.

        Filters are functions:

        .. code-block:: python

            @environmentfilter
            def f(env, value):
                return do_something(value)

        .. code-block:: python

            from web.helpers import pass_environment

            @pass_environment
            def g(env, value):
                return value

        .. code-block:: python

            def my_deco(f):
                return f

            @my_deco
            def h():
                pass

        Subclass ``BaseResponse`` and pass it to :func:`send_file`.

        Build it with :func:`make_response` and pass it to :func:`send_file`.

        Subclass ``Response`` and pass it to :func:`send_file`.

        .. function:: send_file(path_or_file, mimetype=None)

           Sends a file.

           :param path_or_file: the file to send.
           :param cache_timeout: seconds to cache it.
        """,
    "docs/other.rst": """
        Other
        =====

        .. code-block:: python

            from requests import Response

        The :class:`Response` class has a ``charset`` attribute here too.
        """,
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("removed") / "proj"
    for rel, text in {**PACKAGE, **DOCS}.items():
        write(root, rel, text)
    eng = Engine.open(root)
    yield eng
    eng.close()


@pytest.fixture(scope="module")
def guide(engine: Engine) -> list[tuple[Claim, Verdict]]:
    return review_doc(engine, "docs/guide.rst", StaticReviewer()).pairs()




FLAGS = ("contradicted", "incomplete")


def test_members_named_in_more_words(guide: list[tuple[Claim, Verdict]]) -> None:
    v = by_text(guide, "``context`` attribute (a dictionary)")
    assert v.verdict == "contradicted" and "`Flask.context` does not exist" in v.rationale
    assert by_text(guide, "``config`` attribute (a dictionary)").verdict not in FLAGS
    v = by_text(guide, "``before_first_request`` decorator")
    assert v.verdict == "contradicted" and "did you mean `before_request`" in v.rationale
    assert by_text(guide, "The ``before_request`` decorator").verdict not in FLAGS
    assert by_text(guide, "has a ``charset`` attribute.").verdict == "contradicted"
    assert by_text(guide, "has a ``default_mimetype`` attribute").verdict not in FLAGS


def test_parameters_named_with_a_verb_or_as_a_keyword(guide: list[tuple[Claim, Verdict]]) -> None:
    v = by_text(guide, "accepts a ``cache_timeout`` argument")
    assert v.verdict == "contradicted" and "`send_file` has no parameter `cache_timeout`" in v.rationale
    assert by_text(guide, "accepts a ``download_name`` argument").verdict not in FLAGS
    v = by_text(guide, "``attachment_filename=")
    assert v.verdict == "contradicted" and "no parameter `attachment_filename`" in v.rationale
    assert by_text(guide, "with ``download_name=").verdict not in FLAGS


def test_a_stdlib_like_class_name_the_project_exports(guide: list[tuple[Claim, Verdict]], engine: Engine) -> None:
    v = by_text(guide, ":attr:`Request.charset`")
    assert v.verdict == "contradicted" and "`Request.charset` does not exist" in v.rationale
    assert by_text(guide, ":meth:`Request.get_data`").verdict not in FLAGS
    # a doc that imports ``Response`` from another library means that one
    other = review_doc(engine, "docs/other.rst", StaticReviewer()).pairs()
    assert by_text(other, "``charset`` attribute here too").verdict not in FLAGS


def test_parameter_fields_under_an_object_description(guide: list[tuple[Claim, Verdict]]) -> None:
    v = by_text(guide, ":param cache_timeout:")
    assert v.verdict == "contradicted" and "`send_file` has no parameter `cache_timeout`" in v.rationale
    assert by_text(guide, ":param path_or_file:").verdict not in FLAGS


def test_deprecation_notes_about_names_already_gone(guide: list[tuple[Claim, Verdict]]) -> None:
    v = by_text(guide, "BaseRequest` is deprecated")
    assert v.verdict == "contradicted" and "already gone" in v.rationale
    assert by_text(guide, "wrappers.Request` is deprecated").verdict not in FLAGS
    # a note that the removal already happened may name what is gone
    assert by_text(guide, "was removed in 2.1").verdict not in FLAGS


def test_pending_removal_wording() -> None:
    def claim(text: str) -> Claim:
        return Claim("x", "docs/a.rst", 1, 1, text, "prose")

    assert pending_removal(claim("``x`` is deprecated and will be removed in 3.0."))
    assert pending_removal(claim("``x`` will be dropped in the next release."))
    assert not pending_removal(claim("``x`` was renamed to ``y`` and will be removed."))
    assert not pending_removal(claim("``x`` has been removed."))
    assert not pending_removal(claim("``x`` returns the deprecated value."))


def test_removed_decorators(guide: list[tuple[Claim, Verdict]]) -> None:
    v = by_text(guide, "@environmentfilter")
    assert v.verdict == "contradicted" and "`environmentfilter` is not defined anywhere" in v.rationale
    assert by_text(guide, "@pass_environment").verdict not in FLAGS
    assert by_text(guide, "@my_deco").verdict not in FLAGS


def test_a_name_nothing_resolves_keeps_the_claim_unverified(guide: list[tuple[Claim, Verdict]]) -> None:
    v = by_text(guide, "Subclass ``BaseResponse``")
    assert v.verdict == "unverified" and "`BaseResponse` is not defined in the project" in v.rationale
    assert "BaseResponse" not in by_text(guide, "Subclass ``Response``").rationale


def test_a_function_role_found_only_as_a_method(guide: list[tuple[Claim, Verdict]]) -> None:
    v = by_text(guide, "Build it with :func:`make_response`")
    assert v.verdict == "unverified" and "exists only as a member of a class" in v.rationale
