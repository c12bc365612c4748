"""How a value a doc states compares with what ran, in the writer's own conventions.

A writer rounds (``about 0.33``, ``~0.333``), gives an example of a value that varies (``e.g. 1.37``),
spells a repr with spaces (``Point(x = 1, y = 2)``), shows a set or a dict in another order, and prints
values that hold an address, a time, a uuid or their own home directory. Each function here answers
for one convention only and says nothing (None) when the stated text does not use it, so the plain
comparison in ``stated.py`` still decides everything else. A comment may also state a raise
(``# raises KeyError``): ``comment_raise`` reads it, for the planner and for ``intent.py``.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

SANDBOX_PREFIX = "caas-exec-"  # the prefix of the temporary working directory a session runs in

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_APPROX = re.compile(r"^(?:about|approximately|approx\.?|roughly|around|circa|ca\.|~|≈|≃|∼)\s*", re.IGNORECASE)
_EXAMPLE = re.compile(r"^(?:e\.?\s?g\.?|for example|for instance|something like|such as)[\s,:]*(?=\S)", re.IGNORECASE)
# the parts of a printed value that differ from run to run, each with what may stand for it in a doc
_VOLATILE_KINDS: tuple[tuple[str, str, str], ...] = (
    ("uuid", r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
     r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"),
    ("address", r"0x[0-9a-fA-F]{5,}", r"0x[0-9a-fA-F]+"),
    ("datetime", r"\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?",
     r"\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?"),
    ("time", r"(?<![\d:])\d{1,2}:\d{2}:\d{2}(?:\.\d+)?", r"\d{1,2}:\d{2}:\d{2}(?:\.\d+)?"),
    # the sandbox's working directory (also HOME) stands for the reader's project or home directory
    ("dir", r"(?:/[^\s/'\"]+)*/" + SANDBOX_PREFIX + r"[^\s/'\"]+", r"(?:~|(?:/[^\s/'\"]+)+)"),
)
_VOLATILE = re.compile("|".join(f"(?P<{kind}>{got})" for kind, got, _ in _VOLATILE_KINDS))
_STANDS_FOR = {kind: want for kind, _, want in _VOLATILE_KINDS}
EXC_SUFFIX = re.compile(r"(?:Error|Exception|Warning|Exit|Interrupt|Iteration)$")
_CONSTANTS = frozenset({"True", "False", "None", "Ellipsis", "NotImplemented"})
_NAME = r"`?(?:[A-Za-z_]\w*\.)*[A-Z]\w*`?"
_COMMENT = re.compile(
    r"^(?:(?i:this|it|that|which|will|then)\s+)*"
    r"(?P<verb>(?i:raises?|throws?|fails?\s+with|errors?\s+out\s+with|errors?\s+with)|->|=>|→|⇒)?\s*"
    r"(?:(?i:an?)\s+)?(?P<names>" + _NAME + r"(?:\s*(?:,|/|\bor\b|\band\b)\s*" + _NAME + r")*)(?P<rest>.*)$")
_CONDITION = re.compile(r"^(?:if|when|whenever|unless|once|in case|on|for)\b", re.IGNORECASE)
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


def _norm(text: str) -> str:
    return " ".join(text.split())


def example_only(want: str) -> bool:
    """Whether the stated text only gives an example (``e.g. 1.37``, ``something like 1.37``): the
    writer says the value is not the one a run prints, so it is not compared."""
    return bool(_EXAMPLE.match(want.strip()))


def _tolerance(number: str) -> float:
    """Half a unit of the stated precision: ``0.33`` -> 0.005, ``7`` -> 0.5, ``100`` -> 50."""
    mantissa = number.lower().partition("e")[0]
    if "." in mantissa:
        return 0.5 * 10 ** -len(mantissa.partition(".")[2])
    digits = mantissa.lstrip("-")
    zeros = len(digits) - len(digits.rstrip("0")) if digits.strip("0") else 0
    return 0.5 * 10 ** zeros


def approx_match(want: str, got: str) -> bool | None:
    """A value stated as approximate (``about 0.33``, ``~0.333``, ``≈ 3.14``) against what ran: the same
    words around the numbers, each number within a rounding of its stated precision. None when the
    stated text is not approximate."""
    m = _APPROX.match(want.strip())
    if m is None:
        return None
    rest = _norm(want.strip()[m.end():])
    w_nums = _NUMBER.findall(rest)
    if not w_nums:
        return None
    g = _norm(got)
    g_nums = _NUMBER.findall(g)
    if _NUMBER.split(rest) != _NUMBER.split(g) or len(w_nums) != len(g_nums):
        return False
    return all(abs(float(w) - float(n)) <= _tolerance(w) + 1e-12 for w, n in zip(w_nums, g_nums, strict=True))


def _expression(text: str) -> str | None:
    try:
        return ast.dump(ast.parse(text.strip(), mode="eval"))
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None


def same_expression(want: str, got: str) -> bool:
    """Two reprs that parse to the same Python expression (``Point(x = 1, y = 2)`` and ``Point(x=1, y=2)``):
    the same code with other spacing or quotes."""
    w = _expression(want)
    return w is not None and w == _expression(got)


def _literal(text: str) -> tuple[bool, object]:
    try:
        return True, ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


def literal_equal(want: str, got: str) -> bool:
    """Two printed literals of one type that are equal values: a set or a dict shown in another order."""
    ok_w, w = _literal(want)
    if not ok_w:
        return False
    ok_g, g = _literal(got)
    return ok_g and type(w) is type(g) and w == g


def _literal_pattern(text: str) -> str:
    """``text`` as a regex, a dotted name matching any tail of itself (a doc may write ``<Config object
    at ...>`` for the ``<appcfg.config.Config object at 0x...>`` a run prints)."""
    out, at = [], 0
    for m in _DOTTED.finditer(text):
        out.append(re.escape(text[at:m.start()]))
        *qualifiers, name = m.group().split(".")
        prefix = ""
        for q in qualifiers:
            prefix = f"(?:{prefix}{re.escape(q)}\\.)?"
        out.append(prefix + re.escape(name))
        at = m.end()
    out.append(re.escape(text[at:]))
    return "".join(out)


def volatile_match(want: str, got: str) -> bool | None:
    """A printed value holding parts that vary from run to run (an address, a time, a uuid, the
    sandbox's directory) against the stated one: each such part matches any value of its kind (or
    ``...``), everything else must be the same. None when neither side holds such a part."""
    w, g = _norm(want), _norm(got)
    parts = list(_VOLATILE.finditer(g))
    if not parts:
        return False if _VOLATILE.search(w) else None
    pattern, at = [], 0
    for m in parts:
        kind = m.lastgroup
        assert kind is not None
        pattern += [_literal_pattern(g[at:m.start()]), f"(?:{_STANDS_FOR[kind]}|\\.\\.\\.)"]
        at = m.end()
    pattern.append(_literal_pattern(g[at:]))
    return re.fullmatch("".join(pattern), w) is not None


@dataclass(frozen=True, slots=True)
class StatedRaise:
    """A comment stating that its statement raises: the class names as written (last dotted part)
    and what follows them (a message as printed, or a reason in words)."""

    names: tuple[str, ...]
    detail: str
    text: str
    explicit: bool = True  # a verb says so (``raises``); a bare name or an arrow may name a value too


def _names(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(n.strip("`").split(".")[-1] for n in re.findall(_NAME, text)))


def comment_raise(comment: str) -> StatedRaise | None:
    """The raise a comment states (``# raises KeyError``, ``# -> KeyError: 'nope'``, ``# This raises
    ValidationError: ...``, ``# KeyError``), None for any other comment."""
    body = comment.strip().lstrip("#").strip()
    m = _COMMENT.match(body)
    if m is None:
        return None
    names = _names(m.group("names"))
    if not names or any(n in _CONSTANTS for n in names):
        return None
    rest = m.group("rest")
    verb = (m.group("verb") or "").lower()
    if _CONDITION.match(rest.strip()):  # ``# raises KeyError if the key is missing``: not this call's outcome
        return None
    explicit = verb[:1] in ("r", "t", "f", "e")
    if not explicit:  # an arrow or a bare name: a class name stating a value otherwise
        if not all(EXC_SUFFIX.search(n) for n in names) or (rest.strip() and not rest.lstrip().startswith(":")):
            return None
    elif rest[:1].isalnum() or (rest[:1] and rest[:1] in "(.["):
        return None
    return StatedRaise(names, rest.strip().removeprefix(":").strip(), body, explicit)
