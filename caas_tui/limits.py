"""The product's limits, in one place: every front end (CLI, app, MCP) enforces these.

Sits under every layer (imports nothing from the package), like ``config`` and ``errors``.
The file size cap itself is configurable (``[index] max_file_bytes``); its default is here.
"""

from __future__ import annotations

MAX_QUERY_CHARS = 1_000  # one search query; longer is refused with one line
DEFAULT_MAX_FILE_BYTES = 1_000_000  # indexing and review read no file over this (configurable)
# A file over this (only reachable by raising the cap) is cut in plain line windows instead
# of being parsed, and keeps at most MAX_CHUNKS_PER_FILE chunks: memory stays bounded.
LARGE_FILE_BYTES = 2_000_000
MAX_CHUNKS_PER_FILE = 5_000
MAX_CLAIMS_PER_DOC = 5_000  # claims past this are dropped, with one warning: nobody triages that by eye
MAX_SPAN_CHARS = 20_000  # read_span (app evidence pane, MCP read_span, the reviewers' tools)
MCP_OUTPUT_CHARS = 12_000  # the whole JSON answer of one MCP tool call (configurable per server)
