"""Form-coverage matrix for issue 14: calls, defaults and parameter kinds, each in every form a
claim can take (prose with inline code, Markdown code blocks and tables, Google / NumPy /
Sphinx docstring fields, reST roles, module and class docstrings) and in more than one voice.

Every cell is one defect and its correct twin. A defect must be flagged (``contradicted`` or
``incomplete``); its twin must not be. A few true claims that look like defects have no
twin, and one defect that nothing can tie to a parameter must at least not be green. The project (a weather-station client) is written from
the issue's specification, not from any demo project's manifest."""

from __future__ import annotations

import pytest

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.runner import review_doc
from caas_tui.review.static import StaticReviewer

from .conftest import verdict_starting, write

PACKAGE = {
    "wx/__init__.py": '''
        """Weather-station client. Start with :class:`Client`."""
        from wx._client import Client, Units

        __all__ = ["Client", "Units"]
        ''',
    "wx/consts.py": '''
        REFRESH = 0.25
        RETRY_LIMIT = 5
        ''',
    "wx/_client.py": '''
        """The network side of the station client."""
        from __future__ import annotations

        from enum import Enum


        class Units(Enum):
            METRIC = "metric"
            IMPERIAL = "imperial"


        class Client:
            """Talks to one station server.

            The ``port`` defaults to 8080.

            The ``timeout`` defaults to 10 seconds.

            Build it as ``Client(port=80)`` for a local station.

            Or build it as ``Client("wx.local")`` for a local station.

            Requests time out after 10 seconds by default.

            Connects on port 8080 by default.
            """

            def __init__(self, host: str, port: int = 8080, *, timeout: float = 30.0) -> None:
                self.host = host
                self.port = port
                self.timeout = timeout
                self.encoding = "utf-8"
                self.retry_ms = 250
                self.mode = "fast"
                if port == 443:
                    self.mode = "secure"

            @classmethod
            def from_url(cls, url: str) -> Client:
                return cls(url)

            max_stations: int = 16

            def fetch(self, station: str, *, units: Units = Units.METRIC) -> dict[str, float]:
                return {}

            def close(self) -> None:
                self.host = ""


        def convert(value: float, to: Units = Units.METRIC, frm: Units = Units.METRIC) -> float:
            """Convert a reading.

            :param to: defaults to :attr:`Units.IMPERIAL`.
            :param frm: defaults to ``Units.METRIC``.
            """
            return value
        ''',
    "wx/poll.py": '''
        """Polling. :func:`poll` polls every 250 ms by default.

        :func:`poll` gives up after 3 retries by default.
        """
        from dataclasses import dataclass, field

        from wx.consts import REFRESH, RETRY_LIMIT


        def poll(station: str, interval: float = REFRESH, retries: int = RETRY_LIMIT) -> None:
            """Poll a station until it answers.

            :param interval: polls every 500 ms by default.
            :param retries: gives up after 5 retries by default.
            """


        def wait(grace: float = 0.5, settle: float = 0.5) -> None:
            """Wait for the sensors.

            :param grace: waits half a second by default.
            :param settle: waits a quarter of a second by default.
            """


        def backoff(timeout: float = 60 * 5, period: float = 60 * 5, jitter: float = 0.05, spread: float = 0.05) -> float:
            """Delay before the next poll.

            Args:
                timeout (float): gives up after 30 seconds by default.
                period (float): repeats every 5 minutes by default.
                jitter (float): adds 5 % by default.
                spread (float): adds 50 % by default.
            """
            return period


        def rotate(angle: float = 90.0, tilt: float = 90.0) -> None:
            """Turn the vane.

            Parameters
            ----------
            angle : float, optional
                Turn angle, 90 degrees by default.
            tilt : float, optional
                Tilt angle, 45 degrees by default.
            """


        def subscribe(topic: str, callback: object = None, queue: str = "main", channel: str = "main") -> None:
            """Subscribe to a feed.

            :param topic: optional topic filter.
            :param callback: optional; defaults to None.
            :param queue: defaults to None.
            :param channel: defaults to ``"main"``.
            """


        def connect(host: str, port: int = 80) -> None:
            """Open a connection.

            Args:
                host (str): required.
                port (int): required.
            """


        def probe(station: str) -> None:
            """Probe a station.

            >>> probe("KSEA", 2)
            """


        def ping(station: str) -> None:
            """Ping a station.

            >>> ping("KSEA")
            """


        def sweep(every: float = REFRESH, limit: int = RETRY_LIMIT) -> None:
            """Sweep all stations.

            Parameters
            ----------
            every : float, optional
                Sweep period, by default 250 ms.
            limit : int, optional
                Most stations per sweep, by default 3.
            """


        def log(verbose: bool = True, color: bool = False, token: str = "anon", label: str | None = None) -> None:
            """Log a reading.

            Args:
                verbose (bool): off by default.
                color (bool): off by default.
                token: defaults to None.
                label: defaults to None.
            """


        def fetch_all(timeout: float = 10.0, limit: int = 100, ratio: float = 0.5, mode: str = "fast",
                      depth: int = RETRY_LIMIT, delay_ms: int = 250) -> None:
            """Fetch every page.

            Args:
                timeout (float): seconds to wait. Default: 30.
                limit (int): page size. Default is 100.
                ratio (float): share kept (default: 50 %).
                mode (str): speed mode, ``"slow"`` by default.
                depth (int): how deep to go [default: 3].
                delay_ms (int): pause between pages; defaults to a quarter of a second.
            """


        def check(strict: bool = False, quiet: bool = False) -> None:
            """Check the readings.

            Parameters
            ----------
            strict : bool
                Whether to fail hard. Default is ``True``.
            quiet : bool
                Whether to stay silent. Default is ``False``.
            """


        def batch(size: int = 10, count: int = 10) -> None:
            """Batch the readings.

            :param size: batch size (default ``10``).
            :param count: how many batches (default 50).
            """


        @dataclass
        class Settings:
            """Station settings.

            Attributes:
                refresh: refreshes every 250 ms by default.
                retries: retried 3 times by default.
            """

            refresh: float = REFRESH
            retries: int = RETRY_LIMIT
            tags: list[str] = field(default_factory=list)
            window: float = field(default=REFRESH * 4)
            burst: int = field(default=RETRY_LIMIT, repr=False)
        ''',
    "wx/hooks.py": '''
        """Call ``register("h", Handler, 1)`` once per handler."""
        from collections.abc import Callable
        from pathlib import Path


        class Handler:
            """A hook target. Pass it as ``register("h", Handler)``."""


        class User:
            name: str = ""


        def register(handler: str, factory: type[Handler]) -> None:
            """Register a handler.

            >>> def register(a, b, c): ...
            >>> register(1, 2, 3)

            :param handler: the handler class.
            :param factory: the handler class to build.
            """


        def save(dest: int, src: Path) -> None:
            """Save samples.

            Args:
                dest: a path to write to.
                src: path to the input file.
            """


        def watch(hook: str, on_sample: Callable[[float], None]) -> None:
            """Watch a sensor.

            Parameters
            ----------
            hook
                A callable run for every sample.
            on_sample
                A callable run for every sample.
            """


        def grant(user: User, owner_id: int) -> None:
            """Grant access.

            :param user: the user id.
            :param owner_id: the owner's id.
            """


        def route(view: str, target: type[Handler]) -> None:
            """Route a request.

            Args:
                view: the view class.
                target: the target class.
            """


        def locate(station: User, city: str) -> None:
            """Find a station.

            :param station: the station name.
            :param city: the city name.
            """


        def spawn(cls: str, factory: type[Handler], step: int, on_step: Callable[[int], None], where: float, to: Path,
                  who: User, label: str) -> None:
            """Spawn a worker.

            :param cls: class to instantiate.
            :param factory: class to instantiate.
            :param step: a function called per step.
            :param on_step: a function called per step.
            :param where: filesystem path of the log.
            :param to: filesystem path of the log.
            :param who: name of the worker.
            :param label: name of the worker.
            """


        class UserId(int):
            pass


        def lookalikes(url: str = "", cb: Callable[[], None] | None = None, owner: UserId = UserId(0),
                       data: object = None) -> None:
            """Suspicious-looking but true.

            :param url: required, unless ``data`` is given.
            :param cb: optional callback.
            :param owner: the owner id.
            :param data: required when ``url`` is empty.
            """
            if data is None and not url:
                raise ValueError("url or data is required")


        def relay(sink: str, source: Callable[[], bytes], out: int, into: Path) -> None:
            """Relay samples.

            Parameters
            ----------
            sink : callable
                Where samples go.
            source : callable
                Where samples come from.
            out : path-like
                Log file.
            into : path-like
                Log file.
            """


        def notify(recipient: User, sender: User) -> None:
            """Notify someone.

            :param recipient: the recipient.
            :type recipient: int
            :param sender: the sender.
            :type sender: User
            """
        ''',
}

GUIDE = """
    # Station guide

    ## Calls

    Call `wx.poll.poll("KSEA", 0.5, 3, True)` to poll once.

    Call `wx.poll.poll("KSEA", 0.5, 3)` to poll once.

    Register with `wx.hooks.register(factory=Handler)`.

    Register with `wx.hooks.register("h", factory=Handler)`.

    Use `wx.poll.poll("KSEA", every=0.5)` to slow down.

    Use `wx.poll.poll("KSEA", interval=0.5)` to slow down.

    Build one with `wx.Client("wx.local", 8080, 10.0)`.

    Build one with `wx.Client("wx.local", 8080, timeout=10.0)`.

    You can just call `wx.Client(port=80)` and you're good to go!

    You can just call `wx.Client("wx.local")` and you're good to go!

    Pass `wx.Client("wx.local", retries=2)` for flaky links.

    Pass `wx.Client("wx.local", timeout=2)` for flaky links.

    ## Code

    ```python
    from wx import Client
    reading = Client.fetch("KSEA")
    ```

    ```python
    from wx import Client
    reading = Client("wx.local").fetch("KSEA")
    ```

    ```python
    from wx import Client
    client = Client.from_url("http://wx.local")
    client.fetch("KSEA", "imperial")
    ```

    ```python
    from wx import Client
    client = Client.from_url("http://wx.local")
    client.fetch("KSEA", units="imperial")
    ```

    ```python
    from wx.poll import Settings
    settings = Settings(0.5, 3, [], "extra")
    ```

    ```python
    from wx.poll import Settings
    settings = Settings(0.5, 3, [])
    ```

    ```python
    from wx.poll import Settings
    settings = Settings(refresh_ms=500)
    ```

    ```python
    from wx.poll import Settings
    settings = Settings(refresh=0.5)
    ```

    ```python
    import wx
    client = wx.Client()
    ```

    ```python
    import wx
    client = wx.Client("wx.local", port=9000)
    ```

    ## Defaults

    The `interval` of `wx.poll.poll` defaults to 500 ms.

    The `interval` of `wx.poll.poll` defaults to 250 ms.

    By default `wx.poll.poll` retries 3 times before giving up.

    By default `wx.poll.poll` retries 5 times before giving up.

    The `timeout` of `wx.poll.backoff` defaults to 30 seconds.

    The `period` of `wx.poll.backoff` defaults to 5 minutes.

    The `units` of `wx.Client.fetch` defaults to `Units.IMPERIAL`.

    The `units` of `wx.Client.fetch` defaults to `Units.METRIC`.

    `Settings.refresh` defaults to 500 ms.

    `Settings.retries` defaults to 5.

    `Settings.window` defaults to 2 seconds.

    `Settings.burst` defaults to 5.

    The `tilt` of `wx.poll.rotate` defaults to half a turn of 45 degrees.

    The `angle` of `wx.poll.rotate` defaults to 90 degrees.

    The `jitter` of `wx.poll.backoff` defaults to 50 %.

    The `spread` of `wx.poll.backoff` defaults to 5 %.

    The `callback` of `wx.poll.subscribe` is required.

    The `topic` of `wx.poll.subscribe` is required.

    The `queue` of `wx.poll.subscribe` defaults to None.

    The `callback` of `wx.poll.subscribe` defaults to None.

    ## Kinds

    The `handler` argument of `wx.hooks.register` is the handler class.

    The `factory` argument of `wx.hooks.register` is the handler class.

    The `hook` argument of `wx.hooks.watch` is a callable.

    The `on_sample` argument of `wx.hooks.watch` is a callable.

    The `dest` argument of `wx.hooks.save` is a path.

    The `src` argument of `wx.hooks.save` is a path.

    The `user` argument of `wx.hooks.grant` is the user id.

    The `owner_id` argument of `wx.hooks.grant` is the owner's id.

    If you leave `settle` out, `wx.poll.wait` waits two seconds.

    If you leave `grace` out, `wx.poll.wait` waits half a second.

    Create settings with `Settings(refresh=0.5, retry=2)`.

    Create settings with `Settings(refresh=0.5, retries=2)`.

    The `depth` of `wx.poll.fetch_all` defaults to `wx.consts.REFRESH`.

    The `depth` of `wx.poll.fetch_all` defaults to `wx.consts.RETRY_LIMIT`.

    Save with `wx.hooks.save(dest=1)` in a pinch.

    Save with `wx.hooks.save(dest=1, src=here)` in a pinch.

    Open it with `Client.from_url(url, timeout=3)` instead.

    Open it with `Client.from_url(url)` instead.

    ```python
    from wx.poll import poll as p
    p("KSEA", timeout=3)
    ```

    ```python
    from wx.poll import poll as p
    opts = {"interval": 1.0}
    p("KSEA", **opts)
    ```

    ```python
    from wx import Client
    Client("wx.local").close(True)
    ```

    ```python
    from wx import Client
    Client("wx.local").close()
    ```

    ## The `wx.Client` class

    By default the client gives up on a request after 10 seconds.

    By default the client connects on port 8080.

    `wx.Client.max_stations` defaults to 8.

    `wx.Client.max_stations` is 16 by default.

    `Client.encoding` defaults to `"latin-1"`.

    `Client.encoding` defaults to `"utf-8"`.

    `Client.retry_ms` defaults to half a second.

    `Client.timeout` defaults to 10 seconds.

    `Client.port` defaults to 8080.

    `Client.mode` defaults to `"secure"`.

    `Client.retry_ms` defaults to a quarter of a second.

    ## `wx.poll.fetch_all` settings

    | name | type | default | description |
    |---|---|---|---|
    | `timeout` | `float` | `30` | seconds to wait |
    | `limit` | `int` | `100` | page size |

    ## `wx.hooks.register` parameters

    | parameter | description |
    |---|---|
    | `handler` | the handler class |
    | `factory` | the handler class |

    ## `wx.poll.poll` options

    | parameter | default |
    |---|---|
    | `interval` | 500 ms |
    | `retries` | 5 |

    ## `wx.poll.backoff` options

    | parameter | default |
    |---|---|
    | `timeout` | 30 seconds |
    | `jitter` | 5 % |
    """

API = """
    API
    ===

    :func:`wx.poll.poll` polls every 500 ms by default.

    :func:`wx.poll.poll` gives up after 5 retries by default.

    :class:`wx.Client` is built as ``Client("wx.local", 8080, 3.0)``.

    :class:`wx.Client` is built as ``Client("wx.local", 8080, timeout=3.0)``.

    :func:`wx.hooks.register` takes ``handler``, the handler class.

    :func:`wx.hooks.register` takes ``factory``, the handler class.

    :meth:`wx.Client.fetch` is called as ``fetch("KSEA", "metric")``.

    :meth:`wx.Client.fetch` is called as ``fetch("KSEA", units=Units.METRIC)``.

    :func:`wx.hooks.grant` is called as ``grant(user)``.

    :func:`wx.hooks.save` is called as ``save(1, path)``.
    """

DOCS = {"docs/guide.md": GUIDE, "docs/api.rst": API}

FLAG = "flag"
OK = "ok"
# A defect no check can tie to a parameter without guessing: it must not be labelled green.
NOT_GREEN = "not-green"

# (cell, doc, claim start, expectation). Each cell lists its defect first, then its twin.
CELLS: list[tuple[str, str, str, str]] = [
    # -- calls: prose with inline code ---------------------------------------------------
    ("call-too-many-prose", "docs/guide.md", 'Call `wx.poll.poll("KSEA", 0.5, 3, True)`', FLAG),
    ("call-too-many-prose", "docs/guide.md", 'Call `wx.poll.poll("KSEA", 0.5, 3)`', OK),
    ("call-missing-required-prose", "docs/guide.md", "Register with `wx.hooks.register(factory", FLAG),
    ("call-missing-required-prose", "docs/guide.md", 'Register with `wx.hooks.register("h"', OK),
    ("call-unknown-kw-prose", "docs/guide.md", 'Use `wx.poll.poll("KSEA", every', FLAG),
    ("call-unknown-kw-prose", "docs/guide.md", 'Use `wx.poll.poll("KSEA", interval', OK),
    ("call-kwonly-positional-reexport", "docs/guide.md", 'Build one with `wx.Client("wx.local", 8080, 10.0)`', FLAG),
    ("call-kwonly-positional-reexport", "docs/guide.md", 'Build one with `wx.Client("wx.local", 8080, timeout', OK),
    ("call-too-few-chatty", "docs/guide.md", "You can just call `wx.Client(port=80)`", FLAG),
    ("call-too-few-chatty", "docs/guide.md", 'You can just call `wx.Client("wx.local")`', OK),
    ("call-unknown-kw-reexport", "docs/guide.md", 'Pass `wx.Client("wx.local", retries', FLAG),
    ("call-unknown-kw-reexport", "docs/guide.md", 'Pass `wx.Client("wx.local", timeout', OK),
    # -- calls: code blocks ----------------------------------------------------------------
    ("call-method-on-class-block", "docs/guide.md", 'from wx import Client\nreading = Client.fetch("KSEA")', FLAG),
    ("call-method-on-class-block", "docs/guide.md", 'from wx import Client\nreading = Client("wx.local")', OK),
    ("call-kwonly-positional-block", "docs/guide.md",
     'from wx import Client\nclient = Client.from_url("http://wx.local")\nclient.fetch("KSEA", "imperial")', FLAG),
    ("call-kwonly-positional-block", "docs/guide.md",
     'from wx import Client\nclient = Client.from_url("http://wx.local")\nclient.fetch("KSEA", units', OK),
    ("ctor-too-many-dataclass-block", "docs/guide.md", 'from wx.poll import Settings\nsettings = Settings(0.5, 3, [], "', FLAG),
    ("ctor-too-many-dataclass-block", "docs/guide.md", "from wx.poll import Settings\nsettings = Settings(0.5, 3, [])", OK),
    ("ctor-unknown-kw-dataclass-block", "docs/guide.md", "from wx.poll import Settings\nsettings = Settings(refresh_ms", FLAG),
    ("ctor-unknown-kw-dataclass-block", "docs/guide.md", "from wx.poll import Settings\nsettings = Settings(refresh=", OK),
    ("ctor-too-few-reexport-block", "docs/guide.md", "import wx\nclient = wx.Client()", FLAG),
    ("ctor-too-few-reexport-block", "docs/guide.md", 'import wx\nclient = wx.Client("wx.local", port', OK),
    # -- calls: reST roles and module docstrings ----------------------------------------------
    ("call-kwonly-positional-rest", "docs/api.rst", ':class:`wx.Client` is built as ``Client("wx.local", 8080, 3.0)``', FLAG),
    ("call-kwonly-positional-rest", "docs/api.rst", ':class:`wx.Client` is built as ``Client("wx.local", 8080, timeout', OK),
    ("call-kwonly-method-rest", "docs/api.rst", ':meth:`wx.Client.fetch` is called as ``fetch("KSEA", "metric")``', FLAG),
    ("call-kwonly-method-rest", "docs/api.rst", ':meth:`wx.Client.fetch` is called as ``fetch("KSEA", units', OK),
    ("call-too-many-module-doc", "wx/hooks.py", "Call ``register(", FLAG),
    ("call-too-many-module-doc", "wx/hooks.py", "Pass it as ``register(", OK),
    # -- defaults: prose ----------------------------------------------------------------------
    ("default-ms-constant-prose", "docs/guide.md", "The `interval` of `wx.poll.poll` defaults to 500 ms", FLAG),
    ("default-ms-constant-prose", "docs/guide.md", "The `interval` of `wx.poll.poll` defaults to 250 ms", OK),
    ("default-count-constant-chatty", "docs/guide.md", "By default `wx.poll.poll` retries 3 times", FLAG),
    ("default-count-constant-chatty", "docs/guide.md", "By default `wx.poll.poll` retries 5 times", OK),
    ("default-seconds-expression-prose", "docs/guide.md", "The `timeout` of `wx.poll.backoff` defaults to 30 seconds", FLAG),
    ("default-seconds-expression-prose", "docs/guide.md", "The `period` of `wx.poll.backoff` defaults to 5 minutes", OK),
    ("default-enum-prose", "docs/guide.md", "The `units` of `wx.Client.fetch` defaults to `Units.IMPERIAL`", FLAG),
    ("default-enum-prose", "docs/guide.md", "The `units` of `wx.Client.fetch` defaults to `Units.METRIC`", OK),
    ("default-dataclass-field-prose", "docs/guide.md", "`Settings.refresh` defaults to 500 ms", FLAG),
    ("default-dataclass-field-prose", "docs/guide.md", "`Settings.retries` defaults to 5", OK),
    ("default-dataclass-field-call-prose", "docs/guide.md", "`Settings.window` defaults to 2 seconds", FLAG),
    ("default-dataclass-field-call-prose", "docs/guide.md", "`Settings.burst` defaults to 5", OK),
    ("default-degrees-prose", "docs/guide.md", "The `tilt` of `wx.poll.rotate` defaults to", FLAG),
    ("default-degrees-prose", "docs/guide.md", "The `angle` of `wx.poll.rotate` defaults to 90 degrees", OK),
    ("default-percent-prose", "docs/guide.md", "The `jitter` of `wx.poll.backoff` defaults to 50 %", FLAG),
    ("default-percent-prose", "docs/guide.md", "The `spread` of `wx.poll.backoff` defaults to 5 %", OK),
    ("default-required-prose", "docs/guide.md", "The `callback` of `wx.poll.subscribe` is required", FLAG),
    ("default-required-prose", "docs/guide.md", "The `topic` of `wx.poll.subscribe` is required", OK),
    ("default-none-prose", "docs/guide.md", "The `queue` of `wx.poll.subscribe` defaults to None", FLAG),
    ("default-none-prose", "docs/guide.md", "The `callback` of `wx.poll.subscribe` defaults to None", OK),
    # -- defaults: Markdown tables ---------------------------------------------------------------
    ("default-ms-constant-table", "docs/guide.md", "`interval` | 500 ms", FLAG),
    ("default-ms-constant-table", "docs/guide.md", "`retries` | 5", OK),
    ("default-seconds-expression-table", "docs/guide.md", "`timeout` | 30 seconds", FLAG),
    ("default-seconds-expression-table", "docs/guide.md", "`jitter` | 5 %", OK),
    # -- defaults: reST roles and module / class docstrings ---------------------------------------
    ("default-ms-constant-rest", "docs/api.rst", ":func:`wx.poll.poll` polls every 500 ms", FLAG),
    ("default-ms-constant-rest", "docs/api.rst", ":func:`wx.poll.poll` gives up after 5 retries", OK),
    ("default-module-docstring", "wx/poll.py", ":func:`poll` gives up after 3 retries", FLAG),
    ("default-module-docstring", "wx/poll.py", ":func:`poll` polls every 250 ms", OK),
    ("default-seconds-class-docstring", "wx/_client.py", "The ``timeout`` defaults to 10 seconds", FLAG),
    ("default-seconds-class-docstring", "wx/_client.py", "The ``port`` defaults to 8080", OK),
    # -- defaults: docstring fields --------------------------------------------------------------
    ("default-ms-constant-sphinx", "wx/poll.py", ":param interval: polls every 500 ms", FLAG),
    ("default-ms-constant-sphinx", "wx/poll.py", ":param retries: gives up after 5 retries", OK),
    ("default-words-sphinx", "wx/poll.py", ":param settle: waits a quarter of a second", FLAG),
    ("default-words-sphinx", "wx/poll.py", ":param grace: waits half a second", OK),
    ("default-seconds-expression-google", "wx/poll.py", "Args: timeout (float): gives up", FLAG),
    ("default-seconds-expression-google", "wx/poll.py", "Args: period (float):", OK),
    ("default-percent-google", "wx/poll.py", "Args: spread (float):", FLAG),
    ("default-percent-google", "wx/poll.py", "Args: jitter (float):", OK),
    ("default-degrees-numpy", "wx/poll.py", "Parameters: tilt", FLAG),
    ("default-degrees-numpy", "wx/poll.py", "Parameters: angle", OK),
    ("default-optional-sphinx", "wx/poll.py", ":param topic: optional", FLAG),
    ("default-optional-sphinx", "wx/poll.py", ":param callback: optional", OK),
    ("default-none-sphinx", "wx/poll.py", ":param queue: defaults to None", FLAG),
    ("default-none-sphinx", "wx/poll.py", ":param channel: defaults to", OK),
    ("default-required-google", "wx/poll.py", "Args: port (int): required", FLAG),
    ("default-required-google", "wx/poll.py", "Args: host (str): required", OK),
    ("default-dataclass-attributes", "wx/poll.py", "Attributes: retries", FLAG),
    ("default-dataclass-attributes", "wx/poll.py", "Attributes: refresh", OK),
    ("call-too-few-class-docstring", "wx/_client.py", "Build it as ``Client(port=80)``", FLAG),
    ("call-too-few-class-docstring", "wx/_client.py", "Or build it as ``Client(", OK),
    ("call-too-many-doctest", "wx/poll.py", '>>> probe("KSEA", 2)', FLAG),
    ("call-too-many-doctest", "wx/poll.py", '>>> ping("KSEA")', OK),
    ("call-too-few-rest", "docs/api.rst", ":func:`wx.hooks.grant` is called as", FLAG),
    ("call-too-few-rest", "docs/api.rst", ":func:`wx.hooks.save` is called as", OK),
    ("ctor-unknown-kw-prose", "docs/guide.md", "Create settings with `Settings(refresh=0.5, retry=", FLAG),
    ("ctor-unknown-kw-prose", "docs/guide.md", "Create settings with `Settings(refresh=0.5, retries=", OK),
    ("default-seconds-chatty", "docs/guide.md", "If you leave `settle` out", FLAG),
    ("default-seconds-chatty", "docs/guide.md", "If you leave `grace` out", OK),
    ("default-count-constant-numpy", "wx/poll.py", "Parameters: limit", FLAG),
    ("default-count-constant-numpy", "wx/poll.py", "Parameters: every", OK),
    ("default-bool-words-google", "wx/poll.py", "Args: verbose (bool):", FLAG),
    ("default-bool-words-google", "wx/poll.py", "Args: color (bool):", OK),
    ("default-none-google", "wx/poll.py", "Args: token:", FLAG),
    ("default-none-google", "wx/poll.py", "Args: label:", OK),
    ("default-enum-sphinx-role", "wx/_client.py", ":param to:", FLAG),
    ("default-enum-sphinx-role", "wx/_client.py", ":param frm:", OK),
    # -- wording variants -------------------------------------------------------------------------
    ("default-colon-google", "wx/poll.py", "Args: timeout (float): seconds to wait. Default: 30", FLAG),
    ("default-colon-google", "wx/poll.py", "Args: limit (int):", OK),
    ("default-code-literal-google", "wx/poll.py", "Args: mode (str):", FLAG),
    ("default-code-literal-google", "wx/poll.py", "Args: ratio (float):", OK),
    ("default-bracket-google", "wx/poll.py", "Args: depth (int):", FLAG),
    ("default-bracket-google", "wx/poll.py", "Args: delay_ms (int):", OK),
    ("default-bool-numpy", "wx/poll.py", "Parameters: strict", FLAG),
    ("default-bool-numpy", "wx/poll.py", "Parameters: quiet", OK),
    ("default-parenthesis-sphinx", "wx/poll.py", ":param count:", FLAG),
    ("default-parenthesis-sphinx", "wx/poll.py", ":param size:", OK),
    ("default-constant-name-prose", "docs/guide.md", "The `depth` of `wx.poll.fetch_all` defaults to `wx.consts.REFRESH`", FLAG),
    ("default-constant-name-prose", "docs/guide.md", "The `depth` of `wx.poll.fetch_all` defaults to `wx.consts.RETRY", OK),
    ("default-wide-table", "docs/guide.md", "`timeout` | `float` | `30`", FLAG),
    ("default-wide-table", "docs/guide.md", "`limit` | `int` | `100`", OK),
    ("call-missing-required-kw-prose", "docs/guide.md", "Save with `wx.hooks.save(dest=1)`", FLAG),
    ("call-missing-required-kw-prose", "docs/guide.md", "Save with `wx.hooks.save(dest=1, src", OK),
    ("call-unknown-kw-classmethod-prose", "docs/guide.md", "Open it with `Client.from_url(url, timeout", FLAG),
    ("call-unknown-kw-classmethod-prose", "docs/guide.md", "Open it with `Client.from_url(url)`", OK),
    ("call-unknown-kw-alias-block", "docs/guide.md", 'from wx.poll import poll as p\np("KSEA", timeout', FLAG),
    ("call-unknown-kw-alias-block", "docs/guide.md", "from wx.poll import poll as p\nopts", OK),
    ("call-too-many-chained-block", "docs/guide.md", 'from wx import Client\nClient("wx.local").close(True)', FLAG),
    ("call-too-many-chained-block", "docs/guide.md", 'from wx import Client\nClient("wx.local").close()', OK),
    ("kind-class-headless-sphinx", "wx/hooks.py", ":param cls:", FLAG),
    ("kind-class-headless-sphinx", "wx/hooks.py", ":param factory: class to instantiate", OK),
    ("kind-function-vs-int-sphinx", "wx/hooks.py", ":param step:", FLAG),
    ("kind-function-vs-int-sphinx", "wx/hooks.py", ":param on_step:", OK),
    ("kind-path-vs-float-sphinx", "wx/hooks.py", ":param where:", FLAG),
    ("kind-path-vs-float-sphinx", "wx/hooks.py", ":param to:", OK),
    ("kind-name-of-vs-class-sphinx", "wx/hooks.py", ":param who:", FLAG),
    ("kind-name-of-vs-class-sphinx", "wx/hooks.py", ":param label:", OK),
    ("default-words-class-docstring", "wx/_client.py", "Requests time out after 10 seconds", FLAG),
    ("default-words-class-docstring", "wx/_client.py", "Connects on port 8080", OK),
    # "gives up after" shares no word with ``timeout`` and nothing documents it: left unverified, not guessed.
    ("default-words-section-prose", "docs/guide.md", "By default the client gives up", NOT_GREEN),
    ("default-words-section-prose", "docs/guide.md", "By default the client connects", OK),
    ("default-class-attribute-prose", "docs/guide.md", "`wx.Client.max_stations` defaults to 8", FLAG),
    ("default-class-attribute-prose", "docs/guide.md", "`wx.Client.max_stations` is 16 by default", OK),
    ("default-init-attribute-prose", "docs/guide.md", "`Client.encoding` defaults to `\"latin-1\"`", FLAG),
    ("default-init-attribute-prose", "docs/guide.md", "`Client.encoding` defaults to `\"utf-8\"`", OK),
    ("default-init-attribute-ms-prose", "docs/guide.md", "`Client.retry_ms` defaults to half", FLAG),
    ("default-init-attribute-ms-prose", "docs/guide.md", "`Client.retry_ms` defaults to a quarter", OK),
    ("default-init-param-attribute-prose", "docs/guide.md", "`Client.timeout` defaults to 10 seconds", FLAG),
    ("default-init-param-attribute-prose", "docs/guide.md", "`Client.port` defaults to 8080", OK),
    # -- precision: true claims that look like defects (no defect twin) ---------------------------
    ("precise-attribute-set-twice", "docs/guide.md", "`Client.mode` defaults to", OK),
    ("precise-required-unless", "wx/hooks.py", ":param url: required, unless", OK),
    ("precise-optional-none", "wx/hooks.py", ":param cb: optional callback", OK),
    ("precise-id-class", "wx/hooks.py", ":param owner: the owner id", OK),
    ("precise-required-when", "wx/hooks.py", ":param data: required when", OK),
    ("precise-doctest-local", "wx/hooks.py", ">>> def register(a, b, c): ...", OK),
    ("type-callable-vs-str-numpy", "wx/hooks.py", "Parameters: sink", FLAG),
    ("type-callable-vs-str-numpy", "wx/hooks.py", "Parameters: source", OK),
    ("type-pathlike-vs-int-numpy", "wx/hooks.py", "Parameters: out", FLAG),
    ("type-pathlike-vs-int-numpy", "wx/hooks.py", "Parameters: into", OK),
    # -- parameter kinds ----------------------------------------------------------------------------
    ("kind-class-vs-str-sphinx", "wx/hooks.py", ":param handler: the handler class", FLAG),
    ("kind-class-vs-str-sphinx", "wx/hooks.py", ":param factory: the handler class", OK),
    ("kind-path-vs-int-google", "wx/hooks.py", "Args: dest:", FLAG),
    ("kind-path-vs-int-google", "wx/hooks.py", "Args: src:", OK),
    ("kind-callable-vs-str-numpy", "wx/hooks.py", "Parameters: hook", FLAG),
    ("kind-callable-vs-str-numpy", "wx/hooks.py", "Parameters: on_sample", OK),
    ("kind-id-vs-class-sphinx", "wx/hooks.py", ":param user: the user id", FLAG),
    ("kind-id-vs-class-sphinx", "wx/hooks.py", ":param owner_id: the owner's id", OK),
    ("type-vs-class-sphinx", "wx/hooks.py", ":type recipient: int", FLAG),
    ("type-vs-class-sphinx", "wx/hooks.py", ":type sender: User", OK),
    ("kind-class-vs-str-prose", "docs/guide.md", "The `handler` argument of `wx.hooks.register` is", FLAG),
    ("kind-class-vs-str-prose", "docs/guide.md", "The `factory` argument of `wx.hooks.register` is", OK),
    ("kind-callable-vs-str-prose", "docs/guide.md", "The `hook` argument of `wx.hooks.watch` is", FLAG),
    ("kind-callable-vs-str-prose", "docs/guide.md", "The `on_sample` argument of `wx.hooks.watch` is", OK),
    ("kind-path-vs-int-prose", "docs/guide.md", "The `dest` argument of `wx.hooks.save` is", FLAG),
    ("kind-path-vs-int-prose", "docs/guide.md", "The `src` argument of `wx.hooks.save` is", OK),
    ("kind-id-vs-class-prose", "docs/guide.md", "The `user` argument of `wx.hooks.grant` is", FLAG),
    ("kind-id-vs-class-prose", "docs/guide.md", "The `owner_id` argument of `wx.hooks.grant` is", OK),
    ("kind-class-vs-str-rest", "docs/api.rst", ":func:`wx.hooks.register` takes ``handler``", FLAG),
    ("kind-class-vs-str-rest", "docs/api.rst", ":func:`wx.hooks.register` takes ``factory``", OK),
    ("kind-class-vs-str-google", "wx/hooks.py", "Args: view:", FLAG),
    ("kind-class-vs-str-google", "wx/hooks.py", "Args: target:", OK),
    ("kind-name-vs-class-sphinx", "wx/hooks.py", ":param station: the station name", FLAG),
    ("kind-name-vs-class-sphinx", "wx/hooks.py", ":param city: the city name", OK),
    ("kind-class-vs-str-table", "docs/guide.md", "`handler` | the handler class", FLAG),
    ("kind-class-vs-str-table", "docs/guide.md", "`factory` | the handler class", OK),
]


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[Claim, Verdict]]]:
    root = tmp_path_factory.mktemp("matrix") / "proj"
    for rel, text in {**PACKAGE, **DOCS}.items():
        write(root, rel, text)
    eng = Engine.open(root)
    try:
        docs = sorted({doc for _, doc, _, _ in CELLS})
        return {doc: review_doc(eng, doc, StaticReviewer()).pairs() for doc in docs}
    finally:
        eng.close()


@pytest.mark.parametrize(("cell", "doc", "start", "expect"), CELLS, ids=[f"{c[0]}-{c[3]}" for c in CELLS])
def test_matrix_cell(reviewed: dict[str, list[tuple[Claim, Verdict]]], cell: str, doc: str, start: str,
                     expect: str) -> None:
    v = verdict_starting(reviewed[doc], start)
    flagged = v.verdict in ("contradicted", "incomplete")
    if expect == FLAG:
        assert flagged, (cell, v.verdict, v.rationale)
    elif expect == NOT_GREEN:
        assert v.verdict != "consistent", (cell, v.verdict, v.rationale)
    else:
        assert not flagged, (cell, v.verdict, v.rationale)
