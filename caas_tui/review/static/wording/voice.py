"""Return and raise statements in the passive or inverted voice, read as the active one, so
the return and raise checks see one form: "A ``dict`` is returned by :meth:`S.keys`",
"``str`` is what `S.count` gives back", "you get a `dict` back from `S.keys()`",
":exc:`E` is raised by :meth:`S.take`", "`S.count`, which returns ..." and "gives back" /
"hands you" all become "<subject> returns|raises <object> <rest>".

Only a code span or role is taken as the subject, so the rewrite never invents one; the
object is a code span, a role, or one word (with its article), as the active checks expect.
"""

from __future__ import annotations

import dataclasses
import re

from caas_tui.models import Claim

_SPAN = r"(?::[\w:]+:`[^`]+`|``[^`]+``|`[^`]+`)"
_OBJ = rf"(?:(?:an?|the)\s+)?(?:{_SPAN}|[A-Za-z_]\w*)"
_RETURN_VERBS = r"(?:returned|given\s+back|handed\s+back|yielded)"
_RAISE_VERBS = r"(?:raised|thrown)"
# "A `Missing` error is raised": the noun that may follow the object it names.
_NOUN = r"(?:error|exception|object|instance|value)"

_PASSIVE = re.compile(
    rf"(?P<obj>{_OBJ})(?:\s+{_NOUN})?\s+(?:is|gets|will\s+be|is\s+always)\s+(?P<verb>{_RETURN_VERBS}|{_RAISE_VERBS})\s+by\s+"
    rf"(?P<subj>{_SPAN})",
    re.IGNORECASE,
)
_WHAT = re.compile(
    rf"(?P<obj>{_OBJ})\s+is\s+what\s+(?P<subj>{_SPAN})\s+(?P<verb>returns|gives\s+back|hands\s+back|yields|raises|throws)\b",
    re.IGNORECASE,
)
_GET_BACK = re.compile(rf"\b(?:you\s+)?get\s+(?P<obj>{_OBJ})\s+back\s+from\s+(?P<subj>{_SPAN})", re.IGNORECASE)
_WHICH = re.compile(rf"(?P<subj>{_SPAN}),\s+which\s+(?P<verb>returns|raises|throws|yields)\b", re.IGNORECASE)
_GIVES_BACK = re.compile(r"\b(?:gives|hands)\s+(?:you\s+)?back\b|\bhands\s+you\b", re.IGNORECASE)
# A Markdown reference's field line: "**Returns:** ...", "- **Raises** ...", "Returns: ...".
_MD_FIELD = re.compile(r"^(?P<pre>[\s>*_-]*?)(?P<open>\*\*|__|\*|_)?(?P<verb>Returns|Raises|Throws|Yields)(?P<close>\*\*|__|\*|_)?"
                       r"(?P<colon>\s*[:\u2014\u2013]|\s+-)?(?:\s*(?:\*\*|__))?\s+")
# The passive with no agent: "A `KeyError` is raised if ...", "If ..., `None` is returned.": the
# verb goes first, so the subject is the docstring's owner or the heading's symbol.
_NO_AGENT = re.compile(rf"(?P<obj>{_OBJ})(?:\s+{_NOUN})?\s+(?:is|gets|will\s+be|is\s+always)\s+"
                       rf"(?P<verb>{_RETURN_VERBS}|{_RAISE_VERBS})\b(?!\s+by\b)", re.IGNORECASE)
_LEAD = re.compile(r"^(?:(?:if|when|whenever|unless|once|for|on|after|in\s+case)\b[^`:;]*,\s*)?$", re.IGNORECASE)


def _verb(word: str) -> str:
    return "raises" if word.lower().startswith(("rais", "throw")) else "returns"


def _agentless(text: str) -> str:
    m = _NO_AGENT.search(text)
    if m is None or not _LEAD.match(text[:m.start()]):
        return text
    lead = text[:m.start()].strip().rstrip(",")
    rest = text[m.end():]
    end = re.search(r"[.;:!]?\s*$", rest)
    tail = rest[: end.start()] if end else rest
    lead = f" {lead[:1].lower()}{lead[1:]}" if lead else ""
    verb = _verb(m.group("verb")).capitalize()
    return f"{verb} {m.group('obj')}{tail}{lead}{rest[len(tail):]}"


def _md_field(text: str) -> str:
    m = _MD_FIELD.match(text)
    if m is None or not (m.group("open") or m.group("colon")):
        return text  # plain "Returns the ...": already the active form
    return f"{m.group('verb')} {text[m.end():]}"


def active_text(text: str) -> str | None:
    """``text`` with its passive or inverted return/raise phrasing made active; None if it has none."""
    out = _agentless(_md_field(_GIVES_BACK.sub("returns", text)))
    for pattern in (_PASSIVE, _WHAT, _GET_BACK):
        out = pattern.sub(
            lambda m: f"{m.group('subj')} {_verb(m.groupdict().get('verb') or 'returns')} {m.group('obj')}", out
        )
    out = _WHICH.sub(lambda m: f"{m.group('subj')} {m.group('verb')}", out)
    return out if out != text else None


def active_claim(claim: Claim) -> Claim:
    """The claim in the active voice (itself when it has nothing to rewrite, and always for
    docstring fields and code blocks, whose form is fixed)."""
    if claim.kind != "prose":
        return claim
    text = active_text(claim.text)
    return claim if text is None else dataclasses.replace(claim, text=text)


_VERB = re.compile(r"\b(?:returns?|yields?|gives\s+back|hands\s+back)\b", re.IGNORECASE)


def verb_start(text: str, offset: int) -> int:
    """Where the return verb before ``offset`` starts (``offset`` itself when none is within
    a few words): whose result it is is decided by what comes before the verb, so
    "Returns ``None`` ..." under a ``Cache.get`` heading has no subject of its own."""
    found = [m for m in _VERB.finditer(text, max(0, offset - 40), offset) if not text[m.end():offset].strip(" `*:")
             or len(text[m.end():offset].split()) <= 3]
    return found[-1].start() if found else offset
