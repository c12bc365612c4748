"""Claims about a format or protocol against the upstream page on it: pages named by the
headings a claim sits under, opposite properties, lists of one set's members, a code
literal the page calls the opposite, "there is no X", and the passage as evidence when
nothing can be decided. Also two reST name forms: ``.. testcode::`` bodies are Python and
a role target with a leading dot is looked up as Sphinx does.

A small HTTP/CSV project written for these tests (real Engine, real index)."""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer
from caas_tui.review.static.specs.specwords import (
    defined,
    forbidden,
    listed,
    literal_opposite,
    no_such,
    opposite,
    quantifier,
    unit_word,
)
from tests.conftest import verdict_starting as by_text

from .conftest import write

FILES = {
    "webkit/__init__.py": '''
        from webkit.client import Client
        ''',
    "webkit/client.py": '''
        class Client:
            def send(self, method: str, url: str) -> int:
                return 200

        class Limiter:
            @property
            def total_tokens(self) -> int:
                return 1
        ''',
    "webkit/durations.py": '''
        """Durations for retry delays.

        ``P1M`` is one minute in this module.

        ``PT1M`` is one minute too.
        """

        def parse(text: str) -> float:
            return 60.0
        ''',
    "upstream/iso.md": """
        # Durations (excerpt)

        `M` means months before `T` and minutes after it: `P1M` is one month, `PT1M` is one minute.
        """,
    "webkit/abc/__init__.py": '''
        from webkit.client import Limiter as Limiter
        ''',
    "upstream/http.md": """
        # HTTP Semantics (RFC 9110 excerpt)

        ## Methods

        The idempotent request methods are GET, HEAD, PUT, DELETE, OPTIONS and TRACE.

        Safe methods include GET, HEAD and others.

        HTTP header field names are case-insensitive.

        The value of the Retry-After header field is a number of seconds.

        A 304 response MUST NOT contain content (a body).

        ## Caching

        A response to a request with `no-store` is not stored by any cache.
        """,
    "upstream/csv.md": """
        # CSV Format (excerpt)

        Fields containing commas should be enclosed in double quotes.
        A double quote inside a field is escaped by doubling it. There is no backslash escape.

        A line ending of `\\r\\n` is accepted.

        `*/15` in the minute field means minutes 0, 15, 30 and 45.

        A row is dropped when at least one of the two flags, skip and drop, is set.
        """,
    "docs/http.md": """
        # Using the HTTP client

        The client retries only idempotent request methods: GET, HEAD, PUT and POST.

        The client retries idempotent request methods such as GET, HEAD and PUT.

        The client treats HTTP header field names as case-sensitive.

        The client treats HTTP header field names as case-insensitive.

        The client retries only the idempotent request methods GET and HEAD.

        The client reads the value of the Retry-After header field as milliseconds.

        The client reads the value of the Retry-After header field as seconds.

        A 304 response from the cache contains the stored body.

        A 304 response never contains the stored body.
        """,
    "docs/csv.md": """
        # Reading CSV files

        To put a double quote inside a field, escape it with a backslash.

        To put a double quote inside a field, double it; never escape it with a backslash.

        A file with `\\r\\n` line endings is rejected.

        A file with `\\r\\n` line endings is accepted.

        `*/15` in the minute field fires at minutes 15, 30 and 45.

        `*/15` in the minute field fires at minutes 0, 15, 30 and 45.

        Fields containing commas are enclosed in double quotes by the writer.

        A row is dropped only when both flags, skip and drop, are set.
        """,
    "docs/ref.rst": """
        Reference
        =========

        .. class:: Client()

           Sends requests; :meth:`Client.send` gives the status code.

           .. method:: send(method, url, retries=2)

           .. method:: sendfile(path)

              Not implemented yet!

        .. py:method:: Client.send(method, url)
        """,
    "docs/other.md": """
        # Connections

        Fields are escaped with a backslash, and the client retries GET, HEAD, PUT and POST.
        """,
    "docs/api.rst": """
        Limits
        ======

        To change the limit, call the :meth:`~.abc.Limiter.set_total_tokens` method.

        Read it back with :attr:`~.abc.Limiter.total_tokens`.

        .. testcode::

           import webkit.client
           webkit.client.Session()
        """,
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("specs") / "proj"
    for rel, text in FILES.items():
        write(root, rel, text)
    eng = Engine.open(root)
    yield eng
    eng.close()


def pairs(engine: Engine, doc: str) -> list[tuple[Claim, Verdict]]:
    return review_doc(engine, doc, StaticReviewer()).pairs()




FLAGS = ("contradicted", "incomplete")


# -- the comparisons on their own -----------------------------------------------------------
def test_opposite_properties_of_one_subject() -> None:
    assert opposite("Header field names are case sensitive.", "Field names are case-insensitive.") is not None
    said = opposite("POST requests are not idempotent.", "The POST method is idempotent.")
    assert said is not None and (said.ours, said.theirs) == ("non-idempotent", "idempotent")
    assert opposite("Header names are case-insensitive.", "Field names are case-insensitive.") is None
    assert opposite("The limit is required.", "The timeout is optional.") is None  # another subject
    assert opposite("Names may be case-sensitive.", "Field names are case-insensitive.") is None  # a hedge


def test_lists_of_one_set() -> None:
    page = "The idempotent methods are GET, HEAD, PUT, DELETE, OPTIONS and TRACE."
    extra = listed("Only idempotent methods (GET, HEAD, PUT, POST) are retried.", page)
    assert extra is not None and extra.kind == "list" and extra.ours == "POST"
    assert listed("Idempotent methods (GET, HEAD, PUT) are retried.", page) is None  # some of them
    only = listed("The idempotent methods are only GET and HEAD.", page)
    assert only is not None and only.kind == "subset"
    assert listed("The safe methods are GET, HEAD and POST.", page) is None  # another set
    assert listed("Idempotent methods include GET and POST.", "Idempotent methods include GET, HEAD, and others.") is None
    values = listed("It fires at minutes 15, 30 and 45.", "It fires at minutes 0, 15, 30 and 45.")
    assert values is not None and values.kind == "subset"


def test_bare_units_and_what_the_page_rules_out() -> None:
    unit = unit_word("Retry-After is given in milliseconds.", "Retry-After is a number of seconds.")
    assert unit is not None and (unit.ours, unit.theirs) == ("milliseconds", "seconds")
    assert unit_word("Retry-After is given in seconds.", "Retry-After is a number of seconds.") is None
    assert unit_word("Waits 250 milliseconds.", "Waits a number of seconds.") is None  # a number: quantities' job
    page = "A 304 response MUST NOT contain content (a body)."
    assert forbidden("A 304 response contains the updated body.", page) is not None
    assert forbidden("A 304 response never contains a body.", page) is None
    assert forbidden("A 204 response contains the body.", page) is None  # another status
    assert forbidden("A client sends content in a GET request.", "A client SHOULD NOT send content in a GET request.") \
        is None  # a recommendation, not a rule


def test_all_of_them_against_any_one_of_them() -> None:
    page = "A job runs when at least one of the two day fields (day of month, or day of week) matches the time."
    assert quantifier("When both day fields are restricted, the time must match both day fields.", page) is not None
    assert quantifier("The time matches when at least one of the two day fields matches.", page) is None
    assert quantifier("Both fields may be restricted, and the job runs when a day field matches.", page) is None


def test_code_literals_and_there_is_no() -> None:
    said = literal_opposite("A file with `\\r\\n` is rejected.", "This means `\\r\\n` is also supported.")
    assert said is not None and (said.ours, said.theirs) == ("rejected", "supported")
    assert literal_opposite("A file with `\\n` is rejected.", "This means `\\r\\n` is also supported.") is None
    assert no_such("Escape it with a backslash.", "There is no backslash escape.") is not None
    assert no_such("Never escape it with a backslash.", "There is no backslash escape.") is None
    assert no_such("Escape it by doubling it.", "There is no backslash escape.") is None


# -- through the reviewer ---------------------------------------------------------------------
def test_claims_against_the_page_their_headings_name(engine: Engine) -> None:
    found = pairs(engine, "docs/http.md")
    post = by_text(found, "The client retries only idempotent request methods: GET, HEAD, PUT and POST")
    assert post.verdict == "contradicted" and "POST" in post.rationale, post.rationale
    assert post.evidence and post.evidence[0].path == "upstream/http.md"
    examples = by_text(found, "The client retries idempotent request methods such as")
    assert examples.verdict not in FLAGS, examples.rationale
    case = by_text(found, "The client treats HTTP header field names as case-sensitive")
    assert case.verdict == "contradicted" and "case-insensitive" in case.rationale, case.rationale
    same = by_text(found, "The client treats HTTP header field names as case-insensitive")
    assert same.verdict == "unverified" and "upstream/http.md" in same.rationale, same.rationale  # passage shown
    assert same.evidence and same.evidence[0].path == "upstream/http.md"
    only = by_text(found, "The client retries only the idempotent request methods GET and HEAD")
    assert only.verdict == "incomplete", only.rationale
    ms = by_text(found, "The client reads the value of the Retry-After header field as milliseconds")
    assert ms.verdict == "contradicted" and "in seconds, not milliseconds" in ms.rationale, ms.rationale
    s = by_text(found, "The client reads the value of the Retry-After header field as seconds")
    assert s.verdict not in FLAGS, s.rationale
    body = by_text(found, "A 304 response from the cache contains")
    assert body.verdict == "contradicted" and "MUST NOT contain" in body.rationale, body.rationale
    never = by_text(found, "A 304 response never contains")
    assert never.verdict not in FLAGS, never.rationale


def test_literals_and_missing_things_through_the_reviewer(engine: Engine) -> None:
    found = pairs(engine, "docs/csv.md")
    backslash = by_text(found, "To put a double quote inside a field, escape it with a backslash")
    assert backslash.verdict == "contradicted" and "no backslash escape" in backslash.rationale
    never = by_text(found, "To put a double quote inside a field, double it")
    assert never.verdict not in FLAGS, never.rationale
    rejected = by_text(found, "A file with `\\r\\n` line endings is rejected")
    assert rejected.verdict == "contradicted" and "accepted" in rejected.rationale, rejected.rationale
    accepted = by_text(found, "A file with `\\r\\n` line endings is accepted")
    assert accepted.verdict not in FLAGS, accepted.rationale
    partial = by_text(found, "`*/15` in the minute field fires at minutes 15")
    assert partial.verdict == "incomplete" and "0, 15, 30, 45" in partial.rationale
    whole = by_text(found, "`*/15` in the minute field fires at minutes 0")
    assert whole.verdict not in FLAGS, whole.rationale
    writer = by_text(found, "Fields containing commas are enclosed")
    assert writer.verdict not in FLAGS, writer.rationale
    both = by_text(found, "A row is dropped only when both flags")
    assert both.verdict == "contradicted" and "any one of them" in both.rationale, both.rationale


def test_a_page_no_heading_or_word_names_is_not_held_against_a_claim(engine: Engine) -> None:
    v = by_text(pairs(engine, "docs/other.md"), "Fields are escaped with a backslash")
    assert v.verdict == "unverified" and not v.evidence, v.rationale


def test_a_code_literal_a_docstring_shares_with_a_page(engine: Engine) -> None:
    assert defined("``P1M`` is one minute.", "`P1M` is one month, `PT1M` is one minute.") is not None
    assert defined("``PT1M`` is one minute.", "`P1M` is one month, `PT1M` is one minute.") is None
    found = pairs(engine, "webkit/durations.py")
    month = by_text(found, "``P1M`` is one minute")
    assert month.verdict == "contradicted" and "`P1M` is one month" in month.rationale, month.rationale
    assert month.evidence and month.evidence[0].path == "upstream/iso.md"
    minute = by_text(found, "``PT1M`` is one minute")
    assert minute.verdict not in FLAGS, minute.rationale


# -- reST name forms --------------------------------------------------------------------------
def test_leading_dot_role_target_is_looked_up_by_suffix(engine: Engine) -> None:
    found = pairs(engine, "docs/api.rst")
    gone = by_text(found, "To change the limit")
    assert gone.verdict == "contradicted" and "set_total_tokens" in gone.rationale, gone.rationale
    kept = by_text(found, "Read it back")
    assert kept.verdict == "consistent", kept.rationale


def test_object_descriptions_give_their_signature_and_body(engine: Engine) -> None:
    found = pairs(engine, "docs/ref.rst")
    assert by_text(found, "Sends requests;").verdict != "contradicted"  # the body is prose, and judged
    nested = by_text(found, "``Client.send(method, url, retries=2)``")  # qualified by its class
    assert nested.verdict == "contradicted" and "retries" in nested.rationale, nested.rationale
    right = by_text(found, "``Client.send(method, url)``")
    assert right.verdict not in FLAGS, right.rationale
    # a description saying the object is not there claims nothing about the code
    assert not [c for c, _ in found if "sendfile" in c.text and c.text.startswith("``")]


def test_testcode_directive_bodies_are_python(engine: Engine) -> None:
    (block,) = [v for c, v in pairs(engine, "docs/api.rst") if c.kind == "code"]
    assert block.verdict == "contradicted" and "Session" in block.rationale, block.rationale
