"""``lazy.import_uncollected``: a module imported on first use is made without collector passes,
and the caller's collector is left as it was (issue 20)."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import pytest

from caas_tui.lazy import import_uncollected


@pytest.mark.parametrize("enabled", [True, False])
def test_the_import_runs_uncollected_and_the_state_is_restored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               enabled: bool) -> None:
    name = f"caas_s10_probe_{int(enabled)}"
    (tmp_path / f"{name}.py").write_text("import gc\nCOLLECTING = gc.isenabled()\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        module = import_uncollected(name)
        assert module.COLLECTING is False
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
        sys.modules.pop(name, None)


def test_a_failing_import_restores_the_collector(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "caas_s10_broken.py").write_text("raise ValueError('broken')\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert gc.isenabled()
    with pytest.raises(ValueError, match="broken"):
        import_uncollected("caas_s10_broken")
    assert gc.isenabled()
    sys.modules.pop("caas_s10_broken", None)
