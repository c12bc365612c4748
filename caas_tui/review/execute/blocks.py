"""Which of a doc's code claims run, and how: Python blocks as code, ``>>>`` blocks as doctests."""

from __future__ import annotations

import ast
import doctest
import re
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from caas_tui.models import Claim
from caas_tui.review.execute.probes import PROBE_SECONDS, Probe, ProbePlan, plan_probes
from caas_tui.review.execute.stated import Stated, pieces, plan_stated

RunMode = Literal["exec", "doctest", "skip", "probe"]
_LANG = re.compile(r"code block \(([\w+.#-]+)\)", re.IGNORECASE)
PYTHON_LANGS = frozenset({"python", "py", "python3", "py3", "testcode", "jupyter-execute", "ipython", "ipython3"})
DOCTEST_LANGS = frozenset({"pycon", "doctest", "python-repl", "pyrepl"})
SHELL_LANGS = frozenset({"console", "bash", "sh", "shell", "shell-session", "shellsession", "zsh", "bat", "powershell",
                         "ps1", "cmd", "doscon"})


@dataclass(frozen=True, slots=True)
class Example:
    source: str
    want: str
    offset: int  # 0-based line of the ``>>>`` prompt within the block
    want_offset: int  # 0-based first line of the expected output
    want_lines: int
    flags: int = doctest.ELLIPSIS  # the example's ``# doctest: +FLAG`` directives on top of ELLIPSIS


@dataclass(frozen=True, slots=True)
class RunBlock:
    claim: Claim
    mode: RunMode
    reason: str = ""  # why a ``skip`` block is not run
    examples: tuple[Example, ...] = ()
    stated: tuple[Stated, ...] = ()  # outputs an ``exec`` block states in comments
    probes: tuple[Probe, ...] = ()  # a prose or field claim's stated call outcomes (mode ``probe``)
    rest: bool = False  # ... and whether the sentence asserts more than them
    condition: str = ""  # ... and the condition word it states them under

    def request(self, index: int) -> dict[str, object]:
        examples = [{"source": e.source, "want": e.want, "line": e.offset, "flags": e.flags} for e in self.examples]
        out: dict[str, object] = {"index": index, "mode": self.mode, "source": self.claim.text, "examples": examples}
        if self.stated:
            out["pieces"] = pieces(self.claim.text, self.stated)
        if self.probes:
            out.update(probes=[p.request() for p in self.probes], seconds=PROBE_SECONDS)
        return out


def block_language(claim: Claim) -> str:
    m = _LANG.search(claim.context)
    return m.group(1).lower() if m else ""


def _examples(text: str) -> tuple[Example, ...]:
    out = []
    for ex in doctest.DocTestParser().get_examples(text):
        if ex.options.get(doctest.SKIP):
            continue
        flags = doctest.ELLIPSIS
        for flag, on in ex.options.items():
            flags = flags | flag if on else flags & ~flag
        source_lines = ex.source.count("\n") or 1
        want_lines = ex.want.count("\n")
        out.append(Example(ex.source, ex.want, ex.lineno, ex.lineno + source_lines, want_lines, flags))
    return tuple(out)


def plan_block(claim: Claim) -> RunBlock:
    lang = block_language(claim)
    text = claim.text
    if text.lstrip().startswith(">>>") and lang not in SHELL_LANGS:
        try:
            examples = _examples(text)
        except ValueError as exc:
            return RunBlock(claim, "skip", f"unverified: doctest block does not parse ({exc})")
        if not examples:
            return RunBlock(claim, "skip", "unverified: every example is marked +SKIP, not run")
        return RunBlock(claim, "doctest", examples=examples)
    if lang in SHELL_LANGS or text.lstrip().startswith("$ "):
        return RunBlock(claim, "skip", "unverified: shell block, not run")
    if lang in DOCTEST_LANGS:
        return RunBlock(claim, "skip", "unverified: no >>> prompt in a console block, not run")
    if lang in PYTHON_LANGS:
        try:
            # compiled to code, not only parsed: ``return`` or ``yield`` outside a function (a function's
            # body shown alone) parses and fails only here
            with warnings.catch_warnings():  # a ``SyntaxWarning`` is the run's to show, not the planner's
                warnings.simplefilter("ignore")
                compile(text, "<block>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)
        except SyntaxError as exc:
            # Fragments with "..." placeholders are illustrations, not programs a reader runs.
            return RunBlock(claim, "skip", f"unverified: not runnable as written (syntax error line {exc.lineno})")
        return RunBlock(claim, "exec", stated=plan_stated(text))
    if not lang:
        return RunBlock(claim, "skip", "unverified: untagged block, not run")
    return RunBlock(claim, "skip", f"unverified: {lang} block, not run")


def plan_doc(claims: Sequence[Claim], derive: Callable[[Claim], ProbePlan | None] | None = None) -> list[RunBlock]:
    """One plan per code claim and per prose or field claim stating a call's outcome, in document
    order: a probe runs after the blocks above it, so it sees the names they bound."""
    out = []
    for c in sorted(claims, key=lambda c: c.start_line):
        if c.kind == "code":
            out.append(plan_block(c))
            continue
        plan: ProbePlan | None = plan_probes(c)
        if plan is not None and not plan.probes and derive is not None:
            plan = derive(c)  # a ``Raises`` field with no call written: one built from the project's own
        if plan is not None and plan.probes:
            out.append(RunBlock(c, "probe", probes=plan.probes, rest=plan.rest, condition=plan.condition))
    return out
