"""``bench/drift_truth.py``: which doc claims mention a breaking change (the drift bench's
ground truth). A removed module is named by its dotted path, a reST link's text is not
code, a parameter that only moved concerns a call, and a callable that became another
kind of callable is no change."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from caas_tui.models import Claim

from .conftest import REPO


def _truth() -> ModuleType:
    spec = importlib.util.spec_from_file_location("drift_truth", REPO / "bench" / "drift_truth.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["drift_truth"] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


T = _truth()


def claim(text: str, symbols: tuple[str, ...] = (), spans: tuple[str, ...] = ()) -> Claim:
    return Claim("c", "docs/x.rst", 1, 1, text, "prose", symbols=symbols, code_spans=spans)


def test_a_removed_module_is_named_by_its_dotted_path() -> None:
    gone = T.Change("Public object was removed", "tornado.platform.epoll", "epoll", None,
                    "<module>: Public object was removed")
    assert T.mentions(claim("uses tornado.platform.epoll", ("tornado.platform.epoll",)), gone)
    assert T.mentions(claim("see platform.epoll", ("platform.epoll",)), gone)
    assert not T.mentions(claim("use epoll;", ("epoll",), ("use epoll;",)), gone)


def test_link_text_is_not_code() -> None:
    gone = T.Change("Public object was removed", "tornado.auth.long", "long", None, "long: Public object was removed")
    linked = claim("ideal for `long polling <http://example.org/lp>`_", spans=("long polling <http://example.org/lp>",))
    assert not T.mentions(linked, gone)
    assert T.mentions(claim("``long`` is gone", spans=("long",)), gone)


def test_a_moved_parameter_concerns_a_call_not_its_name() -> None:
    moved = T.Change("Positional parameter was moved", "pkg.Fmt.__init__", "Fmt", "chain",
                     "Fmt.__init__(chain): Positional parameter was moved")
    named = claim("The `Fmt` has a ``chain`` argument.", ("Fmt",), ("Fmt", "chain"))
    assert not T.mentions(named, moved)
    called = claim("Build one with ``Fmt(proc, chain)``.", ("Fmt",), ("Fmt(proc, chain)",))
    assert T.mentions(called, moved)


def test_a_callable_that_became_another_callable_is_no_change() -> None:
    assert T._not_an_api_change("Public object points to a different kind of object", "format_exc_info",
                                "function", "attribute")
    assert T._not_an_api_change("Public object points to a different kind of object", "create_stream",
                                "function", "class")
    assert not T._not_an_api_change("Public object points to a different kind of object", "tasks", "module",
                                    "attribute")
