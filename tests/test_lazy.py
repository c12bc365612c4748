"""caas_tui.lazy: the one home of package re-exports imported on first use."""

from __future__ import annotations

import pytest

from caas_tui.lazy import lazy_exports


def test_a_name_is_imported_on_first_use_and_kept() -> None:
    namespace: dict[str, object] = {}
    getattr_ = lazy_exports("pkg", {"dedent": "textwrap"}, namespace)
    import textwrap

    assert getattr_("dedent") is textwrap.dedent
    assert namespace == {"dedent": textwrap.dedent}  # later lookups find it without the hook


def test_an_unknown_name_is_an_attribute_error_naming_the_package() -> None:
    getattr_ = lazy_exports("pkg", {}, {})
    with pytest.raises(AttributeError, match="'pkg' has no attribute 'nope'"):
        getattr_("nope")


def test_the_packages_resolve_their_lazy_names() -> None:
    import caas_tui.graph as graph
    import caas_tui.live as live

    assert graph.SymbolGraph.__name__ == "SymbolGraph"
    assert callable(live.collect_status)
