"""Tunable constants shared by the toolbelt modules.

Every duration in this module is in seconds; every share of traffic is a
percentage between 0 and 100 unless its name says otherwise.
"""

from __future__ import annotations

#: Rollout granularity. A percentage is turned into a number of buckets out of
#: ``BUCKETS``, so one bucket is 0.01 % of the traffic.
BUCKETS = 10_000

#: Salt mixed into every bucket hash unless a flag brings its own.
DEFAULT_SALT = "toolbelt"

#: How long an evaluation result is reused by :class:`toolbelt.client.FlagClient`.
DEFAULT_CACHE_TTL = 0.25

#: Largest number of cached evaluations before the oldest entry is evicted.
DEFAULT_CACHE_SIZE = 2048

#: Pause between two polls of a flag source by :class:`toolbelt.refresh.Refresher`.
DEFAULT_REFRESH_INTERVAL = 45.0

#: Shortest poll interval a refresher accepts; shorter requests are raised to this.
MIN_REFRESH_INTERVAL = 5.0

#: Age after which flags that could not be refreshed are reported as stale.
DEFAULT_STALE_AFTER = 600.0

#: A flag may carry at most this many targeting rules.
MAX_RULES_PER_FLAG = 64

#: Variant names of a plain on/off flag.
VARIANT_ON = "on"
VARIANT_OFF = "off"
