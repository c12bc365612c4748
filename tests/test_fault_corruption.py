"""Fault suite: bytes changed at seeded random offsets of each index file are detected
(one line, then a rebuild) or harmless (the same answers). ``CAAS_SOAK=1``: more seeds."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

from caas_tui.retrieve.engine import Engine

SEEDS = range(12 if os.environ.get("CAAS_SOAK") == "1" else 1)
QUERIES = ["remove body", "scheduler defer", "world", "add_body mass", "deferred removal"]


def _answers(engine: Engine) -> list[list[str]]:
    return [[h.chunk.id for h in engine.search(q, 5, mode=m)] for q in QUERIES for m in ("bm25", "dense")]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[list[str]]]:

    root = tmp_path_factory.mktemp("corrupt") / "proj"
    shutil.copytree(Path(__file__).parent.parent / "sample_project", root)
    engine = Engine.open(root)
    try:
        return root, _answers(engine)
    finally:
        engine.close()


@pytest.mark.parametrize("seed", SEEDS)
def test_random_bytes_in_each_index_file_are_detected_or_harmless(
    built: tuple[Path, list[list[str]]], tmp_path: Path, seed: int
) -> None:
    source, expected = built
    files = sorted(p.relative_to(source) for p in (source / ".caas" / "index").rglob("*")
                   if p.is_file() and p.name != "manifest.json" and not p.name.endswith(("-wal", "-shm")))
    assert files
    for rel in files:
        root = tmp_path / f"{seed}-{rel.name}"
        shutil.copytree(source, root)
        target = root / rel
        data = bytearray(target.read_bytes())
        rng = random.Random(f"{seed}:{rel}")
        if not data:
            continue
        at = rng.randrange(len(data))
        noise = rng.randbytes(min(len(data) - at, rng.choice([1, 16, 4096])))
        data[at : at + len(noise)] = bytes(b ^ 0xFF if b == n else n for b, n in zip(data[at:], noise, strict=False))
        target.write_bytes(bytes(data))
        notices: list[str] = []
        engine = Engine.open(root, notify=notices.append)
        try:
            got = _answers(engine)
        finally:
            engine.close()
        detected = any("rebuilding" in n for n in notices)
        assert detected or got == expected, (rel, at, notices)
        assert got == expected, (rel, at, "rebuilt index answers differently")
