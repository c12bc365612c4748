"""The claims-per-doc limit (``caas_tui.limits.MAX_CLAIMS_PER_DOC``): claims past it are
dropped at extraction, under every front end, with one warning line naming the doc and the
count. The limit is lowered here so the doc stays small."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import caas_tui.review.claims.extract as extract
from caas_tui.cli.main import main
from caas_tui.review.claims import extract_claims

from .conftest import write

LIMIT = 4


@pytest.fixture
def low_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(extract, "MAX_CLAIMS_PER_DOC", LIMIT)


def _doc(n: int) -> str:
    return "# Many\n\n" + "".join(f"Call `World.add_body` number {i}.\n\n" for i in range(n))


def test_extraction_keeps_the_first_claims_up_to_the_limit(low_limit: None) -> None:
    text = _doc(LIMIT + 3)
    claims, found = extract.extract_claims_counted("many.md", text)
    assert found == LIMIT + 3
    assert [c.text for c in claims] == [f"Call `World.add_body` number {i}." for i in range(LIMIT)]
    assert extract_claims("many.md", text) == claims
    assert extract.claims_limit_warning("many.md", found) == (
        f"many.md: {LIMIT + 3} claims, over the limit of {LIMIT} per doc: the last 3 were dropped, not reviewed")
    assert extract.claims_limit_warning("many.md", LIMIT) is None


def test_review_cli_says_it_once_naming_the_doc_and_the_count(
    low_limit: None, tiny_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tiny_project, "docs/many.md", _doc(LIMIT + 2))
    capsys.readouterr()
    assert main(["review", "--root", str(tiny_project), "--json", "docs/many.md"]) == 0
    out = capsys.readouterr()
    lines = [line for line in out.err.splitlines() if "over the limit" in line]
    assert lines == [f"caas-tui: warning: docs/many.md: {LIMIT + 2} claims, over the limit of {LIMIT} per doc: "
                     "the last 2 were dropped, not reviewed"], out.err
    assert len(json.loads(out.out)["claims"]) == LIMIT
