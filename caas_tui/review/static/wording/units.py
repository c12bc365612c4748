"""Quantities a doc states in words or with units (``every 250 ms``, ``half a second``,
``ten retries``, ``90 degrees``, ``5 %``) and whether one can be the number in the code.

A default in code carries no unit, so a stated quantity matches when *any* reading the
parameter allows gives the same number: its name's unit suffix (``timeout_ms``), else the
number as written, the family's base unit (seconds, radians, a fraction) or, for time,
milliseconds. Only a quantity no reading can produce is a contradiction.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from caas_tui.review.static.wording.assertions import NUMBER_WORDS, UNITS

_FACTORS: dict[str, tuple[str, float]] = {}
for _names, _family, _factor in (
    (("ns", "nanosecond", "nanoseconds"), "time", 1e-9),
    (("µs", "us", "microsecond", "microseconds"), "time", 1e-6),
    (("ms", "msec", "msecs", "millisecond", "milliseconds"), "time", 1e-3),
    (("s", "sec", "secs", "second", "seconds"), "time", 1.0),
    (("min", "mins", "minute", "minutes"), "time", 60.0),
    (("h", "hr", "hrs", "hour", "hours"), "time", 3600.0),
    (("day", "days"), "time", 86400.0),
    (("week", "weeks"), "time", 604800.0),
    (("degree", "degrees", "deg", "°"), "angle", math.pi / 180),
    (("radian", "radians", "rad"), "angle", 1.0),
    (("%", "percent", "per cent"), "ratio", 0.01),
    (("fraction",), "ratio", 1.0),
    (("times", "retries", "attempts", "tries"), "count", 1.0),
    (("b", "byte", "bytes"), "size", 1.0),
    (("kb", "kib"), "size", 1e3),
    (("mb", "mib"), "size", 1e6),
    (("gb", "gib"), "size", 1e9),
):
    for _n in _names:
        _FACTORS[_n] = (_family, _factor)

_WORDS = "|".join(sorted((re.escape(w) for w in NUMBER_WORDS if w not in ("a", "an")), key=len, reverse=True))
QUANTITY = re.compile(
    rf"(?<![\w./])(?P<num>\d+/\d+|[-+]?\d+(?:_\d+)*(?:\.\d+)?(?:e[-+]?\d+)?|{_WORDS}|half an?|a quarter of an?|an?)"
    rf"\s*(?P<unit>{UNITS})(?![\w])",
    re.IGNORECASE,
)
# A bound or an example, not the value itself.
_HEDGE = re.compile(
    r"(?:at\s+least|at\s+most|up\s+to|no\s+more\s+than|no\s+less\s+than|less\s+than|more\s+than|greater\s+than|"
    r"fewer\s+than|minimum(?:\s+of)?|maximum(?:\s+of)?|max\.?|min\.?|between|e\.g\.,?|for\s+example|such\s+as|like|"
    r"every\s+other|above|below|than|[<>]=?|±|~|about|around|roughly|approximately|"
    r"\d\s*(?:and|or|to|-|–)|\bor)\s*$",
    re.IGNORECASE,
)
_SUFFIX_UNIT = re.compile(
    r"_(ns|us|ms|msec|millis|s|sec|secs|seconds|min|mins|minutes|h|hours|days|deg|degrees|rad|radians|pct|percent)$"
)


@dataclass(frozen=True, slots=True)
class Quantity:
    text: str  # as written: ``250 ms``
    number: float  # 250.0
    unit: str  # ``ms``
    start: int

    @property
    def family(self) -> str:
        return _FACTORS[_unit_key(self.unit)][0]

    @property
    def base(self) -> float:
        """In the family's base unit (seconds, radians, fraction, count)."""
        return self.number * _FACTORS[_unit_key(self.unit)][1]


def _unit_key(unit: str) -> str:
    u = " ".join(unit.lower().split())
    return u if u in _FACTORS else u.rstrip("s") if u.rstrip("s") in _FACTORS else u


def _number(token: str) -> float | None:
    t = " ".join(token.lower().split())
    if t in NUMBER_WORDS:
        return float(NUMBER_WORDS[t])
    if t.startswith("half"):
        return 0.5
    if t.startswith("a quarter"):
        return 0.25
    num, slash, den = t.partition("/")
    try:
        if slash:
            return float(num) / float(den) if float(den) else None  # "1/60 s"
        return float(t.replace("_", ""))
    except ValueError:
        return None


def quantities(text: str) -> list[Quantity]:
    """Every unit-bearing quantity not hedged as a bound or example (``at most 3 retries``)."""
    out: list[Quantity] = []
    for m in QUANTITY.finditer(text):
        unit = m.group("unit")
        if _unit_key(unit) not in _FACTORS or _HEDGE.search(text[: m.start()]):
            continue
        num = _number(m.group("num"))
        if num is None or (m.group("num").lower() in ("a", "an") and _FACTORS[_unit_key(unit)][0] != "time"):
            continue
        if unit == "s" and not re.match(r"[\d.]", m.group("num")):
            continue  # "a s": not a unit
        out.append(Quantity(m.group(0), num, unit, m.start()))
    for m in _MULTIPLE.finditer(text):
        if not _HEDGE.search(text[: m.start()]):
            out.append(Quantity(m.group(0), _MULTIPLES[m.group(0).lower()], "times", m.start()))
    for m in _FRACTION_OF_UNIT.finditer(text):  # "three quarters of a minute"
        key = " ".join(m.group("frac").lower().split()[-2:])
        if not _HEDGE.search(text[: m.start()]) and not any(q.start <= m.start() < q.start + len(q.text) for q in out):
            out = [q for q in out if not m.start() <= q.start < m.end()]  # its "a minute" is part of it
            out.append(Quantity(m.group(0), _FRACTIONS[key], m.group("unit"), m.start()))
    for m in _FRACTION_WORDS.finditer(text):
        if not _HEDGE.search(text[: m.start()]) and not any(q.start <= m.start() < q.start + len(q.text) for q in out):
            key = " ".join(m.group(0).lower().split()[-2:])
            out.append(Quantity(m.group(0), _FRACTIONS[key], "fraction", m.start()))
    return sorted(out, key=lambda q: q.start)


# "defaults to a quarter", "three quarters": a ratio in words ("a quarter of an hour" is a time, above).
_FRACTIONS = {"a half": 0.5, "one half": 0.5, "a third": 1 / 3, "one third": 1 / 3, "two thirds": 2 / 3,
              "a quarter": 0.25, "one quarter": 0.25, "three quarters": 0.75, "a fifth": 0.2, "one fifth": 0.2,
              "a tenth": 0.1, "one tenth": 0.1}
_FRACTION_OF_UNIT = re.compile(r"(?<![\w`])(?P<frac>" + "|".join(k.replace(" ", r"\s+") for k in _FRACTIONS) +
                               r")\s+of\s+an?\s+(?P<unit>second|minute|hour|day|week)\b", re.IGNORECASE)
_FRACTION_WORDS = re.compile(r"(?<![\w`])(?:" + "|".join(k.replace(" ", r"\s+") for k in _FRACTIONS) + r")(?![\w`])"
                             r"(?!\s+(?:of\s+)?an?\b)", re.IGNORECASE)


# "retries twice": a count in one word; "twice as long", "twice the delay" are factors. "once" is
# left out: it is mostly "as soon as".
_MULTIPLES = {"twice": 2.0, "thrice": 3.0}
_MULTIPLE = re.compile(r"(?<![\w`])(?:twice|thrice)(?![\w`])(?!\s+(?:as|the|that|this|its|their)\b)", re.IGNORECASE)


# A name that says its scale: a fraction (``drop_ratio``, ``fraction``: 0.25 is 25 %) or a
# percentage (``jitter_pct``: 25 is 25 %). Without one, both readings stay open.
_FRACTION_NAME = re.compile(r"(?:^|_)(?:ratio|fraction|frac)$")


def param_unit(name: str) -> tuple[str, float] | None:
    """(family, factor to base) from a parameter's unit suffix: ``timeout_ms`` -> (time, 1e-3),
    ``drop_ratio`` -> (ratio, 1.0)."""
    if _FRACTION_NAME.search(name.lower()):
        return "ratio", 1.0
    m = _SUFFIX_UNIT.search(name.lower())
    if m is None:
        return None
    key = {"millis": "ms", "pct": "%"}.get(m.group(1), m.group(1))
    return _FACTORS.get(_unit_key(key))


def readings(q: Quantity, param: str) -> list[float]:
    """The numbers the code could hold for ``q`` given the parameter's name."""
    own = param_unit(param)
    if own is not None:
        family, factor = own
        return [q.base / factor] if family == q.family else []
    if q.family == "time":
        return [q.number, q.base, q.base * 1000]
    if q.family == "angle":
        return [q.number, q.base, q.base * 180 / math.pi]
    if q.family == "size":
        # "8 KB" in code is 8000 or 8192 (the kibi- reading), or 8 in a KB-sized parameter.
        power = {"k": 1, "m": 2, "g": 3}.get(_unit_key(q.unit)[:1], 0)
        return [q.number, q.base, q.number * 1024 ** power]
    return [q.number, q.base]


def matches(q: Quantity, param: str, actual: float) -> bool | None:
    """True: some reading gives ``actual``; False: none does; None: the units can't meet."""
    options = readings(q, param)
    if not options:
        return None
    return any(math.isclose(actual, v, rel_tol=1e-6, abs_tol=1e-12) for v in options)


def restate(q: Quantity, param: str, actual: float) -> str | None:
    """``actual`` written in ``q``'s unit (``500 ms``), when the parameter's unit is known
    (its suffix, or seconds for a time without one: Python's convention)."""
    own = param_unit(param)
    if own is not None:
        family, factor = own
    elif q.family == "time":
        family, factor = "time", 1.0
    else:
        return None
    if family != q.family:
        return None
    value = actual * factor / _FACTORS[_unit_key(q.unit)][1]
    shown = f"{value:.6g}"
    sep = "" if q.unit in ("%", "°") else " "
    unit = q.unit
    if unit.isalpha() and len(unit) > 3 and not unit.endswith("s") and unit.lower() != "percent" and value != 1:
        unit += "s"  # "half a second" restated as "0.25 seconds"
    return f"{shown}{sep}{unit}"


# A full stop after the number ends the sentence ("defaults to 64."); one before a character is part
# of a version, a path or a name.
_BARE = re.compile(r"(?<![\w./:#-])(\d+(?:_\d+)*(?:\.\d+)?)(?![\w/:%°-]|\.[^\s]|\s*(?:%|°|\)))")


def bare_numbers(text: str) -> list[tuple[float, int]]:
    """(number, offset) of every plain number written in digits outside code spans, not
    hedged as a bound or an example and not carrying a unit (those are ``quantities``)."""
    prose = re.sub(r"(`+)(.+?)\1", lambda m: " " * len(m.group(0)), text)
    unit_spans = [(q.start, q.start + len(q.text)) for q in quantities(prose)]
    out: list[tuple[float, int]] = []
    for m in _BARE.finditer(prose):
        if any(lo <= m.start() < hi for lo, hi in unit_spans) or QUANTITY.match(prose, m.start()):
            continue
        if _HEDGE.search(prose[: m.start()]):
            continue
        out.append((float(m.group(1).replace("_", "")), m.start()))
    return out
