"""What the calls of a code claim assert, read from the claim's text.

A code block in a doc is a claim that its calls work as written, and some of its
calls say more than others: a call that passes keyword arguments asserts a signature
(``CollisionBuilder(padding=0.01)``), and a doctest that echoes an object
(``>>> h`` then its output) or prints it asserts what its ``__repr__`` or ``__str__``
returns. ``retrieve/claimquery.py`` orders and extends the definitions it pins with
these. The text may be flattened to one line (``claimquery.claim_text`` joins the
claim's lines), so nothing here relies on line breaks.
"""

from __future__ import annotations

import re
from functools import lru_cache

_CALL_HEAD = re.compile(r"(?<![\w.])([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\(")
_KEYWORD = re.compile(r"(?<![\w.=!<>])([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)")
_ASSIGNED = re.compile(r"(?<![\w.])([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\(")
# ``>>> h`` followed by output (not another prompt, a continuation, an assignment or an
# expression that goes on: ``>>> h + 1``, ``>>> h [0]``).
_ECHOED = re.compile(r">>>\s+([A-Za-z_][A-Za-z0-9_]*)\s+(?!>>>|\.\.\.|[-+*/%<>!=&|^@\[(.,:]|(?:and|or|if|in|is|not)\b)\S")
_PRINTED = re.compile(r"(?<![\w.])(?:print|str)\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)")
MAX_ARGS_CHARS = 600  # an argument list longer than this is not read to its end


def _top_level(text: str, start: int) -> str:
    """The argument list opening just before ``start``, with nested brackets and strings left out."""
    depth = 0
    quote = ""
    out: list[str] = []
    for ch in text[start : start + MAX_ARGS_CHARS]:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def _depths(text: str) -> list[int]:
    """The bracket depth at each character of ``text`` (strings skipped)."""
    depth = 0
    quote = ""
    out: list[int] = []
    for ch in text:
        out.append(depth)
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
    return out


@lru_cache(maxsize=4096)  # candidates recur across the claims of a review
def keyword_calls(text: str, outermost: bool = False) -> tuple[tuple[str, frozenset[str]], ...]:
    """``(called name as written, its keyword arguments)`` for each call in ``text`` that passes any;
    ``outermost``: only calls that are not an argument of another call (``spawn(.., Shape(r=1))``
    is about ``spawn``: the statement's subject is its outer call)."""
    depths = _depths(text) if outermost else []
    out: list[tuple[str, frozenset[str]]] = []
    for m in _CALL_HEAD.finditer(text):
        if outermost and depths[m.start()] > 0:
            continue
        keywords = frozenset(_KEYWORD.findall(_top_level(text, m.end())))
        if keywords:
            out.append((m.group(1), keywords))
    return tuple(out)


def makes_same_call(text: str, calls: tuple[tuple[str, frozenset[str]], ...]) -> bool:
    """``text`` calls one of ``calls``' names (compared by short name) with at least its keywords."""
    if not calls:
        return False
    wanted: dict[str, list[frozenset[str]]] = {}
    for name, keywords in calls:
        wanted.setdefault(name.rsplit(".", 1)[-1], []).append(keywords)
    for name, keywords in keyword_calls(text):
        short = name.rsplit(".", 1)[-1]
        if any(need <= keywords for need in wanted.get(short, ())):
            return True
    return False


def shown_objects(text: str) -> list[tuple[str, str]]:
    """``(callee, dunder)`` for each object a code claim shows that was made by a call: echoed at a
    doctest prompt (``__repr__``) or printed / passed to ``str`` (``__str__``)."""
    made = {m.group(1): m.group(2) for m in _ASSIGNED.finditer(text)}
    out: list[tuple[str, str]] = []
    for pattern, dunder in ((_ECHOED, "__repr__"), (_PRINTED, "__str__")):
        for m in pattern.finditer(text):
            callee = made.get(m.group(1))
            if callee and (callee, dunder) not in out:
                out.append((callee, dunder))
    return out
