"""A baseline: the findings a project has accepted, so CI fails only on new ones.

An entry is a claim id plus a content hash of the claim's doc lines (the verdict's
``doc_sha256``). The claim id already changes with the claim's text; the hash also
catches an edit that keeps the words but not the lines. The file is JSON, sorted and
indented, so rewriting it for the same findings gives the same bytes (a clean diff).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from caas_tui.errors import ConfigError
from caas_tui.models import Claim, Verdict
from caas_tui.review.textutil import text_sha256

BASELINE_VERSION = 1


@dataclass(frozen=True, slots=True)
class BaselineEntry:
    doc: str
    claim_id: str
    sha256: str
    verdict: str  # informational: matching is by claim id and hash
    line: int  # informational: where the finding was when accepted

    def to_json(self) -> dict[str, object]:
        return {"doc": self.doc, "id": self.claim_id, "sha256": self.sha256, "verdict": self.verdict, "line": self.line}


def content_hash(claim: Claim, verdict: Verdict) -> str:
    """The hash a baseline keys a finding on: the claim's doc lines when judged."""
    return verdict.doc_sha256 or text_sha256(claim.text)


def entry_for(claim: Claim, verdict: Verdict) -> BaselineEntry:
    return BaselineEntry(claim.doc_path, claim.id, content_hash(claim, verdict), verdict.verdict, claim.start_line)


@dataclass(frozen=True, slots=True)
class Baseline:
    entries: tuple[BaselineEntry, ...] = ()

    def __contains__(self, key: object) -> bool:
        return key in {(e.claim_id, e.sha256) for e in self.entries}

    def accepts(self, claim: Claim, verdict: Verdict) -> bool:
        return (claim.id, content_hash(claim, verdict)) in self

    @classmethod
    def load(cls, path: Path) -> Baseline:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"{path}: no such baseline file (write one with review --write-baseline)") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ConfigError(f"{path}: not a caas-tui baseline ({exc})") from exc
        if not isinstance(data, dict) or data.get("version") != BASELINE_VERSION or not isinstance(
            data.get("findings"), list
        ):
            raise ConfigError(f"{path}: not a caas-tui baseline (version {BASELINE_VERSION} with a findings list)")
        try:
            entries = tuple(
                BaselineEntry(str(f["doc"]), str(f["id"]), str(f["sha256"]), str(f.get("verdict", "")),
                              int(f.get("line", 0)))
                for f in data["findings"]
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"{path}: malformed baseline entry ({exc})") from exc
        return cls(entries)


def write_baseline(path: Path, entries: Iterable[BaselineEntry]) -> int:
    """Write ``entries`` (deduplicated, sorted) to ``path``; returns how many."""
    unique = {(e.doc, e.claim_id, e.sha256): e for e in entries}
    ordered = [unique[k] for k in sorted(unique)]
    body = {"version": BASELINE_VERSION, "tool": "caas-tui", "findings": [e.to_json() for e in ordered]}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(body, indent=2, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot write the baseline ({exc.strerror or exc})") from exc
    return len(ordered)


__all__ = ["BASELINE_VERSION", "Baseline", "BaselineEntry", "content_hash", "entry_for", "write_baseline"]
