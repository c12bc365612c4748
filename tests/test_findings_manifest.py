"""The ground-truth manifest of the xrkit demo project must match the files it points at.

``sample_project/FINDINGS.toml`` lists the documentation defects planted in
the demo SDK and a set of correct claims, each with the evidence that decides
it. Benchmarks score caas-tui against this manifest, so a stale line number
or span would silently poison them; this test pins every reference.
"""

from __future__ import annotations

import ast
import copy
import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest

SAMPLE = Path(__file__).resolve().parents[1] / "sample_project"
MANIFEST = SAMPLE / "FINDINGS.toml"

VERDICTS = {"contradicted", "incomplete", "consistent"}
CATEGORIES = {"single-file", "cross-file", "cross-system"}
KEYS = {"id", "doc", "line", "claim", "verdict", "category", "surface", "query", "note", "evidence"}
EVIDENCE_KEYS = {"path", "symbol", "start_line", "end_line"}
RST_ADORNMENT = set("=-~^\"'`#*+.:_")


def load_findings() -> list[dict]:
    return tomllib.loads(MANIFEST.read_text(encoding="utf-8"))["finding"]


FINDINGS = load_findings()


# -- python evidence --------------------------------------------------------
def module_name(rel: str) -> str:
    parts = list(Path(rel).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _named(node: ast.AST, name: str) -> bool:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name == name
    if isinstance(node, ast.Assign):
        return any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
    if isinstance(node, ast.AnnAssign):
        return isinstance(node.target, ast.Name) and node.target.id == name
    return False


def python_span(rel: str, symbol: str) -> tuple[int, int]:
    """(first line incl. decorators, last line) of the def/class/assignment named by ``symbol``."""
    module = module_name(rel)
    if not symbol.startswith(module + "."):
        raise AssertionError(f"symbol {symbol!r} is not inside module {module!r} ({rel})")
    body = ast.parse((SAMPLE / rel).read_text(encoding="utf-8")).body
    node: ast.AST | None = None
    for name in symbol[len(module) + 1 :].split("."):
        matches = [n for n in body if _named(n, name)]
        if not matches:
            raise AssertionError(f"{symbol!r}: no definition of {name!r} in {rel}")
        node = matches[-1]  # the binding that wins at import time
        body = getattr(node, "body", [])
    assert node is not None
    start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    return start, node.end_lineno


def docstring_spans(rel: str) -> list[tuple[int, int]]:
    tree = ast.parse((SAMPLE / rel).read_text(encoding="utf-8"))
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            first = body[0] if body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                spans.append((first.lineno, first.end_lineno))
    return spans


# -- document evidence ------------------------------------------------------
def headings(rel: str) -> list[tuple[int, int, str, int]]:
    """(title line, level, title, section boundary line) for each heading of a .md or .rst file."""
    lines = (SAMPLE / rel).read_text(encoding="utf-8").splitlines()
    found = []
    if rel.endswith(".rst"):
        styles: list[tuple[str, bool]] = []
        for i in range(len(lines) - 1):
            title, under = lines[i], lines[i + 1]
            if not title.strip() or title[0].isspace() or set(title.strip()) <= RST_ADORNMENT:
                continue
            if len(set(under)) == 1 and set(under) <= RST_ADORNMENT and len(under) >= len(title.rstrip()):
                over = i > 0 and lines[i - 1] == under
                style = (under[0], over)
                if style not in styles:
                    styles.append(style)
                found.append((i + 1, styles.index(style) + 1, title.strip(), i if over else i + 1))
        return found
    fenced = False
    for i, line in enumerate(lines, 1):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if m and not fenced:
            found.append((i, len(m.group(1)), m.group(2), i))
    return found


def section_span(rel: str, heading_path: str) -> tuple[int, int]:
    """(heading line, last non-blank line of the section) for ``"Title > Sub > Subsub"``."""
    lines = (SAMPLE / rel).read_text(encoding="utf-8").splitlines()
    hs = headings(rel)
    stack: list[tuple[int, str]] = []
    for k, (line, level, title, _) in enumerate(hs):
        stack = [s for s in stack if s[0] < level] + [(level, title)]
        if " > ".join(t for _, t in stack) != heading_path:
            continue
        boundary = next((b for (_, lv, _, b) in hs[k + 1 :] if lv <= level), len(lines) + 1)
        end = boundary - 1
        while end > line and not lines[end - 1].strip():
            end -= 1
        return line, end
    raise AssertionError(f"no heading path {heading_path!r} in {rel}")


# -- the checks -------------------------------------------------------------
def problems(finding: dict) -> list[str]:
    """Everything wrong with one manifest entry (empty list = valid)."""
    errs: list[str] = []
    fid = finding.get("id", "?")
    if set(finding) != KEYS:
        errs.append(f"{fid}: keys {sorted(set(finding) ^ KEYS)} missing or unexpected")
        return errs
    if finding["verdict"] not in VERDICTS:
        errs.append(f"{fid}: bad verdict {finding['verdict']!r}")
    if finding["category"] not in CATEGORIES:
        errs.append(f"{fid}: bad category {finding['category']!r}")
    if not isinstance(finding["surface"], bool):
        errs.append(f"{fid}: surface must be a bool")
    for key in ("query", "note", "claim"):
        if not isinstance(finding[key], str) or not finding[key].strip():
            errs.append(f"{fid}: {key} must be a non-empty string")
    doc = SAMPLE / finding["doc"]
    if not doc.is_file():
        errs.append(f"{fid}: doc {finding['doc']} does not exist")
    else:
        lines = doc.read_text(encoding="utf-8").splitlines()
        line = finding["line"]
        if not isinstance(line, int) or not 1 <= line <= len(lines):
            errs.append(f"{fid}: line {line} outside {finding['doc']} ({len(lines)} lines)")
        elif finding["claim"] not in lines[line - 1]:
            errs.append(f"{fid}: claim not on {finding['doc']}:{line}: {lines[line - 1]!r}")
        elif finding["doc"].endswith(".py") and not any(
            s <= line <= e for s, e in docstring_spans(finding["doc"])
        ):
            errs.append(f"{fid}: {finding['doc']}:{line} is not inside a docstring")
    if not finding["evidence"]:
        errs.append(f"{fid}: no evidence")
    for ev in finding["evidence"]:
        if set(ev) != EVIDENCE_KEYS:
            errs.append(f"{fid}: evidence keys {sorted(set(ev) ^ EVIDENCE_KEYS)} missing or unexpected")
            continue
        path = SAMPLE / ev["path"]
        where = f"{fid}: evidence {ev['path']}:{ev['start_line']}-{ev['end_line']} ({ev['symbol']})"
        if not path.is_file():
            errs.append(f"{where}: file does not exist")
            continue
        n = len(path.read_text(encoding="utf-8").splitlines())
        if not 1 <= ev["start_line"] <= ev["end_line"] <= n:
            errs.append(f"{where}: span outside the file ({n} lines)")
            continue
        try:
            if ev["path"].endswith(".py"):
                actual = python_span(ev["path"], ev["symbol"])
            elif ev["path"].endswith((".md", ".rst")):
                actual = section_span(ev["path"], ev["symbol"])
            else:
                errs.append(f"{where}: unsupported evidence file type")
                continue
        except AssertionError as exc:
            errs.append(f"{where}: {exc}")
            continue
        if actual != (ev["start_line"], ev["end_line"]):
            errs.append(f"{where}: actual span is {actual[0]}-{actual[1]}")
    return errs


@pytest.mark.parametrize("finding", FINDINGS, ids=[f.get("id", "?") for f in FINDINGS])
def test_finding_points_at_real_text_and_spans(finding):
    assert problems(finding) == []


def test_ids_unique():
    dupes = [i for i, c in Counter(f["id"] for f in FINDINGS).items() if c > 1]
    assert dupes == []


def test_balance_of_defects_and_correct_claims():
    defects = [f for f in FINDINGS if f["verdict"] != "consistent"]
    consistent = [f for f in FINDINGS if f["verdict"] == "consistent"]
    semantic = [f for f in defects if not f["surface"]]
    surface = [f for f in defects if f["surface"]]
    assert len(semantic) >= 8, "need >= 8 semantic defects"
    assert len(surface) >= 5, "need >= 5 API-surface defects"
    assert len(consistent) >= len(defects), "need at least as many correct claims as defects"
    assert sum(1 for f in surface if f["doc"].endswith(".py")) >= 2, "need >= 2 defects inside docstrings"
    assert any(f["doc"].endswith((".md", ".rst")) for f in surface)
    assert {f["verdict"] for f in defects} == {"contradicted", "incomplete"}
    assert {f["category"] for f in defects} == CATEGORIES
    assert any(f["surface"] for f in consistent) and any(not f["surface"] for f in consistent)


def test_every_doc_in_the_project_is_covered():
    docs = {str(p.relative_to(SAMPLE)) for p in (SAMPLE / "docs").iterdir() if p.suffix in {".md", ".rst"}}
    assert docs <= {f["doc"] for f in FINDINGS}


def test_checker_detects_a_stale_manifest():
    """The checks above must be able to fail: perturb valid entries and expect complaints."""
    valid = [f for f in FINDINGS if not problems(f)]
    assert valid, "no valid finding to perturb"
    base = next(f for f in valid if f["evidence"][0]["path"].endswith(".py"))
    doc_lines = (SAMPLE / base["doc"]).read_text(encoding="utf-8").splitlines()
    moved_line = copy.deepcopy(base)
    moved_line["line"] = next(i for i, text in enumerate(doc_lines, 1) if base["claim"] not in text)
    assert problems(moved_line)
    moved_span = copy.deepcopy(base)
    moved_span["evidence"][0]["end_line"] -= 1
    assert problems(moved_span)
    wrong_symbol = copy.deepcopy(base)
    wrong_symbol["evidence"][0]["symbol"] += "_missing"
    assert problems(wrong_symbol)
    doc_based = copy.deepcopy(next(f for f in valid if f["evidence"][0]["path"].endswith(".md")))
    doc_based["evidence"][0]["start_line"] += 1
    assert problems(doc_based)
    bad_verdict = copy.deepcopy(base)
    bad_verdict["verdict"] = "wrong"
    assert problems(bad_verdict)
