"""Which printed outputs that differ from a doc's ``>>>`` example are still the output the doc shows.

Three differences are the run's, not the doc's: a value each run prints anew (an object's address
``at 0x7f..``, the time stamp of the moment it ran, a time-based or random uuid), the module a name the doc defines lives in (a
REPL calls it ``__main__``; docs write the bare name, as a doctest runner that names the module
after the file would not print ``__main__`` either), runs of spaces that pad columns and the colour
codes a terminal renders (``\x1b[1m``), which a reader never sees as text. An
exception the doc's traceback shows by class but with other wording is a fourth kind: doctest
runners in documentation builds compare the class alone by default (Sphinx's
``doctest_default_flags`` include ``IGNORE_EXCEPTION_DETAIL``), and messages change wording between
Python versions, so the class is checked and the message is not: ``unverified``, never a flag.

An expected output made only of ``#`` comments describes the output rather than showing it:
``unverified`` too.

Anything else that differs (another value, another exception class, a raise the doc does not
show) stays a stale example.
"""

from __future__ import annotations

import datetime as dt
import doctest
import re
from collections.abc import Sequence
from dataclasses import dataclass

from caas_tui.review.execute.session import ExampleOutcome
from caas_tui.review.execute.statedvalues import literal_equal

_ADDRESS = re.compile(r"\bat 0x[0-9A-Fa-f]+\b")
_STAMP = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?")
_MAIN = re.compile(r"\b__main__\.(?=[A-Za-z_])")
# version 1 (time) and 4 (random) ids differ per run; 3 and 5 are a name's hash, compared as printed
_RANDOM_UUID = re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[14][0-9a-fA-F]{3}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")
_ANY_UUID = re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")  # colour a terminal renders, never text a reader sees
_SPACES = re.compile(r"[ \t]{2,}")
_FLAGS = doctest.ELLIPSIS
_NOW_DAYS = 1  # a stamp within a day of the run's clock is the run's own (time zones differ)


@dataclass(frozen=True, slots=True)
class Sorted:
    stale: tuple[ExampleOutcome, ...]  # printed something else: the doc's example is stale
    worded: tuple[ExampleOutcome, ...]  # raised the class the doc shows (or a subclass), printed otherwise
    run_specific: tuple[ExampleOutcome, ...]  # differs only in what each run prints anew
    described: tuple[ExampleOutcome, ...] = ()  # the doc says in a comment what it prints (``# no output!``)


def _is_now(m: re.Match[str], today: dt.date) -> bool:
    try:
        day = dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return False
    return abs((day - today).days) <= _NOW_DAYS


def _mask(want: str, got: str, today: dt.date) -> tuple[str, str]:
    """``want`` and ``got`` with the run's own values written alike on both sides."""
    got = _RANDOM_UUID.sub("<uuid>", _ADDRESS.sub("at 0x…", _ANSI.sub("", got)))
    if "<uuid>" in got:
        want = _ANY_UUID.sub("<uuid>", want)
    want = _ADDRESS.sub("at 0x…", want)
    if "__main__." not in want:
        got = _MAIN.sub("", got)
    if any(_is_now(m, today) for m in _STAMP.finditer(got)):  # the run stamped the time it ran
        got = _STAMP.sub(lambda m: "<time>" if _is_now(m, today) else m.group(0), got)
        want = _STAMP.sub("<time>", want)
    return "\n".join(_SPACES.sub(" ", line) for line in want.split("\n")), "\n".join(
        _SPACES.sub(" ", line) for line in got.split("\n"))


def run_specific(want: str, got: str, today: dt.date | None = None) -> bool:
    """Whether ``got`` is ``want`` once the run's own values are set aside (``want`` keeps its ``...``)."""
    w, g = _mask(want, got, today or dt.date.today())
    return (w, g) != (want, got) and doctest.OutputChecker().check_output(w, g, _FLAGS)


def described_only(want: str) -> bool:
    """Whether an example's expected output is only ``#`` comments: words about the output (``# no
    output!``, ``# prints the config``), which the REPL never prints and nothing can compare."""
    lines = [line.strip() for line in want.split("\n") if line.strip()]
    return bool(lines) and all(line.startswith("#") for line in lines)


def sort_examples(examples: Sequence[ExampleOutcome], today: dt.date | None = None) -> Sorted:
    """The examples whose output differs, by whether the doc is wrong (a set or a dict the doc shows
    in another order is the same value, as is a differing run-specific value)."""
    stale, worded, specific, described = [], [], [], []
    for e in examples:
        if e.ok is not False or literal_equal(e.want, e.got):
            continue
        if e.raised_as_shown:
            worded.append(e)
        elif described_only(e.want):
            described.append(e)
        elif run_specific(e.want, e.got, today):
            specific.append(e)
        else:
            stale.append(e)
    return Sorted(tuple(stale), tuple(worded), tuple(specific), tuple(described))


def worded_rationale(worded: Sequence[ExampleOutcome]) -> str:
    first = worded[0]
    shown = first.want.strip().splitlines()[-1] if first.want.strip() else ""
    got = first.got.strip().splitlines()[-1] if first.got.strip() else ""
    more = f" (and {len(worded) - 1} more)" if len(worded) > 1 else ""
    return (f"unverified: it raises the exception class the doc's traceback shows (or a subclass of it), printed "
            f"otherwise: the doc shows {shown!r}, running it prints {got!r}{more}; only the class was checked")
