"""Defaults stated in words, delegation to helper objects (returns followed into the
callee), "at once" claims against work handed to a queue, "returns X, or None" and
"returns the number of", and the assertion kinds that keep such claims from a green
label when no check covers them.

A small mail-delivery project written for these tests (real Engine, real index)."""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer
from caas_tui.review.static.defaults.worddefaults import default_clauses, pick_param, stated_state
from caas_tui.review.static.wording.assertions import asserted_kinds
from caas_tui.review.static.wording.units import matches, quantities
from tests.conftest import verdict_starting as by_text

from .conftest import write

PACKAGE = {
    "mailer/__init__.py": '''
        from mailer.client import Client
        ''',
    "mailer/limits.py": '''
        SEND_TIMEOUT = 30.0
        ''',
    "mailer/transport.py": '''
        class Transport:
            def __init__(self) -> None:
                self._cache: dict[str, bytes] = {}

            def encode(self, msg: str) -> bytes:
                return msg.encode()

            def lookup(self, key):
                return self._cache[key]

            def maybe(self, key: str) -> bytes | None:
                return self._cache.get(key)
        ''',
    "mailer/client.py": '''
        from mailer.limits import SEND_TIMEOUT
        from mailer.transport import Transport


        class Client:
            def __init__(
                self,
                host: str,
                *,
                follow_redirects: bool = False,
                verify: bool = True,
                timeout: float | None = SEND_TIMEOUT,
                max_size: int | None = None,
                max_redirects: int = 20,
                max_retries: int = 3,
                ttl: int = 60,
            ) -> None:
                """Connect.

                :param verify: verification is disabled by default.
                :param follow_redirects: redirects are not followed by default.
                """
                self.host = host


        class Outbox:
            def __init__(self, transport: Transport) -> None:
                self._transport = transport

            def render(self, msg: str):
                return self._transport.encode(msg)

            def fetch(self, key: str):
                return self._transport.lookup(key)

            def peek(self, key: str):
                return self._transport.maybe(key)

            def strip(self, msg: str, pred: object):
                """Drop the parts for which *pred* returns ``True``."""
                return self._transport.encode(msg)
        ''',
    "mailer/pool.py": '''
        class Pending:
            def queue_close(self, conn: object) -> None:
                """Schedule ``conn`` to be closed at the next flush."""

            def is_pending(self, conn: object) -> bool:
                return False


        class Pool:
            def __init__(self) -> None:
                self.state = Pending()
                self.busy = False

            def close(self, conn: object) -> None:
                self.state.queue_close(conn)

            def drop(self, conn: object) -> None:
                if self.busy:
                    self.state.queue_close(conn)
                else:
                    self._now(conn)

            def release(self, conn: object) -> None:
                self._later(conn)

            def _later(self, conn: object) -> None:
                self.state.queue_close(conn)

            def _now(self, conn: object) -> None:
                pass

            def flush(self) -> None:
                self._now(None)
        ''',
    "mailer/retry.py": '''
        from typing import Literal

        RETRY_METHODS = frozenset({"GET", "HEAD"})


        def backoff(mode: Literal["fixed", "linear"] = "fixed") -> float:
            return 1.0


        class Retry:
            def __init__(self, statuses: tuple[int, ...] = (502, 503, 504), attempts: int = 3) -> None:
                self.statuses = statuses
        ''',
    "mailer/session.py": '''
        DEFAULT_WAIT = 30.0


        class Wire:
            def send(self, data: bytes, *, timeout: float = DEFAULT_WAIT) -> int:
                return len(data)


        class Session:
            def __init__(self, wire: Wire, retries: int = 2) -> None:
                self._wire = wire
                self._retries = retries

            def post(self, data: bytes, *, timeout: float | None = None) -> int:
                return self._wire.send(data, timeout=timeout)

            def fetch(self, *, retries: int | None = None) -> int:
                if retries is None:
                    retries = self._retries
                return retries
        ''',
    "mailer/wire.py": '''
        class TransportError(Exception):
            pass


        def connect(host: str) -> None:
            try:
                _open(host)
            except OSError as exc:
                raise TransportError(host) from exc


        def _open(host: str) -> None:
            raise ConnectionError(host)


        def close(force: bool = False) -> None:
            if force:
                raise RuntimeError("forced")


        def quiet() -> None:
            return None


        class Cancelled(Exception):
            pass


        def check_cancelled(hooks: dict) -> None:
            """Raise `Cancelled` if the task was cancelled."""
            raise_cancel = hooks.get("cancel")
            if raise_cancel is not None:
                raise_cancel()


        def dial(host: str, retries: int = 1) -> None:
            if not host:
                raise ValueError("host")


        def fetch_path(path: str, root: str = "https://example.org") -> str:
            """Fetch a path.

            The given path is relative to the site, by default "https://example.org".
            """
            return root + path
        ''',
    "mailer/registry.py": '''
        class Entry:
            pass


        class Registry:
            def __init__(self) -> None:
                self._items: dict[str, Entry] = {}

            def find(self, name: str) -> Entry | None:
                return self._items.get(name)

            def get(self, name: str) -> Entry:
                return self._items[name]

            def size(self) -> int:
                return len(self._items)

            def names(self) -> list[str]:
                return list(self._items)

            def reset(self) -> None:
                self._items.clear()

            @property
            def rule(self) -> Entry:
                return Entry()

            def describe(self) -> Entry:
                return Entry()
        ''',
}

UPSTREAM = {
    "upstream/relay.md": """
        # Relay

        *Postmark Relay 2.x — Delivery reference.*

        ## Delivery

        The relay delivers a message only to verified domains.

        Idle connections are closed after 30 seconds.

        A message larger than 10 MB is rejected with status 552.
        """,
}

DOCS = {
    "docs/relay.md": """
        # Sending through the relay

        The relay delivers each message to any domain you send it to.

        The relay delivers a message only to verified domains, so verify yours first.

        The relay closes idle connections after 60 seconds.

        The relay closes idle connections after 30 seconds.

        The relay rejects a message larger than the limit with status 550.

        The relay rejects a message larger than the limit with status 552.
        """,
    "docs/blocks.md": """
        # Blocks

        Comments state results:

        ```python
        from mailer.registry import Registry
        from mailer.wire import close, connect

        reg = Registry()
        reg.find("x")  # -> None
        reg.size()  # -> 'many'
        close()  # raises KeyError
        connect("h")  # raises ConnectionError
        ```

        A reset gives nothing back:

        ```python
        from mailer.registry import Registry

        Registry().reset()  # -> None
        ```

        In a session:

        ```pycon
        >>> from mailer.registry import Registry
        >>> Registry().size()
        'three'
        >>> Registry().names()
        []
        >>> Registry().rule(1)
        'one'
        >>> Registry().describe()
        'an entry'
        ```
        """,
    "docs/args.md": """
        # Arguments

        ```python
        from mailer.client import Client
        from mailer.registry import Entry, Registry

        reg = Registry()
        reg.find(Entry)
        reg.find("x")
        Client("h", max_redirects="5")
        Client("h", timeout=5, verify=True)
        ```

        ```python
        from mailer.retry import backoff

        backoff("fixed")
        backoff(mode="exponential")
        ```

        ```pycon
        >>> from mailer.retry import backoff
        >>> backoff(mode="doubling")
        Traceback (most recent call last):
        ValueError: unknown mode
        ```
        """,
    "docs/reference.md": """
        # Reference

        ## `Registry.get(name: str) -> Entry`

        Raises `ValueError` when the name is unknown.

        Returns the entry, or `None` when it is missing.

        The registry calls `Registry.names` first.

        ## Registry

        ### size()

        Returns the number of entries.
        """,
    "docs/other.md": """
        # Connections

        Idle connections are closed after 60 seconds, and every message reaches any domain.
        """,
    "docs/guide.md": """
        # Guide

        `Client` follows redirects by default.

        `Client` verifies certificates by default.

        `Client` has no timeout by default.

        `Client` sets no size limit by default.

        `Client` follows redirects by default unless `verify` is off.

        `Client` follows up to 10 redirects.

        `Client` follows up to 20 redirects.

        The client retries a failed send up to 5 times.

        `Client` keeps an entry for at most 5 seconds of ttl.

        Set `max_redirects` to 5 to follow up to 5 redirects with `Client`.

        The `timeout` of `Session.post` defaults to 10 seconds.

        The `timeout` of `Session.post` defaults to 30 seconds.

        The `retries` of `Session.fetch` defaults to 5.

        `Retry` retries on statuses 500, 502 and 503.

        `Retry` retries on statuses 502, 503 and 504.

        `mailer.retry.RETRY_METHODS` holds only `GET`.

        `mailer.retry.RETRY_METHODS` holds `GET` and `HEAD`.

        `Retry` retries requests over HTTP on statuses 1 and 2 digits long.

        `Outbox.render(msg)` returns `str`.

        `Outbox.render(msg)` returns `bytes`.

        `Outbox.fetch(key)` returns `None` for an unknown key.

        `Outbox.fetch(key)` returns `None` while nothing is queued.

        `Outbox.peek(key)` returns `None` for an unknown key.

        `Pool.close` closes the connection at once.

        `Pool.close` shuts the connection at once, so readers that run later never see it.

        `Pool.drop` drops the connection right away.

        Outside a busy cycle, `Pool.drop` drops the connection right away.

        `Pool.release` releases the connection immediately.

        `Pool.flush` writes immediately.

        `Pool.close` queues the connection, which is closed at once at the next flush.

        `Registry.find(name)` returns the entry, or `None`.

        `Registry.get(name)` returns the entry, or `None` when it is missing.

        `Registry.size()` returns the number of entries.

        `Registry.names()` returns the number of names.

        `mailer.wire.connect` raises `ConnectionError` when the host is unreachable.

        `mailer.wire.connect` raises `TransportError` when the host is unreachable.

        `mailer.wire.close` never raises.

        `mailer.wire.quiet` never raises.

        `mailer.wire.close` never raises when `force` is false.

        `mailer.wire.dial` raises `ValueError` if `retries` is negative.

        `mailer.wire.dial` raises `ValueError` if `host` is empty.
        """,
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("words") / "proj"
    for rel, text in {**PACKAGE, **UPSTREAM, **DOCS}.items():
        write(root, rel, text)
    eng = Engine.open(root)
    yield eng
    eng.close()


@pytest.fixture(scope="module")
def guide(engine: Engine) -> list[tuple[Claim, Verdict]]:
    return review_doc(engine, "docs/guide.md", StaticReviewer()).pairs()




# -- defaults in words ------------------------------------------------------------------------
def test_stated_state_reads_on_off_and_unbounded() -> None:
    assert stated_state("Redirects are followed by default.") == "on"
    assert stated_state("Redirects are not followed by default.") == "off"
    assert stated_state("Verification is disabled by default.") == "off"
    assert stated_state("There is no timeout by default.") == "unbounded"
    assert stated_state("It waits forever by default.") == "unbounded"
    assert stated_state("Redirects are followed by default unless verify is off.") is None
    assert stated_state("It is not disabled by default.") is None  # a double negative is left alone
    assert [c.state for c in default_clauses("Set it up. By default, caching is off.")] == ["off"]
    assert default_clauses("Caching is off.") == []
    # The negation belongs to another clause: the default itself is stated as on.
    (reset,) = default_clauses("by default a reset code is added at the end, which means styles do not carry over.")
    assert reset.state == "on" and "carry" not in reset.clause
    assert [c.state for c in default_clauses("By default, the client does not follow redirects.")] == ["off"]


def test_pick_param_prefers_the_written_name_then_the_best_word_match() -> None:
    names = ["follow_redirects", "verify", "timeout", "read_timeout"]
    assert pick_param("Redirects are followed by default.", names) == "follow_redirects"
    assert pick_param("Certificates are verified by default.", names) == "verify"
    assert pick_param("`read_timeout` is off by default.", names) == "read_timeout"
    assert pick_param("There is no timeout by default.", names) == "timeout"  # 1/1 beats 1/2
    assert pick_param("Nothing in here matches by default.", names) is None
    assert pick_param("Timeouts are off by default.", ["read_timeout", "write_timeout"]) is None  # a tie


def test_defaults_in_words_against_resolved_defaults(guide: list[tuple[Claim, Verdict]]) -> None:
    wrong = by_text(guide, "`Client` follows redirects by default.")
    assert wrong.verdict == "contradicted" and "`follow_redirects` to False" in wrong.rationale
    right = by_text(guide, "`Client` verifies certificates")
    assert right.verdict == "consistent", right.rationale
    timeout = by_text(guide, "`Client` has no timeout")
    assert timeout.verdict == "contradicted" and "SEND_TIMEOUT" in timeout.rationale  # followed into limits.py
    size = by_text(guide, "`Client` sets no size limit")
    assert size.verdict == "consistent", size.rationale
    mixed = by_text(guide, "`Client` follows redirects by default unless")
    assert mixed.verdict == "unverified" and "default:unchecked" in mixed.coverage


def test_defaults_in_words_in_docstring_fields(engine: Engine) -> None:
    pairs = review_doc(engine, "mailer/client.py", StaticReviewer()).pairs()
    verify = by_text(pairs, ":param verify:")
    assert verify.verdict == "contradicted" and "`verify` to True" in verify.rationale
    follow = by_text(pairs, ":param follow_redirects:")
    assert follow.verdict == "consistent", follow.rationale


# -- delegation ------------------------------------------------------------------------------
def test_returns_followed_into_the_helper_object(guide: list[tuple[Claim, Verdict]]) -> None:
    wrong = by_text(guide, "`Outbox.render(msg)` returns `str`")
    assert wrong.verdict == "contradicted" and "returns bytes" in wrong.rationale
    right = by_text(guide, "`Outbox.render(msg)` returns `bytes`")
    assert right.verdict == "consistent", right.rationale


def test_what_a_callable_argument_returns_is_not_the_functions_result(engine: Engine) -> None:
    pairs = review_doc(engine, "mailer/client.py", StaticReviewer()).pairs()
    v = by_text(pairs, "Drop the parts for which")
    assert v.verdict != "contradicted", v.rationale


def test_returns_none_followed_into_the_helper_object(guide: list[tuple[Claim, Verdict]]) -> None:
    fetch = by_text(guide, "`Outbox.fetch(key)` returns `None` for")
    assert fetch.verdict == "contradicted" and "`lookup`" in fetch.rationale
    # A ``[]`` lookup raises only for a missing key: the value it finds may be None.
    idle = by_text(guide, "`Outbox.fetch(key)` returns `None` while")
    assert idle.verdict == "unverified", idle.rationale
    peek = by_text(guide, "`Outbox.peek(key)` returns `None`")
    assert peek.verdict != "contradicted", peek.rationale  # the helper may return None


# -- at once vs queued -----------------------------------------------------------------------
def test_at_once_against_work_handed_to_a_queue(guide: list[tuple[Claim, Verdict]]) -> None:
    close = by_text(guide, "`Pool.close` closes the connection at once")
    assert close.verdict == "contradicted" and "queue_close" in close.rationale
    assert any(e.symbol and e.symbol.endswith("Pending.queue_close") for e in close.evidence)
    drop = by_text(guide, "`Pool.drop` drops the connection right away")
    assert drop.verdict == "contradicted" and "one of its paths" in drop.rationale
    release = by_text(guide, "`Pool.release` releases")
    assert release.verdict == "contradicted" and "through `Pool._later`" in release.rationale


def test_deferral_words_count_only_in_the_clause_that_says_at_once(guide: list[tuple[Claim, Verdict]]) -> None:
    # "later" here is when the readers run (a consequence after ", so"), not when the work happens
    shut = by_text(guide, "`Pool.close` shuts the connection at once")
    assert shut.verdict == "contradicted" and "queue_close" in shut.rationale


def test_at_once_left_alone_when_the_doc_names_a_condition_or_the_queue(guide: list[tuple[Claim, Verdict]]) -> None:
    cond = by_text(guide, "Outside a busy cycle, `Pool.drop`")
    assert cond.verdict == "unverified" and "behaviour:unchecked" in cond.coverage
    flush = by_text(guide, "`Pool.flush` writes immediately")
    assert flush.verdict == "unverified" and "behaviour:unchecked" in flush.coverage  # nothing queues; not proven
    said = by_text(guide, "`Pool.close` queues the connection")
    assert said.verdict != "contradicted", said.rationale


# -- or None, number of ----------------------------------------------------------------------
def test_returns_or_none_and_number_of(guide: list[tuple[Claim, Verdict]]) -> None:
    find = by_text(guide, "`Registry.find(name)` returns the entry, or `None`")
    assert find.verdict == "consistent", find.rationale
    get = by_text(guide, "`Registry.get(name)` returns the entry, or `None`")
    assert get.verdict == "contradicted" and "never returns None" in get.rationale
    size = by_text(guide, "`Registry.size()` returns the number")
    assert size.verdict == "consistent", size.rationale
    names = by_text(guide, "`Registry.names()` returns the number")
    assert names.verdict == "contradicted" and "returns list" in names.rationale


# -- assertion kinds --------------------------------------------------------------------------
def test_behaviour_words_and_result_comments_are_assertions() -> None:
    def kinds(text: str, kind: str = "prose") -> set[str]:
        return asserted_kinds(Claim("x", "d.md", 1, 1, text, kind))  # type: ignore[arg-type]

    assert "behaviour" in kinds("`Pool.flush` writes immediately.")
    assert "behaviour" in kinds("`Pool.close` does not block.")
    assert "behaviour" in kinds("Only GET requests are retried.")
    assert "behaviour" in kinds("`build_all` creates the shapes for you.")
    assert "behaviour" not in kinds("`Pool.close` does not raise.")  # a raise claim, judged as one
    assert kinds("n = pool.size()  # -> 3", "code") == {"returns"}
    assert kinds("pool.get('x')  # raises KeyError", "code") == {"raises"}
    assert kinds("pool.get('x')  # the pool", "code") == {"runs"}  # states no result: running it is unchecked
    assert kinds("import pool\n\ndef f(x):\n    return pool.get(x)\n", "code") == set()  # declares, runs nothing


# -- upstream pages ---------------------------------------------------------------------------
def test_claims_against_the_upstream_page_they_name(engine: Engine) -> None:
    pairs = review_doc(engine, "docs/relay.md", StaticReviewer()).pairs()
    flat = by_text(pairs, "The relay delivers each message")
    assert flat.verdict == "incomplete" and "only to verified domains" in flat.rationale
    assert flat.evidence and flat.evidence[0].path == "upstream/relay.md"
    kept = by_text(pairs, "The relay delivers a message only")
    assert kept.verdict not in ("contradicted", "incomplete"), kept.rationale
    slow = by_text(pairs, "The relay closes idle connections after 60")
    assert slow.verdict == "contradicted" and "30 seconds" in slow.rationale
    same = by_text(pairs, "The relay closes idle connections after 30")
    assert same.verdict not in ("contradicted", "incomplete"), same.rationale
    code = by_text(pairs, "The relay rejects a message larger than the limit with status 550")
    assert code.verdict == "contradicted" and "552" in code.rationale
    right = by_text(pairs, "The relay rejects a message larger than the limit with status 552")
    assert right.verdict not in ("contradicted", "incomplete"), right.rationale


def test_a_claim_that_names_no_upstream_page_is_not_compared(engine: Engine) -> None:
    pairs = review_doc(engine, "docs/other.md", StaticReviewer()).pairs()
    v = by_text(pairs, "Idle connections are closed")
    assert v.verdict == "unverified", v.rationale


def test_size_quantities_read_decimal_and_binary_prefixes() -> None:
    (q,) = quantities("the buffer defaults to 64 KB")
    assert q.family == "size"
    assert matches(q, "buffer_size", 65536) and matches(q, "buffer_size", 64000) and matches(q, "buffer_kb", 64)
    assert matches(q, "buffer_size", 4096) is False
    (frac,) = quantities("one step lasts 1/60 s")
    assert abs(frac.base - 1 / 60) < 1e-12


# -- raises: translated exceptions, "never raises" ---------------------------------------------
def test_raise_claims_against_exceptions_the_code_translates(guide: list[tuple[Claim, Verdict]]) -> None:
    wrapped = by_text(guide, "`mailer.wire.connect` raises `ConnectionError`")
    assert wrapped.verdict == "contradicted" and "catches `OSError`" in wrapped.rationale
    assert "`TransportError` instead" in wrapped.rationale
    right = by_text(guide, "`mailer.wire.connect` raises `TransportError`")
    assert right.verdict == "consistent", right.rationale


def test_a_callable_held_in_a_variable_may_raise_anything(engine: Engine) -> None:
    pairs = review_doc(engine, "mailer/wire.py", StaticReviewer()).pairs()
    v = by_text(pairs, "Raise `Cancelled` if")  # an imperative "Raise" is a raise claim too
    assert v.verdict == "unverified", v.rationale


def test_never_raises_without_a_name(guide: list[tuple[Claim, Verdict]]) -> None:
    close = by_text(guide, "`mailer.wire.close` never raises.")
    assert close.verdict == "contradicted" and "`RuntimeError`" in close.rationale
    quiet = by_text(guide, "`mailer.wire.quiet` never raises")
    assert quiet.verdict == "unverified" and "raises:unchecked" in quiet.coverage
    cond = by_text(guide, "`mailer.wire.close` never raises when")
    assert cond.verdict == "unverified", cond.rationale


# -- code blocks: result comments and doctest output -------------------------------------------
def test_code_block_results_against_return_kinds_and_raises(engine: Engine) -> None:
    pairs = review_doc(engine, "docs/blocks.md", StaticReviewer()).pairs()
    codes = [(c, v) for c, v in pairs if c.kind == "code"]
    assert len(codes) == 3
    (_, first), (_, reset), (_, session) = codes
    assert first.verdict == "contradicted"
    assert "`Registry.size` returns int" in first.rationale and "# -> 'many'" in first.rationale
    assert "`close` never raises `KeyError`" in first.rationale
    assert "find" not in first.rationale and "ConnectionError" not in first.rationale
    assert reset.verdict == "consistent", reset.rationale  # None is the one value of its kind
    assert session.verdict == "contradicted" and "'three'" in session.rationale
    assert "names" not in session.rationale and "rule" not in session.rationale  # a property's value is called
    assert "describe" not in session.rationale  # an object's repr may print as anything


# -- counts on a noun -------------------------------------------------------------------------
def test_counts_against_the_parameter_named_for_the_noun(guide: list[tuple[Claim, Verdict]]) -> None:
    wrong = by_text(guide, "`Client` follows up to 10 redirects")
    assert wrong.verdict == "contradicted" and "`max_redirects` to 20" in wrong.rationale
    right = by_text(guide, "`Client` follows up to 20 redirects")
    assert right.verdict == "consistent", right.rationale
    retries = by_text(guide, "The client retries a failed send")  # "the client": the class `Client`
    assert retries.verdict == "contradicted" and "`max_retries` to 3" in retries.rationale
    bound = by_text(guide, "`Client` keeps an entry for at most 5 seconds")
    assert bound.verdict != "contradicted", bound.rationale  # ``ttl`` is no bound: "at most" is not its value
    example = by_text(guide, "Set `max_redirects` to 5")
    assert example.verdict != "contradicted", example.rationale


# -- argument kinds in code blocks ------------------------------------------------------------
def test_code_block_arguments_against_annotations(engine: Engine) -> None:
    pairs = review_doc(engine, "docs/args.md", StaticReviewer()).pairs()
    block, literal, shown_error = [v for c, v in pairs if c.kind == "code"]
    assert "doubling" not in shown_error.rationale  # a block showing an error passes a wrong value on purpose
    assert literal.verdict == "contradicted" and "'exponential' is not one of them" in literal.rationale
    assert literal.rationale.count("is not one of them") == 1  # backoff("fixed") is fine
    assert block.verdict == "contradicted"
    assert "passes the class `Entry`, not a str" in block.rationale
    assert "`max_redirects: int`; the code passes the str '5'" in block.rationale
    assert "timeout" not in block.rationale and "verify" not in block.rationale  # an int is a float; a bool is fine
    assert block.rationale.count("line ") == 2


# -- defaults handed on to a helper ----------------------------------------------------------
def test_defaults_followed_through_the_helper_and_the_constructor(guide: list[tuple[Claim, Verdict]]) -> None:
    wrong = by_text(guide, "The `timeout` of `Session.post` defaults to 10 seconds")
    assert wrong.verdict == "contradicted" and "30.0" in wrong.rationale and "DEFAULT_WAIT" in wrong.rationale
    assert any(e.symbol and e.symbol.endswith("Wire.send") for e in wrong.evidence)
    right = by_text(guide, "The `timeout` of `Session.post` defaults to 30 seconds")
    assert right.verdict == "consistent", right.rationale
    ctor = by_text(guide, "The `retries` of `Session.fetch` defaults to 5")
    assert ctor.verdict == "contradicted" and "to 2" in ctor.rationale


# -- listed members against collections --------------------------------------------------------
def test_listed_members_against_defaults_and_constants(guide: list[tuple[Claim, Verdict]]) -> None:
    extra = by_text(guide, "`Retry` retries on statuses 500")
    assert extra.verdict == "contradicted" and "has no 500" in extra.rationale
    same = by_text(guide, "`Retry` retries on statuses 502, 503 and 504")
    assert same.verdict == "consistent", same.rationale
    only = by_text(guide, "`mailer.retry.RETRY_METHODS` holds only")
    assert only.verdict == "contradicted" and "also has HEAD" in only.rationale
    both = by_text(guide, "`mailer.retry.RETRY_METHODS` holds `GET` and `HEAD`")
    assert both.verdict == "consistent", both.rationale
    prose = by_text(guide, "`Retry` retries requests over HTTP")
    assert prose.verdict != "contradicted", prose.rationale  # HTTP is prose; 1 and 2 are not status codes


def test_a_required_parameter_named_in_words_is_not_what_by_default_is_about(engine: Engine) -> None:
    pairs = review_doc(engine, "mailer/wire.py", StaticReviewer()).pairs()
    v = by_text(pairs, "The given path is relative")
    assert v.verdict != "contradicted", v.rationale


# -- the symbol a reference heading names --------------------------------------------------------
def test_subjectless_sentences_take_the_symbol_their_heading_names(engine: Engine) -> None:
    pairs = review_doc(engine, "docs/reference.md", StaticReviewer()).pairs()
    raises = by_text(pairs, "Raises `ValueError`")
    assert raises.verdict == "contradicted" and "`Registry.get` never raises `ValueError`" in raises.rationale
    none = by_text(pairs, "Returns the entry, or `None`")
    assert none.verdict == "contradicted" and "never returns None" in none.rationale
    size = by_text(pairs, "Returns the number of entries")  # ``size()`` under ``Registry``
    assert size.verdict == "consistent", size.rationale
    own = by_text(pairs, "The registry calls")  # a subject of its own: not the heading's symbol
    assert own.verdict != "contradicted", own.rationale


def test_a_raise_guarded_by_another_parameter_leaves_the_condition_unchecked(guide: list[tuple[Claim, Verdict]]) -> None:
    other = by_text(guide, "`mailer.wire.dial` raises `ValueError` if `retries`")
    assert other.verdict == "unverified" and "raises:unchecked" in other.coverage
    same = by_text(guide, "`mailer.wire.dial` raises `ValueError` if `host`")
    assert same.verdict == "consistent", same.rationale


def test_advice_to_set_a_keyword_is_not_a_stated_default() -> None:
    from caas_tui.review.static.wording.facts import stated_defaults

    assert not stated_defaults("You can also set ``unknown=None`` when instantiating a parser to make this the default.")
    assert ("tol", 1e-3) in [(v.param, v.value) for v in stated_defaults("The tolerance is ``tol=1e-3`` by default.")]
