"""Session 8 matrix for issue 14: defaults, quantities, kinds, calls and returns stated in words.

Written from the issue's wording, not from any project's manifest. The project (a small key/value
cache, ``qbox``) keeps its constants in one module and uses them in another, so every default
has to be followed across files. Doc sentences state defaults with units and in words ("one
hour", "a quarter", "twice", "disabled", "no limit"), name keyword arguments in passing ("unless
you pass `ttl=`"), state a method's default on its class, and appear as Markdown prose with
inline code, Markdown tables, Google / NumPy / Sphinx docstring fields and reST fields.

Every defect cell has a correct twin. A defect must be flagged (``contradicted`` or
``incomplete``); its twin must not be. ``OK`` cells with no twin are true claims that look like
defects (a check must not guess)."""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer

from .conftest import verdict_starting, write

PACKAGE = {
    "qbox/__init__.py": '''
        """A small key/value cache. Start with :class:`Store`."""
        from qbox.store import Entry, Store, fetch, ping

        __all__ = ["Entry", "Store", "fetch", "ping"]
        ''',
    "qbox/book.py": '''
        """A ledger of stores."""
        from qbox.limits import TTL_SECONDS


        class Book:
            """Keeps stores by name."""

            def __init__(self, *, ttl: float = TTL_SECONDS, depth: int = 8, width: int = 4) -> None:
                self._ttl = ttl
                self._depth = depth
                self.width = width

            @property
            def ttl(self) -> float:
                """Lifetime of new stores."""
                return self._ttl

            @property
            def depth(self) -> int:
                """How many stores it keeps."""
                return self._depth
        ''',
    "qbox/limits.py": '''
        """Tunable limits, in one place."""
        import math
        from decimal import Decimal

        TTL_SECONDS = 900
        MAX_SKEW = Decimal("0.25")
        RETRY_DELAY_MS = 1500
        HEADING = math.pi / 2
        LEASE = 30 * 60
        ''',
    "qbox/store.py": '''
        """The store itself.

        By default, :func:`fetch` times out after 30 seconds.

        By default, :func:`ping` times out after 5 seconds.
        """
        from __future__ import annotations

        from collections.abc import Callable
        from datetime import timedelta
        from decimal import Decimal
        from pathlib import Path

        from qbox.limits import HEADING, LEASE, MAX_SKEW, RETRY_DELAY_MS, TTL_SECONDS


        class Entry:
            """One stored value."""

            def __init__(self, key: str, value: object) -> None:
                self.key = key
                self.value = value


        class Codec:
            """Turns values into bytes."""


        class User:
            """Someone who owns entries."""


        class Store:
            """A keyed store of expiring entries.

            The ``batch`` defaults to 64.

            The ``window`` defaults to 8.

            Entries are compressed by default.

            Checksums are verified by default.

            Args:
                ttl: how long entries are kept, in seconds.
            """

            def __init__(self, *, ttl: float = TTL_SECONDS, max_skew: Decimal = MAX_SKEW,
                         tolerance: float = 0.1, retries: int = 2, capacity: int | None = None,
                         max_items: int = 1000, compress: bool = False, verify: bool = True,
                         lease: float = LEASE, hold: timedelta = timedelta(minutes=10),
                         grace: timedelta = timedelta(minutes=5)) -> None:
                self.ttl = ttl
                self.max_skew = max_skew
                self.tolerance = tolerance
                self.retries = retries
                self.capacity = capacity
                self.max_items = max_items
                self.compress = compress
                self.verify = verify
                self.lease = lease
                self.hold = hold
                self.grace = grace
                self._data: dict[str, Entry] = {}

            def put(self, key: str, value: object, *, ttl: float | None = None) -> Entry:
                """Store ``value`` under ``key``.

                Returns:
                    str: the key the value was stored under.
                """
                entry = Entry(key, value)
                self._data[key] = entry
                return entry

            def add(self, key: str, value: object) -> Entry:
                """Store ``value`` under ``key`` unless it is there.

                Returns:
                    Entry: the stored entry.
                """
                return self._data.setdefault(key, Entry(key, value))

            def get(self, key: str) -> Entry | None:
                """Look ``key`` up."""
                if key not in self._data:
                    return None
                return self._data[key]

            def pop(self, key: str) -> Entry:
                """Remove ``key`` and hand its entry back."""
                if key not in self._data:
                    raise KeyError(key)
                return self._data.pop(key)

            def clear(self) -> None:
                """Drop every entry."""
                self._data.clear()

            def keys(self) -> list[str]:
                """The stored keys.

                :rtype: int
                """
                return list(self._data)

            def values(self) -> list[object]:
                """The stored values.

                :rtype: list
                """
                return [e.value for e in self._data.values()]

            def drain(self, batch: int = 32, window: int = 8) -> None:
                """Empty the store in batches."""


        def fetch(url: str, *, timeout: float = 60.0, retries: int = 3, delay_ms: int = RETRY_DELAY_MS,
                  backoff_ms: int = 500, encoding: str = "latin-1", errors: str = "strict",
                  sep: str = ";", quote: str = '"') -> bytes:
            """Fetch one remote value.

            :param delay_ms: pause between retries, 1.5 seconds by default.
            :param backoff_ms: extra pause per retry, 5 seconds by default.
            :param encoding: if omitted, ``"utf-8"`` is used.
            :param errors: if omitted, ``"strict"`` is used.
            """
            return b""


        def ping(host: str, timeout: float = 5.0, limit: int = -1) -> bool:
            """Check that ``host`` answers.

            Args:
                host (str): the host name.
                timeout (float): seconds to wait. Defaults to five seconds.
                limit (int): how many probes to send. Defaults to no limit.
            """
            return True


        def expire(after: float = TTL_SECONDS, sweep: float = LEASE) -> None:
            """Expire old entries.

            Args:
                after (float): seconds until an entry expires. Defaults to an hour.
                sweep (float): seconds between two sweeps. Defaults to half an hour.
            """


        def sweep(ttl: timedelta = timedelta(hours=1), keep: timedelta = timedelta(minutes=15),
                  tolerance: Decimal = MAX_SKEW, drift: float = 0.1, on_done: str = "", on_fail: Callable[[], None] | None = None,
                  cutoff: int = 0, horizon: int | None = None) -> int:
            """Sweep expired entries.

            :param ttl: lifetime of an entry (default: 15 minutes).
            :param keep: lifetime of a kept entry (default: 15 minutes).
            :param tolerance: accepted drift, 10 % by default.
            :param drift: accepted drift, 10 % by default.
            :param on_done: callable run when the sweep ends.
            :param on_fail: callable run when the sweep fails.
            :param cutoff: no cutoff by default.
            :param horizon: no horizon by default.
            :returns: ``None``.
            """
            return 0


        def evict(ttl: float = TTL_SECONDS, grace: float = TTL_SECONDS, budget: float = LEASE, slack: float = LEASE,
                  factor: Decimal = MAX_SKEW, spread: Decimal = MAX_SKEW, hook: str = "", on_evict: Callable[[str], None] | None = None,
                  codec: str = "json", factory: type[Codec] = Codec) -> None:
            """Evict old entries.

            Args:
                ttl (float, optional): lifetime in seconds. Defaults to ``TTL_SECONDS`` (one hour).
                grace (float, optional): lifetime in seconds. Defaults to ``TTL_SECONDS`` (15 minutes).
                budget: seconds one run may take (default 15 min).
                slack: seconds one run may overrun (default 30 min).

            Parameters
            ----------
            factor : Decimal, optional
                Accepted change. The default is 10 percent.
            spread : Decimal, optional
                Accepted change. The default is 25 percent.
            hook : callable
                Run on each eviction.
            on_evict : callable
                Run on each eviction.
            codec : class
                How values are encoded.
            factory : class
                How values are encoded.
            """


        def bind(sink: str, source: Callable[[str], None], kind: str, codec_cls: type[Codec], owner: int, user: User,
                 target: int, origin: Path, label: Store, title: str) -> None:
            """Bind a store to its callbacks.

            Parameters
            ----------
            sink : function
                Called with each key.
            source : function
                Called with each key.
            kind : Codec subclass
                Encodes values.
            codec_cls : Codec subclass
                Encodes values.
            owner : User
                Whoever owns the store.
            user : User
                Whoever owns the store.
            target
                The ID of the target store.
            origin
                The file the entries come from.
            label
                Label shown in listings.
            title
                Label shown in listings.
            """


        def aim(heading: float = HEADING, tilt: float = HEADING / 2) -> None:
            """Point the antenna.

            Parameters
            ----------
            heading : float, default 90 degrees
                Compass heading, in radians.
            tilt : float, default 90 degrees
                Tilt, in radians.
            """


        def schedule(lease: float = LEASE, period: float = TTL_SECONDS) -> None:
            """Plan the next sweep.

            Parameters
            ----------
            lease : float, default TTL_SECONDS
                Seconds a sweep may hold the store.
            period : float, default TTL_SECONDS
                Seconds between two sweeps.
            """


        def register(codec: str, factory: type[Codec], on_evict: str, on_hit: Callable[[str], None],
                     owner: User, owner_id: int, dump: int, load: Path, store: Store, store_name: str) -> None:
            """Wire the cache up.

            :param codec: the codec class to use.
            :param factory: the codec class to use.
            :param on_evict: a callable called with each evicted key.
            :param on_hit: a callable called with each key that is found.
            :param owner: the owner's id.
            :param owner_id: the owner's id.
            :param dump: path of the file to dump entries into.
            :param load: path of the file to load entries from.
            :param store: the name of the store.
            :param store_name: the name of the store.
            """


        def wire(sink: int, source: Path, hook: str, callback: Callable[[], None]) -> None:
            """Wire the cache to a file.

            Args:
                sink: path of the output file.
                source: path of the input file.
                hook: function to call after each write.
                callback: function to call after each read.
            """
        ''',
}

GUIDE = """
    # Using qbox

    ## Expiry

    A value doesn't stay good forever; by default, entries expire after one hour
    unless you pass `ttl=` to `Store` or to `put`.

    ## Expiry, told right

    A value doesn't stay good forever; by default, entries expire after fifteen minutes
    unless you pass `ttl=` to `Store` or to `put`.

    ## Constants

    The `ttl` of `qbox.Store` defaults to the value of `qbox.limits.RETRY_DELAY_MS`.

    The `ttl` of `qbox.Store` defaults to the value of `qbox.limits.TTL_SECONDS`.

    ## Tolerances

    The `tolerance` of `qbox.Store` defaults to a quarter.

    The `max_skew` of `qbox.Store` defaults to a quarter.

    | `Store` setting | default |
    |---|---|
    | `max_skew` | 10 % change between two reads |
    | `tolerance` | 10 % change between two reads |

    ## Retries

    By default `qbox.fetch` retries twice.

    By default `qbox.Store` retries twice.

    ## Limits

    If omitted, `max_items` of `qbox.Store` means no limit.

    If omitted, `capacity` of `qbox.Store` means no limit.

    When not given, `sep` of `qbox.fetch` is `","`.

    When not given, `quote` of `qbox.fetch` is `'"'`.

    ## Durations

    The `hold` of `qbox.Store` defaults to five minutes.

    The `grace` of `qbox.Store` defaults to five minutes.

    The `lease` of `qbox.Store` defaults to one hour.

    The `lease` of `qbox.Store` defaults to half an hour.

    | `qbox.Store` option | default |
    |---|---|
    | `grace` | ten minutes |
    | `hold` | ten minutes |

    The `max_items` limit of `qbox.Store` is disabled by default.

    The `capacity` limit of `qbox.Store` is disabled by default.

    ## Sweeping with `qbox.store.sweep`

    - `ttl` - how long an entry lives; one hour by default.
    - `keep` - how long a kept entry lives; one hour by default.

    | parameter | type | default | description |
    |---|---|---|---|
    | `tolerance` | `Decimal` | 10 % | accepted drift |
    | `drift` | `float` | 10 % | accepted drift |

    `qbox.store.sweep` waits for `keep` (default `timedelta(hours=1)`) before it drops a kept entry.

    `qbox.store.sweep` waits for `ttl` (default `timedelta(hours=1)`) before it drops an entry.

    ## Evicting with `qbox.store.evict`

    The default `budget` is one hour.

    The default `slack` is half an hour.

    Entries are evicted after `ttl` seconds, one hour unless set.

    Entries are evicted after `grace` seconds, 15 minutes unless set.

    Pass `factor=None` to accept any change; by default the limit is 10 %.

    Pass `spread=None` to accept any change; by default the limit is 25 %.

    | option | default | meaning |
    |---|---|---|
    | `budget` | `3600` (one hour) | seconds one run may take |
    | `slack` | `1800` (half an hour) | seconds one run may overrun |

    ## Lifetimes of `qbox.Store` entries

    Entries added without `ttl` live for an hour.

    Entries added without `lease` live for half an hour.

    The `lease` of `qbox.Store` is three quarters of an hour by default.

    The `ttl` of `qbox.Store` is a quarter of an hour by default.

    ## Binding with `qbox.store.bind`

    - `sink` - a function called with each key.
    - `source` - a function called with each key.
    - `owner` - the ID of the owner.
    - `target` - the ID of the target store.

    ## Books

    `qbox.book.Book.ttl` defaults to one hour.

    `qbox.book.Book.ttl` defaults to 15 minutes.

    `Book.depth` is 4 by default.

    `Book.depth` is 8 by default.

    `Book.width` is 8 by default.

    `Book.width` is 4 by default.

    ## Calls

    Call `qbox.fetch("http://x", 60.0)` to wait a minute.

    Call `qbox.fetch("http://x", timeout=60.0)` to wait a minute.

    Store a value with `Store().put("k")` first.

    Store a value with `Store().put("k", 1)` first.

    Make a small store with `qbox.Store(size=10)`.

    Make a small store with `qbox.Store(capacity=10)`.

    ## Returns

    `Store.pop` returns `None` when the key is missing.

    `Store.get` returns `None` when the key is missing.

    `Store.clear` returns the number of removed entries.

    `Store.clear` returns `None`.

    ## Kinds

    The `on_evict` argument of `qbox.store.register` must be a callable.

    The `on_hit` argument of `qbox.store.register` must be a callable.

    | parameter | description |
    |---|---|
    | `codec` | the codec class |
    | `factory` | the codec class |
    """

API = """
    API
    ===

    .. py:function:: qbox.fetch(url, *, timeout=60.0, retries=3)

       :param retries: retries twice by default.
       :param timeout: gives up after a minute by default.

    .. py:function:: qbox.ping(host, timeout=10.0, limit=-1)

       Check a host.

    .. py:function:: qbox.store.aim(heading=HEADING, tilt=HEADING / 2)

       Point the antenna.

    :class:`qbox.Store` keeps entries for an hour by default.

    :class:`qbox.Store` keeps entries for 15 minutes by default.
    """

DOCS = {"docs/guide.md": GUIDE, "docs/api.rst": API}

FLAG = "flag"
OK = "ok"

# (cell, doc, claim start, expectation). Each cell lists its defect first, then its twin.
CELLS: list[tuple[str, str, str, str]] = [
    # -- defaults in words, with `name=` mentions -------------------------------------------------
    ("words-hour-kwarg-mention-prose", "docs/guide.md", "A value doesn't stay good forever; by default, entries expire after one", FLAG),
    ("words-hour-kwarg-mention-prose", "docs/guide.md", "A value doesn't stay good forever; by default, entries expire after fifteen", OK),
    ("value-of-constant-prose", "docs/guide.md", "The `ttl` of `qbox.Store` defaults to the value of `qbox.limits.RETRY", FLAG),
    ("value-of-constant-prose", "docs/guide.md", "The `ttl` of `qbox.Store` defaults to the value of `qbox.limits.TTL", OK),
    ("quarter-vs-fraction-prose", "docs/guide.md", "The `tolerance` of `qbox.Store` defaults to a quarter", FLAG),
    ("quarter-vs-fraction-prose", "docs/guide.md", "The `max_skew` of `qbox.Store` defaults to a quarter", OK),
    ("percent-vs-decimal-constant-table", "docs/guide.md", "`max_skew` | 10 %", FLAG),
    ("percent-vs-decimal-constant-table", "docs/guide.md", "`tolerance` | 10 %", OK),
    ("twice-prose", "docs/guide.md", "By default `qbox.fetch` retries twice", FLAG),
    ("twice-prose", "docs/guide.md", "By default `qbox.Store` retries twice", OK),
    ("no-limit-if-omitted-prose", "docs/guide.md", "If omitted, `max_items`", FLAG),
    ("no-limit-if-omitted-prose", "docs/guide.md", "If omitted, `capacity`", OK),
    ("when-not-given-prose", "docs/guide.md", "When not given, `sep`", FLAG),
    ("when-not-given-prose", "docs/guide.md", "When not given, `quote`", OK),
    ("timedelta-minutes-prose", "docs/guide.md", "The `hold` of `qbox.Store` defaults to five minutes", FLAG),
    ("timedelta-minutes-prose", "docs/guide.md", "The `grace` of `qbox.Store` defaults to five minutes", OK),
    ("hour-vs-constant-expression-prose", "docs/guide.md", "The `lease` of `qbox.Store` defaults to one hour", FLAG),
    ("hour-vs-constant-expression-prose", "docs/guide.md", "The `lease` of `qbox.Store` defaults to half an hour", OK),
    ("words-timedelta-table", "docs/guide.md", "`grace` | ten minutes", FLAG),
    ("words-timedelta-table", "docs/guide.md", "`hold` | ten minutes", OK),
    ("disabled-vs-number-prose", "docs/guide.md", "The `max_items` limit", FLAG),
    ("disabled-vs-number-prose", "docs/guide.md", "The `capacity` limit", OK),
    ("words-hour-constant-google", "qbox/store.py", "Args: after (float):", FLAG),
    ("words-hour-constant-google", "qbox/store.py", "Args: sweep (float):", OK),
    ("words-timedelta-sphinx-paren", "qbox/store.py", ":param ttl: lifetime of an entry", FLAG),
    ("words-timedelta-sphinx-paren", "qbox/store.py", ":param keep: lifetime of a kept entry", OK),
    ("percent-decimal-sphinx", "qbox/store.py", ":param tolerance: accepted drift", FLAG),
    ("percent-decimal-sphinx", "qbox/store.py", ":param drift: accepted drift", OK),
    ("no-limit-zero-sphinx", "qbox/store.py", ":param cutoff:", OK),  # 0 may mean "none": not refuted
    ("no-limit-none-sphinx", "qbox/store.py", ":param horizon:", OK),
    ("words-hour-bullet", "docs/guide.md", "`keep` - how long", FLAG),
    ("words-hour-bullet", "docs/guide.md", "`ttl` - how long", OK),
    ("percent-decimal-wide-table", "docs/guide.md", "`tolerance` | `Decimal` | 10 %", FLAG),
    ("percent-decimal-wide-table", "docs/guide.md", "`drift` | `float` | 10 %", OK),
    ("timedelta-literal-parenthesis-prose", "docs/guide.md", "`qbox.store.sweep` waits for `keep`", FLAG),
    ("timedelta-literal-parenthesis-prose", "docs/guide.md", "`qbox.store.sweep` waits for `ttl`", OK),
    ("kind-callable-vs-str-sphinx-when", "qbox/store.py", ":param on_done:", FLAG),
    ("kind-callable-vs-str-sphinx-when", "qbox/store.py", ":param on_fail:", OK),
    ("returns-none-field-vs-int", "qbox/store.py", ":returns: ``None``", FLAG),
    ("constant-and-words-google", "qbox/store.py", "Args: ttl (float, optional):", FLAG),
    ("constant-and-words-google", "qbox/store.py", "Args: grace (float, optional):", OK),
    ("abbreviated-unit-google-paren", "qbox/store.py", "Args: budget:", FLAG),
    ("abbreviated-unit-google-paren", "qbox/store.py", "Args: slack:", OK),
    ("the-default-is-percent-numpy", "qbox/store.py", "Parameters: factor (", FLAG),
    ("the-default-is-percent-numpy", "qbox/store.py", "Parameters: spread", OK),
    ("kind-callable-numpy-type", "qbox/store.py", "Parameters: hook", FLAG),
    ("kind-callable-numpy-type", "qbox/store.py", "Parameters: on_evict", OK),
    ("kind-class-numpy-type", "qbox/store.py", "Parameters: codec (", FLAG),
    ("kind-class-numpy-type", "qbox/store.py", "Parameters: factory", OK),
    ("the-default-x-is-prose", "docs/guide.md", "The default `budget` is one hour", FLAG),
    ("the-default-x-is-prose", "docs/guide.md", "The default `slack` is half an hour", OK),
    ("unless-set-prose", "docs/guide.md", "Entries are evicted after `ttl` seconds", FLAG),
    ("unless-set-prose", "docs/guide.md", "Entries are evicted after `grace` seconds", OK),
    ("pass-none-then-by-default-prose", "docs/guide.md", "Pass `factor=None`", FLAG),
    ("pass-none-then-by-default-prose", "docs/guide.md", "Pass `spread=None`", OK),
    ("literal-and-words-table", "docs/guide.md", "`budget` | `3600`", FLAG),
    ("literal-and-words-table", "docs/guide.md", "`slack` | `1800`", OK),
    ("without-name-prose", "docs/guide.md", "Entries added without `ttl`", FLAG),
    ("without-name-prose", "docs/guide.md", "Entries added without `lease`", OK),
    ("fraction-of-unit-prose", "docs/guide.md", "The `lease` of `qbox.Store` is three quarters", FLAG),
    ("fraction-of-unit-prose", "docs/guide.md", "The `ttl` of `qbox.Store` is a quarter", OK),
    ("kind-function-numpy-type", "qbox/store.py", "Parameters: sink", FLAG),
    ("kind-function-numpy-type", "qbox/store.py", "Parameters: source", OK),
    ("kind-subclass-numpy-type", "qbox/store.py", "Parameters: kind", FLAG),
    ("kind-subclass-numpy-type", "qbox/store.py", "Parameters: codec_cls", OK),
    ("type-class-vs-int-numpy", "qbox/store.py", "Parameters: owner", FLAG),
    ("type-class-vs-int-numpy", "qbox/store.py", "Parameters: user", OK),
    ("kind-id-upper-numpy", "qbox/store.py", "Parameters: target", OK),
    ("kind-function-bullet", "docs/guide.md", "`sink` - a function", FLAG),
    ("kind-function-bullet", "docs/guide.md", "`source` - a function", OK),
    ("kind-id-bullet", "docs/guide.md", "`owner` - the ID", OK),  # owner: int
    ("kind-id-bullet-target", "docs/guide.md", "`target` - the ID", OK),
    ("directive-signature-default-rest", "docs/api.rst", "``qbox.ping(host, timeout=10.0", FLAG),
    ("directive-signature-default-rest", "docs/api.rst", "``qbox.store.aim(heading=HEADING", OK),
    ("property-of-init-param-prose", "docs/guide.md", "`qbox.book.Book.ttl` defaults to one hour", FLAG),
    ("property-of-init-param-prose", "docs/guide.md", "`qbox.book.Book.ttl` defaults to 15 minutes", OK),
    ("property-bare-number-prose", "docs/guide.md", "`Book.depth` is 4 by default", FLAG),
    ("property-bare-number-prose", "docs/guide.md", "`Book.depth` is 8 by default", OK),
    ("init-param-attribute-bare-number-prose", "docs/guide.md", "`Book.width` is 8 by default", FLAG),
    ("init-param-attribute-bare-number-prose", "docs/guide.md", "`Book.width` is 4 by default", OK),
    # -- defaults on the class docstring, parameter on __init__ or on a method ---------------------
    ("method-default-on-class-docstring", "qbox/store.py", "The ``batch`` defaults to 64", FLAG),
    ("method-default-on-class-docstring", "qbox/store.py", "The ``window`` defaults to 8", OK),
    ("disabled-bool-class-docstring", "qbox/store.py", "Entries are compressed by default", FLAG),
    ("disabled-bool-class-docstring", "qbox/store.py", "Checksums are verified by default", OK),
    ("after-n-seconds-module-docstring", "qbox/store.py", "By default, :func:`fetch` times out after 30", FLAG),
    ("after-n-seconds-module-docstring", "qbox/store.py", "By default, :func:`ping` times out after 5", OK),
    ("rest-role-hour-class", "docs/api.rst", ":class:`qbox.Store` keeps entries for an hour", FLAG),
    ("rest-role-hour-class", "docs/api.rst", ":class:`qbox.Store` keeps entries for 15 minutes", OK),
    # -- defaults in docstring fields ---------------------------------------------------------------
    ("ms-vs-seconds-sphinx", "qbox/store.py", ":param backoff_ms:", FLAG),
    ("ms-vs-seconds-sphinx", "qbox/store.py", ":param delay_ms:", OK),
    ("if-omitted-sphinx", "qbox/store.py", ":param encoding:", FLAG),
    ("if-omitted-sphinx", "qbox/store.py", ":param errors:", OK),
    ("degrees-vs-radians-numpy", "qbox/store.py", "Parameters: tilt", FLAG),
    ("degrees-vs-radians-numpy", "qbox/store.py", "Parameters: heading", OK),
    ("constant-name-numpy", "qbox/store.py", "Parameters: lease", FLAG),
    ("constant-name-numpy", "qbox/store.py", "Parameters: period", OK),
    ("twice-rest-directive", "docs/api.rst", ":param retries:", FLAG),
    ("twice-rest-directive", "docs/api.rst", ":param timeout:", OK),
    # A -1 sentinel is not a number of probes; "no limit" cannot be refuted from the code alone.
    ("precise-no-limit-sentinel-google", "qbox/store.py", "Args: limit (int):", OK),
    ("precise-five-seconds-google", "qbox/store.py", "Args: timeout (float):", OK),
    # -- calls in prose ---------------------------------------------------------------------------------
    ("call-kwonly-positional-prose", "docs/guide.md", 'Call `qbox.fetch("http://x", 60.0)`', FLAG),
    ("call-kwonly-positional-prose", "docs/guide.md", 'Call `qbox.fetch("http://x", timeout', OK),
    ("call-missing-required-prose", "docs/guide.md", 'Store a value with `Store().put("k")`', FLAG),
    ("call-missing-required-prose", "docs/guide.md", 'Store a value with `Store().put("k", 1)`', OK),
    ("call-unknown-kw-prose", "docs/guide.md", "Make a small store with `qbox.Store(size", FLAG),
    ("call-unknown-kw-prose", "docs/guide.md", "Make a small store with `qbox.Store(capacity", OK),
    # -- return claims ----------------------------------------------------------------------------------
    ("returns-none-prose", "docs/guide.md", "`Store.pop` returns `None`", FLAG),
    ("returns-none-prose", "docs/guide.md", "`Store.get` returns `None`", OK),
    ("returns-value-from-none-prose", "docs/guide.md", "`Store.clear` returns the number", FLAG),
    ("returns-value-from-none-prose", "docs/guide.md", "`Store.clear` returns `None`", OK),
    ("returns-type-google", "qbox/store.py", "Returns: str:", FLAG),
    ("returns-type-google", "qbox/store.py", "Returns: Entry:", OK),
    ("rtype-sphinx", "qbox/store.py", ":rtype: int", FLAG),
    ("rtype-sphinx", "qbox/store.py", ":rtype: list", OK),
    # -- parameter kinds ------------------------------------------------------------------------------
    ("kind-class-vs-str-sphinx", "qbox/store.py", ":param codec:", FLAG),
    ("kind-class-vs-str-sphinx", "qbox/store.py", ":param factory:", OK),
    ("kind-callable-vs-str-sphinx", "qbox/store.py", ":param on_evict:", FLAG),
    ("kind-callable-vs-str-sphinx", "qbox/store.py", ":param on_hit:", OK),
    ("kind-id-vs-class-sphinx", "qbox/store.py", ":param owner:", FLAG),
    ("kind-id-vs-class-sphinx", "qbox/store.py", ":param owner_id:", OK),
    ("kind-path-vs-int-sphinx", "qbox/store.py", ":param dump:", FLAG),
    ("kind-path-vs-int-sphinx", "qbox/store.py", ":param load:", OK),
    ("kind-name-vs-class-sphinx", "qbox/store.py", ":param store:", FLAG),
    ("kind-name-vs-class-sphinx", "qbox/store.py", ":param store_name:", OK),
    ("kind-path-vs-int-google", "qbox/store.py", "Args: sink:", FLAG),
    ("kind-path-vs-int-google", "qbox/store.py", "Args: source:", OK),
    ("kind-callable-vs-str-google", "qbox/store.py", "Args: hook:", FLAG),
    ("kind-callable-vs-str-google", "qbox/store.py", "Args: callback:", OK),
    ("kind-callable-vs-str-prose", "docs/guide.md", "The `on_evict` argument", FLAG),
    ("kind-callable-vs-str-prose", "docs/guide.md", "The `on_hit` argument", OK),
    ("kind-class-vs-str-table", "docs/guide.md", "`codec` | the codec class", FLAG),
    ("kind-class-vs-str-table", "docs/guide.md", "`factory` | the codec class", OK),
]


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[Claim, Verdict]]]:
    root = tmp_path_factory.mktemp("s8defaults") / "proj"
    for rel, text in {**PACKAGE, **DOCS}.items():
        write(root, rel, text)
    eng = Engine.open(root)
    try:
        docs = sorted({doc for _, doc, _, _ in CELLS})
        return {doc: review_doc(eng, doc, StaticReviewer()).pairs() for doc in docs}
    finally:
        eng.close()


# Defect cells no check of this owners catches yet: (cell) -> why.
OPEN = {
    "call-missing-required-prose": "a call chained on a constructor in inline prose code is not arity-checked "
                                   "(naming/names.py, outside the defaults/kinds checks)",
    "returns-none-prose": "\"returns None when the key is missing\" for a method annotated `-> Entry` that raises "
                          "KeyError is not refuted (outcomes/, outside the defaults/kinds checks)",
}
PARAMS = [pytest.param(*c, id=f"{c[0]}-{c[3]}", marks=[pytest.mark.xfail(strict=True, reason=OPEN[c[0]])]
                       if c[0] in OPEN and c[3] == FLAG else []) for c in CELLS]


@pytest.mark.parametrize(("cell", "doc", "start", "expect"), PARAMS)
def test_s8_defaults_cell(reviewed: dict[str, list[tuple[Claim, Verdict]]], cell: str, doc: str, start: str,
                          expect: str) -> None:
    v = verdict_starting(reviewed[doc], start)
    flagged = v.verdict in ("contradicted", "incomplete")
    if expect == FLAG:
        assert flagged, (cell, v.verdict, v.rationale)
    else:
        assert not flagged, (cell, v.verdict, v.rationale)
