"""``review --check --format github|sarif|junit`` on the real sample project, validated:
SARIF against the SARIF 2.1.0 JSON schema, JUnit parsed, GitHub workflow commands matched.
The JSON run of the same project is the oracle for what each format must contain."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from caas_tui.cli.formats.github import MAX_PER_LEVEL, escape_data, escape_property
from caas_tui.cli.main import main
from tests.conftest import SAMPLE, write

SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"
COMMAND = re.compile(
    r"^::(?P<level>error|warning) file=(?P<file>[^,:]+),line=(?P<line>\d+),endLine=(?P<end>\d+),"
    r"title=(?P<title>[^,:]+)::(?P<message>.+)$"
)


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("ci-formats-index")


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def oracle(index_dir: Path) -> list[dict[str, Any]]:
    """Every doc's claims as ``review --check --format json`` reports them."""
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
        code = main(["review", "--root", str(SAMPLE), "--index-dir", str(index_dir), "--check", "--format", "json"])
    assert code == 1  # the sample project has contradicted claims
    return [json.loads(line) for line in buf.getvalue().splitlines()]


def findings(oracle: list[dict[str, Any]], *labels: str) -> list[tuple[str, dict[str, Any]]]:
    return [(d["doc"], c) for d in oracle for c in d["claims"] if c["verdict"] in labels]


def test_sarif_validates_against_the_schema_and_carries_every_finding(
    oracle: list[dict[str, Any]], index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "review.sarif"
    code, stdout, _err = run(["review", "--root", str(SAMPLE), "--index-dir", str(index_dir), "--check",
                              "--format", "sarif", "--output", str(out)], capsys)
    assert code == 1 and stdout == ""
    log = json.loads(out.read_text(encoding="utf-8"))
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    jsonschema.Draft4Validator(schema).validate(log)

    run_ = log["runs"][0]
    rules = run_["tool"]["driver"]["rules"]
    expected = findings(oracle, "contradicted", "incomplete")
    assert expected, "the sample project should have findings"
    results = run_["results"]
    assert len(results) == len(expected)
    by_id = {r["partialFingerprints"]["caasClaimId/v1"]: r for r in results}
    for doc, claim in expected:
        result = by_id[claim["id"]]
        assert result["level"] == ("error" if claim["verdict"] == "contradicted" else "warning")
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["ruleId"].startswith(f"caas/{claim['verdict']}/")
        loc = result["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uri"].endswith(doc)
        assert loc["region"] == {"startLine": claim["line"], "endLine": claim["end_line"]}
        assert result["message"]["text"] == claim["rationale"]
        related = [rl["physicalLocation"]["artifactLocation"]["uri"] for rl in result.get("relatedLocations", [])]
        assert [r.split("/", 1)[-1] if r.startswith("sample_project/") else r for r in related] == [
            e["path"] for e in claim["evidence"]]
        if claim["fix"]:
            replacement = result["fixes"][0]["artifactChanges"][0]["replacements"][0]
            assert replacement["deletedRegion"]["startLine"] == claim["fix"]["start_line"]
            assert replacement["insertedContent"]["text"] == claim["fix"]["replacement"]
        else:
            assert "fixes" not in result
    # one rule per verdict and check kind, each used, ids unique
    assert sorted({r["ruleId"] for r in results}) == [r["id"] for r in rules]
    assert len({r["ruleId"].split("/")[2] for r in results}) > 1  # the sample has several kinds of defect


def test_junit_one_case_per_claim_failures_with_file_and_line(
    oracle: list[dict[str, Any]], index_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, stdout, _err = run(["review", "--root", str(SAMPLE), "--index-dir", str(index_dir), "--check",
                              "--format", "junit"], capsys)
    assert code == 1
    root = ET.fromstring(stdout)
    cases = root.findall("./testsuite/testcase")
    assert len(cases) == sum(len(d["claims"]) for d in oracle)
    assert int(root.get("tests", "-1")) == len(cases)
    failed = [c for c in cases if c.find("failure") is not None]
    contradicted = findings(oracle, "contradicted")
    assert len(failed) == len(contradicted) == int(root.get("failures", "-1"))
    assert sorted((c.get("file"), int(c.get("line", "0"))) for c in failed) == sorted(
        (doc, claim["line"]) for doc, claim in contradicted)
    for case in failed:
        assert case.get("classname") == case.get("file")
        failure = case.find("failure")
        assert failure is not None and failure.get("type", "").startswith("caas/contradicted/")
        assert f"{case.get('file')}:{case.get('line')}-" in (failure.text or "")
    skipped = [c for c in cases if c.find("skipped") is not None]
    assert len(skipped) == len(findings(oracle, "unverified"))
    # --fail-on incomplete turns the incomplete claims into failures too
    code, stdout, _err = run(["review", "--root", str(SAMPLE), "--index-dir", str(index_dir), "--check",
                              "--format", "junit", "--fail-on", "incomplete"], capsys)
    assert code == 1
    root = ET.fromstring(stdout)
    assert int(root.get("failures", "-1")) == len(findings(oracle, "contradicted", "incomplete"))


def test_github_commands_match_the_findings(
    oracle: list[dict[str, Any]], index_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    summary = tmp_path / "step-summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    code, stdout, err = run(["review", "--root", str(SAMPLE), "--index-dir", str(index_dir), "--check",
                             "--format", "github"], capsys)
    assert code == 1
    lines = stdout.splitlines()
    matched = [m for m in map(COMMAND.match, lines) if m]
    contradicted, incomplete = findings(oracle, "contradicted"), findings(oracle, "incomplete")
    errors = [m for m in matched if m["level"] == "error"]
    warnings = [m for m in matched if m["level"] == "warning"]
    assert len(errors) == min(MAX_PER_LEVEL, len(contradicted))
    assert len(warnings) == min(MAX_PER_LEVEL, len(incomplete))
    wanted = {(doc, c["line"], c["end_line"]) for doc, c in contradicted + incomplete}
    for m in matched:
        assert m["file"].startswith("sample_project/") or Path(m["file"]).parts[0] != ".."
        doc = m["file"].removeprefix("sample_project/")
        assert (doc, int(m["line"]), int(m["end"])) in wanted
        assert m["title"].startswith(("contradicted (caas/contradicted/", "incomplete (caas/incomplete/"))
        assert "\n" not in m["message"]
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("## caas-tui review:")
    assert text.count("\n| contradicted") == len(contradicted) and text.count("\n| incomplete") == len(incomplete)
    assert f"{len(contradicted)} contradicted" in err


def test_github_caps_commands_and_summarises_the_rest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "proj"
    write(root, "pkg/__init__.py", "")
    write(root, "pkg/core.py", "def run(x: int) -> int:\n    return x\n")
    wrong = "\n\n".join(f"Call `pkg.core.walk{i}` to start." for i in range(MAX_PER_LEVEL + 3))
    write(root, "docs/many.md", "# Many\n\n" + wrong + "\n")
    code, stdout, _err = run(["review", "--root", str(root), "--check", "--format", "github"], capsys)
    assert code == 1
    lines = stdout.splitlines()
    assert sum(1 for line in lines if COMMAND.match(line)) == MAX_PER_LEVEL
    assert lines[-1].startswith("caas-tui: 3 more contradicted and 0 more incomplete claims not annotated")


def test_exit_codes_fail_on_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "proj"
    write(root, "pkg/__init__.py", "")
    write(root, "pkg/core.py", "def run(x: int) -> int:\n    return x\n")
    write(root, "docs/ok.md", "# Ok\n\nCall `pkg.core.run` to start.\n")
    assert run(["review", "--root", str(root), "--check", "--format", "sarif", "docs/ok.md"], capsys)[0] == 0
    write(root, "docs/bad.md", "# Bad\n\nCall `pkg.core.walk` to start.\n")
    assert run(["review", "--root", str(root), "--check", "--format", "junit", "docs/bad.md"], capsys)[0] == 1
    code, _out, err = run(["review", "--root", str(root), "--check", "--format", "github", "docs/nope.md"], capsys)
    assert code == 2 and err.strip() == "caas-tui: error: docs/nope.md: no such file"
    # plain review (no CI option) still exits 0 with findings; --fail-on makes it gate
    assert run(["review", "--root", str(root), "docs/bad.md"], capsys)[0] == 0
    assert run(["review", "--root", str(root), "--fail-on", "contradicted", "docs/bad.md"], capsys)[0] == 1


def test_workflow_command_escaping() -> None:
    assert escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert escape_property("a,b:c%\n") == "a%2Cb%3Ac%25%0A"
