"""The static checks in every form a claim can take (prose with inline code, reST roles,
Google/NumPy/Sphinx docstring fields, module and class docstrings), and calibrated labels:
``consistent`` only when every assertion the claim makes was checked.

A small task-scheduling project written for these tests (real Engine, real index)."""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.claims.docstrings import parse_field
from caas_tui.review.decisions.codec import checks_from, checks_json, verdict_from, verdict_json
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer
from caas_tui.review.static.wording.assertions import asserted_kinds, described_kind, field_kinds
from caas_tui.review.static.wording.units import matches, quantities
from tests.conftest import verdict_starting as by_text

from .conftest import write

PACKAGE = {
    "tasks/__init__.py": '''
        """Task scheduling. Start with :class:`Runner`; jobs come from :func:`schedule`."""
        from tasks.sched import Runner
        ''',
    "tasks/consts.py": '''
        POLL_INTERVAL = 0.5
        MAX_RETRIES = 3
        ''',
    "tasks/cache.py": '''
        """An in-memory cache. See :class:`Cache`; :func:`evict_all` empties every cache."""


        class Cache:
            """Bytes by key. :meth:`get` reads, :meth:`fetch` is the old name."""

            def __init__(self) -> None:
                self._data: dict[str, bytes] = {}

            def get(self, key: str) -> bytes:
                return self._data[key]

            def pop(self, key: str) -> bytes | None:
                return self._data.pop(key, None)

            def put(self, key: str, value: bytes, *, ttl: float = 60.0) -> None:
                self._data[key] = value

            def set_limit(self, n: int) -> int:
                return max(0, min(n, 100))

            def delete(self, key: str) -> None:
                if key not in self._data:
                    raise KeyError(key)
                self._data = {k: v for k, v in self._data.items() if k != key}

            def resize(self, n: int) -> None:
                """Resize.

                :param n: the new size.
                :type n: str
                """
        ''',
    "tasks/sched.py": '''
        from collections.abc import Callable

        from tasks.consts import MAX_RETRIES, POLL_INTERVAL


        class Job:
            pass


        def schedule(
            handler: str,
            *,
            interval: float = POLL_INTERVAL,
            retries: int = MAX_RETRIES,
            on_done: Callable[[], None] | None = None,
            angle: float = 90.0,
            share: float = 0.25,
        ) -> Job:
            """Schedule a handler.

            :param handler: the handler class to run.
            :param interval: poll every 250 ms.
            :param retries: how often to retry; ten retries by default.
            :param on_done: a callable run when the job finishes.
            :param angle: defaults to 90 degrees.
            :param share: defaults to 25%.
            """
            return Job()


        def backoff(attempt: int, base: float = 0.1) -> float:
            """Delay before a retry.

            Parameters
            ----------
            attempt : int
                Attempt number.
            base : float, optional
                Base delay, by default 100 ms.
            """
            return base * attempt


        class Runner:
            """Runs jobs. See :meth:`start` and :func:`helper_fn`."""

            def start(self, timeout_ms: int = 500) -> None:
                """Start the runner.

                Args:
                    timeout_ms (int): wait half a second by default.
                """

            def stop(self, handler: str = "x") -> None:
                """Stop.

                Args:
                    handler (int): the name of the handler.
                """
        ''',
    "tasks/util.py": '''
        """Helpers around :func:`wait_for` and ``fn(job, dt)`` callbacks; see :mod:`tasks` and :func:`os.path.join`."""
        REGISTRY: dict[str, str] = {}


        def wait_for(job: object, job_type: type = object) -> None:
            """Wait for a :class:`Runner` (exported by the package) to pass :data:`None` or a :func:`job_type`."""


        def run_each(jobs: list[object], progress: object) -> None:
            """Calls ``progress(done, total)`` after each job."""


        def parse_delay(text: str) -> float:
            """Parse a delay. Raises ValueError on bad input."""
            return float(text)


        def lookup(name):
            """Returns None when the name is unknown."""
            return REGISTRY.get(name)


        def first(items: list[str]) -> str:
            """Returns None for an empty list."""
            return items[0] if items else None


        class Check:
            def check(self, v: int) -> None:
                """Raises ValueError if v is invalid."""


        class StrictCheck(Check):
            def check(self, v: int) -> None:
                if v < 0:
                    raise ValueError(v)
        ''',
}

DOCS = {
    "docs/guide.md": """
        # Guide

        Call `Cache.put(key)` to store a value.

        Call `Cache.put(key, value, ttl=5)` to store a value.

        `Cache.get(key)` returns `None` for a missing key.

        `Cache.pop(key)` returns `None` for a missing key.

        `Cache.set_limit` raises `ValueError` when `n` is negative.

        `Cache.delete` raises `KeyError` for a missing key.

        `tasks.Cache` is the main store.

        The `interval` of `tasks.sched.schedule` defaults to 500 ms.

        The `interval` of `tasks.sched.schedule` defaults to 250 ms.

        `Cache.get` returns the value stored under a key.

        `Cache.put` stores a value under a key.

        `Runner.start` always waits for the first job.

        The `ttl` of `Cache.put` defaults to one minute.

        The `ttl` of `Cache.put` is at most 5 seconds by default.
        """,
    "docs/api.rst": """
        API
        ===

        :meth:`tasks.cache.Cache.pop` returns :class:`str`.

        :meth:`tasks.cache.Cache.get` returns :class:`bytes`.

        :class:`tasks.Job` is what :func:`tasks.sched.schedule` gives back.
        """,
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("general") / "proj"
    for rel, text in {**PACKAGE, **DOCS}.items():
        write(root, rel, text)
    eng = Engine.open(root)
    yield eng
    eng.close()


def reviewed(engine: Engine, doc: str) -> list[tuple[Claim, Verdict]]:
    return review_doc(engine, doc, StaticReviewer()).pairs()




# -- calibration ------------------------------------------------------------------------------
def test_assertion_kinds_from_text_and_fields() -> None:
    def kinds(text: str, kind: str = "prose") -> set[str]:
        return asserted_kinds(Claim("x", "d.md", 1, 1, text, kind))  # type: ignore[arg-type]

    assert kinds("`Cache.get` returns the value.") == {"returns"}
    assert kinds("`Cache.get` raises KeyError when absent.") == {"raises"}
    assert kinds("Polls every 250 ms, and retries twice.") == {"value", "behaviour"}
    assert kinds("The hook is called once the job ends.") == {"calls"}
    assert kinds("`Cache` is the main store.") == set()
    assert kinds("`x.returns` is an attribute.") == set()  # words inside code spans assert nothing
    assert kinds("x = f()", "code") == {"runs"}
    assert kinds(">>> f()\n3", "code") == {"returns"}  # a doctest's expected output is an assertion
    assert kinds(">>> x = f()\n>>> g(x)", "code") == {"runs"}  # no stated output: running it is what it shows
    fact = parse_field(":param handler: the handler class to run.")
    assert fact is not None and field_kinds(fact) == {"kind"}
    fact = parse_field("Args: size (int): how many.")
    assert fact is not None and field_kinds(fact) == {"type"}
    fact = parse_field("Returns: the count.")
    assert fact is not None and "returns" in field_kinds(fact)


def test_described_kind_reads_the_head_noun() -> None:
    assert described_kind("The handler class.") == "class"
    assert described_kind("a callable run when done") == "callable"
    assert described_kind("path to the config file") == "path"
    assert described_kind("The handler class name.") is None
    assert described_kind("How many seconds to wait.") is None


def test_only_names_checked_is_unverified_with_what_was_checked(engine: Engine) -> None:
    pairs = reviewed(engine, "docs/guide.md")
    v = by_text(pairs, "`Cache.get` returns the value")
    assert v.verdict == "unverified"
    assert v.rationale.startswith("names checked; the return behaviour was not")
    assert "names:checked" in v.coverage and "returns:unchecked" in v.coverage
    plain = by_text(pairs, "`Cache.put` stores")
    # what `Cache.put` does is asserted too, and no check reads it (issue 14: names only is not green)
    assert plain.verdict == "unverified" and plain.coverage == ("names:checked", "action:unchecked")
    assert plain.rationale.startswith("names checked; what `Cache.put` does (“stores"), plain.rationale
    always = by_text(pairs, "`Runner.start` always")
    assert always.verdict == "unverified" and "behaviour:unchecked" in always.coverage


def test_coverage_survives_the_store_codec() -> None:
    v = Verdict("c1", "unverified", "static", "r", checks=("`a` exists",), coverage=("names:checked", "returns:unchecked"))
    back = verdict_from(verdict_json(v))
    assert back is not None and back.coverage == v.coverage
    assert checks_from(checks_json(v)) == (v.checks, v.coverage)
    assert checks_from('["`a` exists"]') == (("`a` exists",), ())  # rows written before coverage existed
    old = verdict_from('{"claim_id": "c", "verdict": "consistent", "reviewer": "static", "rationale": ""}')
    assert old is not None and old.coverage == ()


# -- calls in prose -------------------------------------------------------------------------
def test_inline_prose_call_is_judged_like_a_code_block(engine: Engine) -> None:
    pairs = reviewed(engine, "docs/guide.md")
    short = by_text(pairs, "Call `Cache.put(key)` to")
    assert short.verdict == "incomplete" and "omits required parameter `value`" in short.rationale
    full = by_text(pairs, "Call `Cache.put(key, value, ttl=5)`")
    assert full.verdict == "consistent", full.rationale


# -- returns and raises ---------------------------------------------------------------------
def test_returns_none_against_annotation_and_raise_paths(engine: Engine) -> None:
    pairs = reviewed(engine, "docs/guide.md")
    get = by_text(pairs, "`Cache.get(key)` returns `None`")
    assert get.verdict == "contradicted" and "never returns None" in get.rationale and "-> bytes" in get.rationale
    pop = by_text(pairs, "`Cache.pop(key)` returns `None`")
    assert pop.verdict == "consistent", pop.rationale


def test_return_type_in_rest_roles(engine: Engine) -> None:
    pairs = reviewed(engine, "docs/api.rst")
    assert by_text(pairs, ":meth:`tasks.cache.Cache.pop` returns").verdict == "contradicted"
    good = by_text(pairs, ":meth:`tasks.cache.Cache.get` returns")
    assert good.verdict == "consistent", good.rationale


def test_raise_claims_against_clamping_and_real_raises(engine: Engine) -> None:
    pairs = reviewed(engine, "docs/guide.md")
    clamp = by_text(pairs, "`Cache.set_limit` raises")
    assert clamp.verdict == "contradicted" and "clamps" in clamp.rationale
    real = by_text(pairs, "`Cache.delete` raises")
    assert real.verdict == "consistent", real.rationale


# -- defaults with units and words ------------------------------------------------------------
def test_quantities_and_unit_readings() -> None:
    (q,) = quantities("poll every 250 ms")
    assert (q.number, q.unit) == (250.0, "ms") and matches(q, "interval", 0.5) is False
    assert matches(q, "interval", 0.25) and matches(q, "interval", 250)
    (half,) = quantities("wait half a second")
    assert matches(half, "timeout_ms", 500) and not matches(half, "timeout_ms", 0.5)
    (ten,) = quantities("ten retries by default")
    assert ten.number == 10
    assert quantities("at most 3 retries") == []  # a bound, not the value
    (deg,) = quantities("90 degrees")
    assert matches(deg, "angle", 1.5707963267948966) and matches(deg, "angle", 90)
    (pct,) = quantities("25%")
    assert matches(pct, "share", 0.25) and not matches(pct, "share", 0.5)


def test_defaults_stated_with_units_or_words(engine: Engine) -> None:
    pairs = reviewed(engine, "tasks/sched.py")
    interval = by_text(pairs, ":param interval:")
    assert interval.verdict == "contradicted"
    assert "`POLL_INTERVAL`" in interval.rationale or "POLL_INTERVAL" in interval.rationale
    assert "500 ms" in interval.rationale
    assert by_text(pairs, ":param retries:").verdict == "contradicted"
    assert by_text(pairs, ":param angle:").verdict == "consistent"
    assert by_text(pairs, ":param share:").verdict == "consistent"
    start = by_text(pairs, "Args: timeout_ms (int):")
    assert start.verdict == "consistent", start.rationale
    numpy = by_text(pairs, "Parameters: base")
    assert numpy.verdict == "consistent", numpy.rationale
    guide = reviewed(engine, "docs/guide.md")
    assert by_text(guide, "The `interval` of `tasks.sched.schedule` defaults to 500 ms").verdict == "consistent"
    bad = by_text(guide, "The `interval` of `tasks.sched.schedule` defaults to 250 ms")
    assert bad.verdict == "contradicted" and bad.fix is not None and "500 ms" in bad.fix.replacement


# -- parameter kinds and types --------------------------------------------------------------
def test_parameter_kind_and_type_against_annotation(engine: Engine) -> None:
    pairs = reviewed(engine, "tasks/sched.py")
    handler = by_text(pairs, ":param handler:")
    assert handler.verdict == "contradicted"
    assert "described as a class but annotated `str`" in handler.rationale
    assert by_text(pairs, ":param on_done:").verdict == "consistent"
    stop = by_text(pairs, "Args: handler (int):")
    assert stop.verdict == "contradicted" and "annotated `str`, not int" in stop.rationale
    sphinx = by_text(reviewed(engine, "tasks/cache.py"), ":type n: str")
    assert sphinx.verdict == "contradicted" and "annotated `int`" in sphinx.rationale


# -- names in module and class docstrings; did you mean -----------------------------------------
def test_roles_in_module_and_class_docstrings_resolve_in_that_module(engine: Engine) -> None:
    init = by_text(reviewed(engine, "tasks/__init__.py"), "Start with")
    assert init.verdict == "contradicted"
    assert "`schedule` does not exist in `tasks`" in init.rationale
    assert "did you mean `tasks.sched.schedule`?" in init.rationale
    cache = reviewed(engine, "tasks/cache.py")
    mod = by_text(cache, "See :class:`Cache`")
    assert mod.verdict == "contradicted" and "`evict_all` does not exist" in mod.rationale
    cls = by_text(cache, ":meth:`get` reads")
    assert cls.verdict == "contradicted" and "`fetch`" in cls.rationale
    runner = by_text(reviewed(engine, "tasks/sched.py"), "See :meth:`start`")
    assert runner.verdict == "contradicted" and "`helper_fn`" in runner.rationale and "`start`" not in runner.rationale


def test_did_you_mean_offers_the_qualified_symbol_first(engine: Engine) -> None:
    v = by_text(reviewed(engine, "docs/guide.md"), "`tasks.Cache` is")
    assert v.verdict == "contradicted"
    assert v.rationale == "`tasks.Cache` does not exist; did you mean `tasks.cache.Cache`?"
    assert v.fix is not None and v.fix.replacement == "`tasks.cache.Cache` is the main store."
    job = by_text(reviewed(engine, "docs/api.rst"), ":class:`tasks.Job`")
    assert job.verdict == "contradicted" and "did you mean `tasks.sched.Job`?" in job.rationale


# -- precision: correct claims that look suspicious -------------------------------------------
def test_suspicious_but_correct_claims_are_not_flagged(engine: Engine) -> None:
    util = reviewed(engine, "tasks/util.py")
    flagged = [(c.text, v.rationale) for c, v in util if v.verdict in ("contradicted", "incomplete")]
    assert flagged == [], flagged
    guide = reviewed(engine, "docs/guide.md")
    assert by_text(guide, "The `ttl` of `Cache.put` defaults to one minute").verdict == "consistent"
    bound = by_text(guide, "The `ttl` of `Cache.put` is at most")
    assert bound.verdict == "unverified"  # a bound, not the default: not judged, and not green


def test_review_json_shows_coverage(engine: Engine, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from caas_tui.cli.main import main

    assert main(["review", "--root", str(engine.root), "--json", "docs/guide.md"]) in (0, 1)
    doc = json.loads(capsys.readouterr().out.strip().split("\n")[0])
    claim = next(c for c in doc["claims"] if c["text"].startswith("`Cache.get` returns the value"))
    assert claim["verdict"] == "unverified" and "returns:unchecked" in claim["coverage"]


# -- a second project, another style: unannotated code, Google docstrings, its own tests ----------
KV = {
    "kv/__init__.py": '"""A key-value store."""\n',
    "kv/codecs.py": '''
        class Codec:
            pass


        class JsonCodec(Codec):
            pass


        class XmlCodec(Codec):
            pass
        ''',
    "kv/store.py": '''
        from collections.abc import Callable

        from kv.codecs import JsonCodec


        def write_file(path, data):
            with open(path, "w") as fh:
                fh.write(data)


        def compact(store):
            return store


        def parse_size(text):
            return int(text.rstrip("k")) * 1000


        def fetch(url, max_retries=3):
            return url


        def register(name: str, handler: str, factory: Callable[[], object] | None = None) -> None:
            pass


        def connect(host, codec=JsonCodec):
            return host


        class Store:
            def __init__(self, path="kv.db", hook=None):
                self._data = {}
                self._limit = 10
                self._path = path
                self._hook = hook

            def _lookup(self, key):
                if key not in self._data:
                    raise KeyError(key)
                return self._data[key]

            def get(self, key):
                value = self._lookup(key)
                return value

            def find(self, key):
                if key not in self._data:
                    raise KeyError(key)
                return self._data[key]

            def size(self):
                return len(self._data)

            def lookup(self, key):
                return self._data.get(key)

            def peek(self):
                if not self._data:
                    return None
                return next(iter(self._data))

            def set_timeout(self, seconds):
                if seconds < 0:
                    seconds = 0
                self._timeout = float(seconds)

            def parse_port(self, text):
                return int(text)

            def set_limit(self, n):
                self._limit = _normalize(n)
                return self._limit

            def close(self):
                raise RuntimeError("closed twice")

            def open(self):
                self._data = dict(self._data)

            def save(self):
                self._dump()

            def _dump(self):
                write_file(self._path, str(self._data))

            def notify(self):
                self._hook()


        def _normalize(n):
            return max(n, 0)
        ''',
    "tests/test_kv.py": '''
        import pytest

        from kv.store import Store, parse_size


        @pytest.fixture
        def store():
            return Store()


        def test_sizes():
            assert parse_size("1k") == 1000
            assert parse_size("2k") == 2000


        def test_limit():
            s = Store()
            assert s.set_limit(-1) == 0


        def test_missing(store):
            with pytest.raises(KeyError):
                store.get("nope")
        ''',
    "docs/kv.md": """
        # kv

        `Store.find` returns `None` for an unknown key.

        `Store.size` returns `None` when the store is closed.

        `Store.lookup` returns `None` for an unknown key.

        `Store.set_timeout` raises `ValueError` when `seconds` is negative.

        `Store.parse_port` raises `ValueError` if `text` is not a number.

        `Store.close` never raises `RuntimeError`.

        `Store.open` never raises `KeyError`.

        `Store.peek` never returns `None`.

        With `connect`, the `codec` defaults to :class:`kv.codecs.XmlCodec`.

        With `connect`, the `codec` defaults to :class:`kv.codecs.JsonCodec`.

        For `register`, `handler` is the handler class.

        For `register`, `factory` is a callable that builds the handler.

        `parse_size("1k")` returns `1024`.

        `parse_size("2k")` returns `2000`.

        `Store.set_limit` raises `ValueError` if `n` is negative.

        `Store.get` returns `None` for a missing key.

        `Store.save` calls `write_file`.

        `Store.save` calls `compact`.

        `Store.notify` calls `compact`.

        `fetch` retries five times.

        `fetch` retries three times.
        """,
}


@pytest.fixture(scope="module")
def kv_pairs(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Claim, Verdict]]:
    root = tmp_path_factory.mktemp("kv") / "proj"
    for rel, text in KV.items():
        write(root, rel, text)
    eng = Engine.open(root)
    try:
        yield reviewed(eng, "docs/kv.md")
    finally:
        eng.close()


def test_returns_none_without_annotation_from_return_statements(kv_pairs: list[tuple[Claim, Verdict]]) -> None:
    find = by_text(kv_pairs, "`Store.find` returns `None`")
    assert find.verdict == "contradicted" and "KeyError" in find.rationale, find.rationale
    # ``len(...)`` is never None, but nothing raises: no "instead", so not judged
    assert by_text(kv_pairs, "`Store.size` returns `None`").verdict != "contradicted"
    assert by_text(kv_pairs, "`Store.lookup` returns `None`").verdict != "contradicted"


def test_raise_claims_when_calls_leave_the_project(kv_pairs: list[tuple[Claim, Verdict]]) -> None:
    clamp = by_text(kv_pairs, "`Store.set_timeout` raises")
    assert clamp.verdict == "contradicted" and "returns (or substitutes" in clamp.rationale, clamp.rationale
    # ``int(text)`` raises ValueError itself and nothing handles the condition: left alone
    assert by_text(kv_pairs, "`Store.parse_port` raises").verdict == "unverified"


def test_negated_raise_and_return_claims(kv_pairs: list[tuple[Claim, Verdict]]) -> None:
    close = by_text(kv_pairs, "`Store.close` never raises")
    assert close.verdict == "contradicted" and "raises `RuntimeError` itself" in close.rationale
    assert by_text(kv_pairs, "`Store.open` never raises").verdict != "contradicted"
    peek = by_text(kv_pairs, "`Store.peek` never returns")
    assert peek.verdict == "contradicted" and "return None" in peek.rationale


def test_defaults_written_as_roles(kv_pairs: list[tuple[Claim, Verdict]]) -> None:
    wrong = by_text(kv_pairs, "With `connect`, the `codec` defaults to :class:`kv.codecs.XmlCodec`")
    assert wrong.verdict == "contradicted" and "JsonCodec" in wrong.rationale, wrong.rationale
    right = by_text(kv_pairs, "With `connect`, the `codec` defaults to :class:`kv.codecs.JsonCodec`")
    assert right.verdict == "consistent", right.rationale


def test_described_kind_in_prose(kv_pairs: list[tuple[Claim, Verdict]]) -> None:
    handler = by_text(kv_pairs, "For `register`, `handler` is the handler class")
    assert handler.verdict == "contradicted" and "annotated `str`" in handler.rationale, handler.rationale
    assert by_text(kv_pairs, "For `register`, `factory` is a callable").verdict != "contradicted"


def test_project_tests_as_evidence(kv_pairs: list[tuple[Claim, Verdict]]) -> None:
    wrong = by_text(kv_pairs, '`parse_size("1k")` returns `1024`')
    assert wrong.verdict == "contradicted" and "tests/test_kv.py" in wrong.rationale and "1000" in wrong.rationale
    right = by_text(kv_pairs, '`parse_size("2k")` returns `2000`')
    assert right.verdict == "consistent", right.rationale
    limit = by_text(kv_pairs, "`Store.set_limit` raises")
    assert limit.verdict == "contradicted" and "expects 0" in limit.rationale, limit.rationale
    get = by_text(kv_pairs, "`Store.get` returns `None`")
    assert get.verdict == "contradicted" and "raise `KeyError`" in get.rationale, get.rationale


def test_call_claims_against_what_the_code_calls(kv_pairs: list[tuple[Claim, Verdict]]) -> None:
    assert by_text(kv_pairs, "`Store.save` calls `write_file`").verdict == "consistent"
    wrong = by_text(kv_pairs, "`Store.save` calls `compact`")
    assert wrong.verdict == "contradicted" and "compact" in wrong.rationale
    # ``self._hook()`` may be anything: not judged
    assert by_text(kv_pairs, "`Store.notify` calls `compact`").verdict == "unverified"


def test_retry_counts_against_the_retry_parameter(kv_pairs: list[tuple[Claim, Verdict]]) -> None:
    five = by_text(kv_pairs, "`fetch` retries five times")
    assert five.verdict == "contradicted" and "max_retries" in five.rationale, five.rationale
    assert by_text(kv_pairs, "`fetch` retries three times").verdict == "consistent"


def test_assertion_kinds_for_results_types_and_negations() -> None:
    def kinds(text: str) -> set[str]:
        return asserted_kinds(Claim("x", "d.md", 1, 1, text, "prose"))

    assert "returns" in kinds('`has_component("x")` is `False` afterwards.')
    assert "type" in kinds("`Scene.entities` is a tuple of every entity.")
    # "never raises" is a raise claim (judged as one), not free-form behaviour
    assert kinds("`Store.open` never raises `KeyError`.") >= {"raises"}
    assert "behaviour" not in kinds("`Store.open` never raises `KeyError`.")
    assert "behaviour" in kinds("`Store.open` never blocks.")
