"""The one vocabulary of "the looked-up thing is not there" ("a missing key", "if no handler
matches", "a name that was never registered"), for every outcome check that reads a missing
case: the fallback stated for it (``retfallback``), "returns None" against a lookup that
raises (``retnone``), and "returns None" through a helper's ``[]`` (``missingnone``).

One list, so a phrase that counts as a missing case for one check counts for all of them.
"""

from __future__ import annotations

import re

# Without word boundaries: callers embed it in longer patterns ("``None`` when <missing>").
MISSING_WORDS = (
    r"(?:missing|absent|unknown|unset|nonexistent|non-existent|no\s+such|has\s+no|have\s+no|"
    r"not\s+(?:found|present|there|set|stored|known|registered|in)|is\s+not\s+in|isn't\s+there|"
    r"does\s+not\s+(?:exist|have|contain)|doesn't\s+(?:exist|have|contain)|"
    r"never\s+(?:been\s+)?(?:stored|written|added|set|registered|put)|"
    r"no\s+(?:entry|value|item|record)|nothing\s+(?:is\s+)?(?:stored|there|found)|"
    # a search that finds nothing: "if no handler matches", "when none is found"
    r"no\s+(?:\w+\s+){0,2}(?:matches|match|has|have|(?:is|are|was|were|can\s+be|could\s+be)\s+found|exists|fits)|"
    r"nothing\s+matches|none\s+(?:matches|match|is\s+found|exists)|there\s+is\s+none)"
)
MISSING = re.compile(rf"\b{MISSING_WORDS}", re.IGNORECASE)
# The same words as whole words only ("unknownish" is not a missing case).
MISSING_WORD = re.compile(rf"\b{MISSING_WORDS}\b", re.IGNORECASE)
