"""Renderers of a review :class:`~caas_tui.review.report.Report` for CI systems.

``jsonl`` (one object per doc), ``github`` (workflow commands + step summary),
``sarif`` (SARIF 2.1.0 for code scanning), ``junit`` (JUnit XML for test widgets).
They only render: what is a finding, what is suppressed and the exit code are the
report's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from caas_tui.lazy import lazy_exports

if TYPE_CHECKING:
    from caas_tui.cli.formats.github import github_commands, github_summary
    from caas_tui.cli.formats.jsonl import claim_json, doc_json
    from caas_tui.cli.formats.junit import junit_xml
    from caas_tui.cli.formats.sarif import sarif_log

FORMATS: tuple[str, ...] = ("text", "json", "github", "sarif", "junit")

# imported on first use (PEP 562): a `review --json` run loads the jsonl renderer only
_HOMES = {
    "github_commands": "caas_tui.cli.formats.github",
    "github_summary": "caas_tui.cli.formats.github",
    "claim_json": "caas_tui.cli.formats.jsonl",
    "doc_json": "caas_tui.cli.formats.jsonl",
    "junit_xml": "caas_tui.cli.formats.junit",
    "sarif_log": "caas_tui.cli.formats.sarif",
}

__all__ = ["FORMATS", "claim_json", "doc_json", "github_commands", "github_summary", "junit_xml", "sarif_log"]


__getattr__ = lazy_exports(__name__, _HOMES, globals())
