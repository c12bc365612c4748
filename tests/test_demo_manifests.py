"""Every findings manifest (``sample_project`` and each ``demo_projects/*``) must match its files.

The evaluation corpora are scored against their ``FINDINGS.toml``; a stale line or
span would silently poison the numbers. Each manifest is read with the product's
loader (``caas_tui.retrieve.evaluate.load_findings``) and every entry is checked with
the same rules as ``tests/test_findings_manifest.py``, pointed at that project's root.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

import pytest

from caas_tui.retrieve.evaluate import load_findings

from . import test_findings_manifest as rules
from .conftest import REPO, SAMPLE

ROOTS = [SAMPLE, *sorted(p.parent for p in (REPO / "demo_projects").glob("*/FINDINGS.toml"))]
DEMOS = [r for r in ROOTS if r != SAMPLE]


def _raw(root: Path) -> list[dict]:
    return tomllib.loads((root / "FINDINGS.toml").read_text(encoding="utf-8"))["finding"]


def _cases() -> list[tuple[Path, dict]]:
    return [(root, f) for root in ROOTS for f in _raw(root)]


def test_there_is_a_demo_project_besides_the_sample() -> None:
    assert DEMOS, "no demo_projects/*/FINDINGS.toml found"


@pytest.mark.parametrize("root", ROOTS, ids=[r.name for r in ROOTS])
def test_loader_reads_every_entry(root: Path) -> None:
    loaded = load_findings(root / "FINDINGS.toml")
    raw = _raw(root)
    assert [f.id for f in loaded] == [f["id"] for f in raw]
    assert all(f.evidence for f in loaded)
    dupes = [i for i, c in Counter(f.id for f in loaded).items() if c > 1]
    assert dupes == []


@pytest.mark.parametrize(
    ("root", "finding"), _cases(), ids=[f"{r.name}:{f.get('id', '?')}" for r, f in _cases()]
)
def test_entry_points_at_real_text_and_spans(root: Path, finding: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    # The rules resolve paths against their module's project root; point it at this manifest's project.
    monkeypatch.setattr(rules, "SAMPLE", root)
    assert rules.problems(finding) == []


@pytest.mark.parametrize("root", DEMOS, ids=[r.name for r in DEMOS])
def test_demo_balance(root: Path) -> None:
    findings = load_findings(root / "FINDINGS.toml")
    defects = [f for f in findings if f.is_defect]
    correct = [f for f in findings if not f.is_defect]
    assert len(defects) >= 20
    assert len(correct) >= len(defects)
    assert {f.category for f in defects} == rules.CATEGORIES
    assert all(sum(f.category == c for f in defects) >= 5 for c in rules.CATEGORIES)
    assert any(f.doc.endswith(".py") for f in defects) and any(f.doc.endswith((".md", ".rst")) for f in defects)
    assert any(f.surface for f in correct) and any(not f.surface for f in correct)


@pytest.mark.parametrize("root", DEMOS, ids=[r.name for r in DEMOS])
def test_every_demo_doc_is_covered(root: Path) -> None:
    docs = {str(p.relative_to(root)) for p in (root / "docs").iterdir() if p.suffix in {".md", ".rst"}}
    assert docs <= {f.doc for f in load_findings(root / "FINDINGS.toml")}


def test_rules_catch_a_wrong_line_in_a_demo(monkeypatch: pytest.MonkeyPatch) -> None:
    """The per-project check must be able to fail on a demo manifest too."""
    root = DEMOS[0]
    monkeypatch.setattr(rules, "SAMPLE", root)
    entry = next(f for f in _raw(root) if f["evidence"][0]["path"].endswith(".py"))
    doc_lines = (root / entry["doc"]).read_text(encoding="utf-8").splitlines()
    other_line = next(i for i, text in enumerate(doc_lines, 1) if entry["claim"] not in text)
    moved = {**entry, "line": other_line}
    shifted = {**entry, "evidence": [{**entry["evidence"][0], "end_line": entry["evidence"][0]["end_line"] + 1}]}
    assert rules.problems(entry) == []
    assert rules.problems(moved)
    assert rules.problems(shifted)
