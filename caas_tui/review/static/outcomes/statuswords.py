"""HTTP statuses a raise claim names ("raises `HTTPError` for 4xx and 5xx responses", "a 404
raises `NotFound`") are a condition no static check reads: the raise checks compare the
exception, and which statuses lead to it depends on status tests a reviewer cannot tie to
the raise with certainty (a first check that tried flagged a correct claim). The claim keeps
that condition unchecked, so its label cannot be ``consistent`` on the exception's name
alone. Status lists other checks read (a retry set's default members) are left to them.
"""

from __future__ import annotations

import re

from caas_tui.models import Claim
from caas_tui.review.static.findings import Finding

_CLASS = re.compile(r"(?<![\w-])[1-5][xX]{2}\b")
_CLASS_WORDS = re.compile(r"\b(?:client|server)[- ]errors?\b|\b(?:successful|redirect(?:ion)?)\s+(?:responses?|status)",
                          re.IGNORECASE)
_UNIT = (r"(?!\s*(?:ms|msecs?|millis\w*|s|secs?|seconds?|min\w*|hours?|bytes?|[kKMG]i?B|%|percent|times|retries|"
         r"attempts|tries|items|rows|lines|entries|requests|connections|characters|chars)\b)")
# "503 (Service Unavailable)", "502, 503 and 504", "a 404 response", "HTTP 429", "status 204", "a 404"
_CODE = re.compile(
    r"\b(?:HTTP|status(?:\s+code)?|code)\s+[1-5]\d\d\b"
    r"|(?<![\w.-])[1-5]\d\d(?![\w.])" + _UNIT + r"(?=\s*\(|\s*,\s*[1-5]\d\d|\s+(?:and|or)\s+[1-5]\d\d|"
    r"\s+(?:status|response|error|reply)s?\b)"
    r"|\ban?\s+[1-5]\d\d\b(?![\w.-])" + _UNIT,
    re.IGNORECASE,
)
_REASON = re.compile(r"(?<![\w.-])[1-5]\d\d\s+(?:[A-Z][a-z]+)(?:\s+[A-Z][a-z]+)*\b")


_RAISE = re.compile(r"\b(?:raises?|raising|raised|throws?|thrown)\b", re.IGNORECASE)


def named_statuses(text: str) -> list[str]:
    """The HTTP status classes and codes a sentence names, as written."""
    prose = re.sub(r"(`+)(.+?)\1", lambda m: m.group(2), text)
    return [m.group(0) for p in (_CLASS, _CLASS_WORDS, _CODE, _REASON) for m in p.finditer(prose)]


def check_status_words(claim: Claim) -> list[Finding]:
    if claim.kind not in ("prose", "field") or claim.doc_path.startswith("upstream/"):
        return []
    named = named_statuses(claim.text)
    if not named or not _RAISE.search(claim.text):
        return []
    said = ", ".join(dict.fromkeys(named))
    return [Finding("unchecked", f"the HTTP statuses it names ({said})",
                    f"which HTTP statuses ({said}) the code acts on was not checked", (), None, ("effect",))]
