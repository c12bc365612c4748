"""A literal a sentence states as a value: code (``None``, ``True``, ``0``, ``"x"``) or words
("an empty list", "zero"). One home for the pattern and its reading, shared by every check
that compares a stated result with the value the code hands back. Pure text work."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

EMPTY_WORDS: dict[str, object] = {"string": "", "str": "", "list": [], "dict": {}, "dictionary": {}, "tuple": (),
                                  "bytes": b""}
# Named groups: ``quoted`` (a string literal in backticks), ``code`` (None/True/False, a
# number, an empty literal), ``empty`` (the container word of "an empty list"), ``zero``.
LITERAL = (r"(?:``|`)(?P<quoted>b?\"[^\"`\n]*\"|b?'[^'`\n]*')(?:``|`)"
           r"|(?<![\w'\"])(?:``|`)?(?P<code>(?-i:None|True|False)|-?\d+(?:\.\d+)?|\"\"|''|\[\]|\{\}|\(\))(?:``|`)?(?![\w.])"
           r"|\ban?\s+empty\s+(?P<empty>string|str|list|dict|dictionary|tuple|bytes)\b|\b(?P<zero>zero)\b")

# The same without its groups, for a pattern that must name another literal (a lookahead).
LITERAL_ANY = re.sub(r"\(\?P<\w+>", "(?:", LITERAL)


@dataclass(frozen=True, slots=True)
class StatedLiteral:
    value: object
    text: str  # as written ("``False``" -> "False", "an empty list")
    start: int  # offset of the literal in the matched text


def literal_of(m: re.Match[str]) -> StatedLiteral | None:
    """The literal a match of ``LITERAL`` (inside any larger pattern) names."""
    code = "quoted" if m.group("quoted") is not None else "code" if m.group("code") is not None else None
    if code is not None:
        try:
            return StatedLiteral(ast.literal_eval(m.group(code)), m.group(code), m.start(code))
        except (ValueError, SyntaxError):
            return None
    if m.group("empty") is not None:
        word = m.group("empty").lower()
        return StatedLiteral(EMPTY_WORDS[word], f"an empty {m.group('empty')}", m.start("empty"))
    if m.group("zero") is not None:
        return StatedLiteral(0, "zero", m.start("zero"))
    return None
