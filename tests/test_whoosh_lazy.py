"""Whoosh's English morphology tables load on first use, not with Whoosh (index/whoosh_lazy.py)."""

from __future__ import annotations

import json
import subprocess
import sys


def _run(code: str) -> object:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_searching_never_compiles_the_morphology_tables() -> None:
    got = _run(
        "import json, sys\n"
        "import caas_tui.index.lexical, whoosh.query\n"
        "print(json.dumps(getattr(sys.modules['whoosh.lang.morph_en'], '_caas_stand_in', False)))\n"
    )
    assert got is True


def test_the_stand_in_answers_as_the_real_module() -> None:
    words = ["render", "query", "index", "walking"]
    lazy = _run(
        "import json\n"
        "import caas_tui.index\n"
        "from whoosh.lang.morph_en import variations\n"
        f"print(json.dumps([sorted(variations(w)) for w in {words!r}]))\n"
    )
    real = _run(
        "import json\n"
        "from whoosh.lang.morph_en import variations\n"
        f"print(json.dumps([sorted(variations(w)) for w in {words!r}]))\n"
    )
    assert lazy == real and all(lazy)
