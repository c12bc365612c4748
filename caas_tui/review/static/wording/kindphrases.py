"""Where prose describes a parameter's kind: ```handler` is the handler class``, ``the
``handler`` argument of :func:`register` is a callable``, ``takes ``hook``, a callable``,
a table row ```handler` | the handler class``. Pure text work: which callable the
parameter belongs to is decided by the check that reads the match."""

from __future__ import annotations

import re

# "`item` must be a `Tag`", "the `item` argument of `add` is an `Item`": a type written in code
PROSE_TYPE = re.compile(
    r"(?<!`)(?P<tick>`{1,2})(?P<param>[A-Za-z_]\w*)(?P=tick)(?!`)"
    r"(?:\s+(?:argument|parameter|param|option|keyword(?:\s+argument)?))?"
    r"(?:\s+(?:of|to|for|in)\s+(?::[\w:-]+:)?`{1,2}[\w.]+(?:\(\))?`{1,2})?"
    r"\s+(?:is|must\s+be|should\s+be)\s+(?:an?\s+)(?P<type>(?::[\w:-]+:)?`{1,2}~?[A-Za-z_][\w.]*`{1,2})"
    r"(?!\s+(?:or|and|,)\b)",
    re.IGNORECASE,
)
# "`Store.add(item)` accepts a `Tag`": the one parameter's type
ACCEPTS_TYPE = re.compile(
    r"\b(?:accepts|takes|expects)\s+(?:an?|one)\s+(?P<type>(?::[\w:-]+:)?`{1,2}~?[A-Za-z_][\w.]*`{1,2})"
    r"(?:\s+(?:instance|object|value))?(?!\s+(?:or|and|,)\b)(?!\s+(?:as|for|to|with)\b)",
    re.IGNORECASE,
)
PROSE_KIND = re.compile(
    r"(?<!`)(?P<tick>`{1,2})(?P<param>[A-Za-z_]\w*)(?P=tick)(?!`)"
    # "argument of `register`": the owner named between the parameter and the description
    r"(?:\s+(?:argument|parameter|param|option|keyword(?:\s+argument)?))?"
    r"(?:\s+(?:of|to|for|in)\s+(?::[\w:-]+:)?`{1,2}[\w.]+(?:\(\))?`{1,2})?"
    r"(?:\s+(?:is|must\s+be|should\s+be)\s+|\s*,\s+|\s*\|\s*|\s+(?:—|–|--?)\s+)"  # "`sink` - a function"
    r"(?P<desc>(?:the|an?)\s+[^.;:`|]+)",
    re.IGNORECASE,
)

# A docstring type field that names a kind rather than a type (NumPy ``hook : callable``,
# ``out : path-like``); what ``type_from_text`` can't read as a type.
_TYPE_WORD = re.compile(
    r"^\s*(?:(?P<callable>callable|function|callback)|(?P<path>path-like|pathlike|(?:os\.)?PathLike|path)"
    # "class", "type", NumPy "Codec subclass", "subclass of Codec": a class object, not an instance
    r"|(?P<class>class|type|(?:an?\s+)?[\w.]+\s+(?:sub)?class|(?:an?\s+)?(?:sub)?class\s+of\s+[\w.]+))\s*$",
    re.IGNORECASE,
)


def type_word_kind(text: str) -> str | None:
    """``callable`` | ``path`` | ``class`` for a type field's first item written as a kind word."""
    m = _TYPE_WORD.match(text.split(",")[0].replace(" or None", ""))
    return m.lastgroup if m else None
