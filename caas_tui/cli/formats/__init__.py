"""Renderers of a review :class:`~caas_tui.review.report.Report` for CI systems.

``jsonl`` (one object per doc), ``github`` (workflow commands + step summary),
``sarif`` (SARIF 2.1.0 for code scanning), ``junit`` (JUnit XML for test widgets).
They only render: what is a finding, what is suppressed and the exit code are the
report's.
"""

from caas_tui.cli.formats.github import github_commands, github_summary
from caas_tui.cli.formats.jsonl import claim_json, doc_json
from caas_tui.cli.formats.junit import junit_xml
from caas_tui.cli.formats.sarif import sarif_log

FORMATS: tuple[str, ...] = ("text", "json", "github", "sarif", "junit")

__all__ = ["FORMATS", "claim_json", "doc_json", "github_commands", "github_summary", "junit_xml", "sarif_log"]
