"""Baselines (``--write-baseline`` / ``--baseline``) and inline ``caas: ignore`` markers:
accepted findings are reported as suppressed, never dropped, and a new defect still fails."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from caas_tui.cli.main import main
from caas_tui.review.claims import extract_claims
from caas_tui.review.claims.suppress import suppressions
from tests.conftest import write


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    write(root, "pkg/__init__.py", "")
    write(root, "pkg/core.py", "def run(x: int) -> int:\n    return x\n")
    write(root, "docs/old.md", "# Old\n\nCall `pkg.core.walk` to start.\n\nThen call `pkg.core.jog`.\n")
    return root


def review(root: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, list[dict[str, Any]], str]:
    capsys.readouterr()
    code = main(["review", "--root", str(root), "--check", "--format", "json", *extra])
    out = capsys.readouterr()
    return code, [c for line in out.out.splitlines() for c in json.loads(line)["claims"]], out.err


def test_baseline_round_trip_then_a_new_defect_still_fails(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline = tmp_path / "ci" / "caas-baseline.json"
    code, claims, _err = review(project, capsys)
    assert code == 1
    contradicted = sorted(c["id"] for c in claims if c["verdict"] == "contradicted")
    assert len(contradicted) == 2

    assert main(["review", "--root", str(project), "--write-baseline", str(baseline)]) == 0
    first = baseline.read_bytes()
    data = json.loads(first)
    assert data["version"] == 1
    assert sorted(f["id"] for f in data["findings"]) == contradicted
    assert all(f["doc"] == "docs/old.md" and len(f["sha256"]) == 64 for f in data["findings"])
    assert main(["review", "--root", str(project), "--write-baseline", str(baseline)]) == 0
    assert baseline.read_bytes() == first  # stable: same findings, same bytes

    code, claims, err = review(project, capsys, "--baseline", str(baseline))
    assert code == 0
    shown = [c for c in claims if c["verdict"] == "contradicted"]
    assert sorted(c["id"] for c in shown) == contradicted  # still reported ...
    assert all(c["suppressed"] == {"by": "baseline", "reason": "accepted in the baseline"} for c in shown)  # ... as such
    assert "(2 suppressed)" in err

    write(project, "docs/new.md", "# New\n\nCall `pkg.core.sprint` now.\n")
    code, claims, _err = review(project, capsys, "--baseline", str(baseline))
    assert code == 1
    failing = [c for c in claims if c["verdict"] == "contradicted" and "suppressed" not in c]
    assert [c["text"] for c in failing] == ["Call `pkg.core.sprint` now."]
    capsys.readouterr()
    assert main(["review", "--root", str(project), "--check", "--baseline", str(baseline)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 and lines[0].startswith("docs/new.md:3: contradicted: ")

    # editing an accepted claim makes it a new finding again
    write(project, "docs/old.md", "# Old\n\nCall `pkg.core.walk` to begin.\n\nThen call `pkg.core.jog`.\n")
    code, claims, _err = review(project, capsys, "--baseline", str(baseline), "docs/old.md")
    assert code == 1
    assert [c["text"] for c in claims if c["verdict"] == "contradicted" and "suppressed" not in c] == [
        "Call `pkg.core.walk` to begin."]


def test_bad_baseline_file_is_a_one_line_error(project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    capsys.readouterr()
    assert main(["review", "--root", str(project), "--check", "--baseline", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a caas-tui baseline" in err[0]


def test_inline_markers_in_markdown_rst_and_docstrings_suppress_one_claim(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(project, "docs/old.md", "# Old\n\n<!-- caas: ignore legacy name -->\nCall `pkg.core.walk` to start.\n\n"
                                  "Call `pkg.core.jog` to start.\n")
    write(project, "docs/guide.rst", "Guide\n=====\n\n.. caas: ignore\n\nCall ``pkg.core.walk`` to start.\n\n"
                                     "Call ``pkg.core.jog`` to start.\n")
    write(project, "pkg/extra.py", 'def go() -> None:\n    """Go.\n\n    Call `pkg.core.walk` first. caas: ignore known gap\n'
                                   '    """\n\n\n# caas: ignore (a code comment, not a docstring)\ndef two() -> None:\n'
                                   '    """Call `pkg.core.jog` now."""\n')
    code, claims, err = review(project, capsys, "docs/old.md", "docs/guide.rst", "pkg/extra.py")
    assert code == 1
    suppressed = {c["text"]: c["suppressed"] for c in claims if "suppressed" in c}
    assert suppressed == {
        "Call `pkg.core.walk` to start.": {"by": "inline", "reason": "caas: ignore at line 3: legacy name"},
        "Call ``pkg.core.walk`` to start.": {"by": "inline", "reason": "caas: ignore at line 4"},
        "Call `pkg.core.walk` first. caas: ignore known gap": {"by": "inline",
                                                                 "reason": "caas: ignore at line 4: known gap"},
    }
    failing = sorted(c["text"] for c in claims if c["verdict"] == "contradicted" and "suppressed" not in c)
    assert failing == ["Call ``pkg.core.jog`` to start.", "Call `pkg.core.jog` now.", "Call `pkg.core.jog` to start."]
    assert "(3 suppressed)" in err

    # SARIF carries them as in-source suppressions; a written baseline leaves them out
    capsys.readouterr()
    main(["review", "--root", str(project), "--check", "--format", "sarif", "docs/old.md"])
    results = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    assert [r.get("suppressions", [{}])[0].get("kind") for r in results] == ["inSource", None]
    baseline = tmp_path / "b.json"
    main(["review", "--root", str(project), "--write-baseline", str(baseline), "docs/old.md"])
    assert [f["line"] for f in json.loads(baseline.read_text())["findings"]] == [6]


def test_marker_targets_the_containing_or_next_claim() -> None:
    text = "# T\n\nFirst claim here. <!-- caas: ignore -->\n\nSecond claim.\n\n<!-- caas: ignore -->\n\nThird claim.\n"
    claims = extract_claims("docs/t.md", text)
    by_text = {c.text: c.id for c in claims}
    assert set(suppressions("docs/t.md", text, claims)) == {by_text["First claim here."], by_text["Third claim."]}
