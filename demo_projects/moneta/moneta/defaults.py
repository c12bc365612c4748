"""Package-wide default values.

Everything tunable lives here so that the modules which use a default (the
rate book, the formatter, the parser, the splitter) agree on one value.
Applications that want different behaviour pass explicit arguments rather
than patching these names.
"""

from __future__ import annotations

from decimal import Decimal

#: Locale tag used by :func:`moneta.formatting.format_money` and the parser
#: when the caller passes none.
DEFAULT_LOCALE = "en_US"

#: Currency that :class:`moneta.rates.RateBook` routes through when no
#: direct or inverse rate exists for a pair.
DEFAULT_PIVOT = "USD"

#: How long a quoted exchange rate stays usable, in seconds.
RATE_TTL_SECONDS = 900

#: Largest relative change accepted when a pair is re-quoted (0.25 == 25 %).
MAX_RATE_JUMP = Decimal("0.25")

#: Upper bound on the number of parts :func:`moneta.allocation.split` makes.
MAX_SPLIT_PARTS = 10_000
