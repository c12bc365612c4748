"""Default values shared by the client, in the units each module consumes.

Durations that users configure in milliseconds are kept in milliseconds here and
converted once below, so every module reads seconds.
"""

from __future__ import annotations

USER_AGENT = "httpkit/2.1"

DEFAULT_CONNECT_TIMEOUT_MS = 5000
DEFAULT_CONNECT_TIMEOUT = DEFAULT_CONNECT_TIMEOUT_MS / 1000
DEFAULT_READ_TIMEOUT = 10.0

MAX_RETRIES = 3
DEFAULT_BACKOFF = 0.5
MAX_BACKOFF_MS = 30_000
DEFAULT_JITTER = 0.25
RETRY_STATUSES = frozenset({429, 502, 503, 504})
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})

DEFAULT_RATE = 5.0
DEFAULT_BURST = 10

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 200

MAX_REDIRECTS = 5
