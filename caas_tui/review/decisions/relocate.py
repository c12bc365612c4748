"""Moving a verdict's fix with its claim: the store keeps fixes as JSON, and a claim that
only moved in its doc takes its fix (and, for a stale verdict, the judged one) along."""

from __future__ import annotations

import json

from caas_tui.models import Fix
from caas_tui.review.decisions.codec import fix_from, fix_json


def shift_fix_json(text: str | None, offset: int) -> str | None:
    fix = fix_from(text)
    return None if fix is None else fix_json(Fix(fix.start_line + offset, fix.end_line + offset, fix.replacement))


def shift_original(text: str | None, offset: int, doc_sha256: str | None) -> str | None:
    """A stale verdict's ``original`` (the verdict as judged) with its fix moved and, if
    given, the hash of its claim's new lines."""
    if not text:
        return text
    data = json.loads(text)
    if data.get("fix"):
        fix = data["fix"]
        data["fix"] = {**fix, "start_line": int(fix["start_line"]) + offset, "end_line": int(fix["end_line"]) + offset}
    if doc_sha256:
        data["doc_sha256"] = doc_sha256
    return json.dumps(data)
