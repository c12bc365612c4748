"""``bench/review.py`` scores the static reviewer on sample_project: rows per category plus
``all``, each finding labelled, and the API-surface defects the reviewer is known to flag
(tests/test_static_reviewer_findings.py) counted as detected."""

from __future__ import annotations

import importlib.util
from types import ModuleType

import pytest

from caas_tui.retrieve.evaluate import load_findings
from caas_tui.review import StaticReviewer

from .conftest import REPO, SAMPLE


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_review", REPO / "bench" / "review.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return _bench().evaluate(SAMPLE, StaticReviewer(), tmp_path_factory.mktemp("bench-review-index"))


def test_rows_cover_every_category_and_add_up(result: dict) -> None:
    findings = load_findings(SAMPLE / "FINDINGS.toml")
    rows = {r["category"]: r for r in result["rows"]}
    assert set(rows) == {f.category for f in findings} | {"all"}
    assert result["project"] == "sample_project" and result["reviewer"] == "static"
    for key in ("defects", "correct", "detected", "false_flags", "label_correct"):
        assert rows["all"][key] == sum(r[key] for c, r in rows.items() if c != "all"), key
    assert rows["all"]["defects"] == sum(f.is_defect for f in findings)
    assert rows["all"]["correct"] == sum(not f.is_defect for f in findings)
    assert [e["id"] for e in result["findings"]] == [f.id for f in findings]
    assert all(e["label"] != "no-claim" for e in result["findings"])


def test_known_static_detections_are_counted(result: dict) -> None:
    surface = [e for e in result["findings"] if e["surface"] and e["expected"] != "consistent"]
    assert len(surface) >= 5
    assert [e["id"] for e in surface if e["label"] not in ("contradicted", "incomplete")] == []
    all_row = next(r for r in result["rows"] if r["category"] == "all")
    assert all_row["detected"] >= len(surface)
    assert all_row["false_flags"] == 0  # the sample's correct claims are never flagged
    shares = all_row["defects_consistent"] + all_row["defects_unverified"] + all_row["detected_rate"]
    assert shares <= 1.0 + 1e-9


def test_surface_split_partitions_the_entries(result: dict) -> None:
    split = {r["category"]: r for r in result["by_surface"]}
    all_row = next(r for r in result["rows"] if r["category"] == "all")
    assert set(split) == {"surface", "behaviour"}
    for key in ("defects", "correct", "detected", "false_flags", "label_correct"):
        assert split["surface"][key] + split["behaviour"][key] == all_row[key], key
    surface_defects = [e for e in result["findings"] if e["surface"] and e["expected"] != "consistent"]
    assert split["surface"]["defects"] == len(surface_defects)


def test_execute_merge_keeps_every_static_flag(result: dict, tmp_path_factory: pytest.TempPathFactory) -> None:
    """``--reviewer static+execute`` merges as ``review --execute`` does: a run can add a flag
    (the sample's tutorial has a block whose traceback goes through project code) but never
    hides a static one."""
    from caas_tui.review.execute import ExecuteReviewer

    merged = _bench().evaluate(SAMPLE, StaticReviewer(), tmp_path_factory.mktemp("bench-review-exec"),
                               also=ExecuteReviewer())
    assert merged["reviewer"] == "static+execute"
    flags = ("contradicted", "incomplete")
    static_flagged = {e["id"] for e in result["findings"] if e["label"] in flags}
    merged_flagged = {e["id"] for e in merged["findings"] if e["label"] in flags}
    assert static_flagged <= merged_flagged
    assert merged_flagged - static_flagged, "the sandboxed run adds no detection on the sample"
