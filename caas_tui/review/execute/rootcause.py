"""Raises that are not one defect each: setup the doc asks for that the run could not reproduce, and
one failure repeated across a doc's blocks.

* A block that looked up an environment variable the doc names as one (``export``, "set the
  ``NAME`` environment variable") and the replay could not set (no value shown, a placeholder, a
  value expanding the reader's shell), or opened a file the doc names but never shows, failed for
  the sandbox's lack: ``unverified``.
* A block raising the very error an earlier block of the same run raised (same class, message and
  raising line, inside library or project code rather than the block's own lines) meets the same
  root cause: the first keeps its ``contradicted``, the later ones point at it. The raising line
  being one and the same is what keeps this narrow: a second defect elsewhere raises elsewhere.
"""

from __future__ import annotations

import dataclasses
import os
import re

from caas_tui.models import Verdict
from caas_tui.review.execute.docsetup import DocSetup, safe_name
from caas_tui.review.execute.runenv import SANDBOX_VARIABLES, doc_sets_variable
from caas_tui.review.execute.session import BlockOutcome, RaisedError

_NOT_SETUP = ("NameError", "SyntaxError")  # a name the doc's own code lacks, not the environment's
_ENV_NAME = re.compile(r"^[A-Z][A-Z0-9_]{2,}$")

FailureKey = tuple[str, str, str, str, int]


def failure_key(err: RaisedError) -> FailureKey | None:
    """What identifies a failure raised inside library or project code; None when the block's own
    line raised it (a call the signature rejects, a name the API lacks: each block's own claim)."""
    if not err.frames or err.frames[-1].file.startswith("<block") or err.is_a(*_NOT_SETUP):
        return None
    last = err.frames[-1]
    return err.type, err.module, err.message, last.file, last.line


class RootCauses:
    """One doc run's record of what its setup gave and which library failures were already met."""

    def __init__(self, doc_text: str, setup: DocSetup, root: str) -> None:
        self.doc_text = doc_text
        self.setup = setup
        self.root = root
        self.not_replayed = dict(setup.not_replayed)
        self.shown = {os.path.basename(n) for n in setup.files()}
        self.first: dict[FailureKey, int] = {}  # failure -> doc line of the first block raising it

    def unreproduced(self, line: int, outcome: BlockOutcome) -> str | None:
        """Why the raise follows setup the doc asks for and the run could not reproduce."""
        err = outcome.error
        if err is None or err.is_a(*_NOT_SETUP):
            return None
        given = self.setup.variables(line)
        # met on the failing call chain: a call the traceback goes through looked it up
        failing = {(f.file, f.qualname) for f in err.frames}
        for name in (m.name for m in outcome.env_missing if failing.intersection(m.stack)):
            if (name in given or name in SANDBOX_VARIABLES or not _ENV_NAME.match(name)
                    or not doc_sets_variable(name, self.doc_text)):
                continue
            why = self.not_replayed.get(name)
            how = f"sets it to a value the sandbox does not replay: {why}" if why else "never gives it a value"
            return f"it looks up the environment variable {name}, which the doc names but {how} ({err.text})"
        for path in (m.name for m in outcome.files_missing if failing.intersection(m.stack)):
            base = os.path.basename(path)
            if (path.startswith(self.root + os.sep) or base in self.shown or not safe_name(base) or "." not in base
                    or not re.search(rf"(?<![\w./-]){re.escape(base)}(?![\w-])", self.doc_text)):
                continue
            return (f"it opens {base}, a file the doc names but does not show, so the sandbox's working directory "
                    f"lacks it ({err.text})")
        return None

    def replayed(self, line: int, text: str) -> str:
        """What of the replayed setup a block that ran names (its variables, its files): the run
        depended on it, and the rationale says so."""
        names = sorted(n for n in {*self.setup.variables(line), *self.setup.files(line)}
                       if re.search(rf"(?<![\w.-]){re.escape(n)}(?![\w-])", text))
        return f"; after the setup the doc shows ({', '.join(names)}) was replayed" if names else ""

    def repeated(self, err: RaisedError | None) -> str | None:
        key = failure_key(err) if err is not None else None
        first = self.first.get(key) if key is not None else None
        if first is None:
            return None
        assert err is not None
        return f"same failure as the block at line {first}: one root cause ({err.text})"

    def record(self, line: int, err: RaisedError | None) -> None:
        """A block at doc ``line`` was flagged for ``err``: later blocks raising it point here."""
        key = failure_key(err) if err is not None else None
        if key is not None:
            self.first.setdefault(key, line)

    def settle(self, line: int, text: str, outcome: BlockOutcome, verdict: Verdict) -> tuple[Verdict, bool]:
        """The block at doc ``line``'s verdict once its setup and the doc's earlier failures are
        weighed, and whether it stopped for the environment's reason (unreproduced setup)."""
        if verdict.verdict == "contradicted" and outcome.error is not None:
            unset = self.unreproduced(line, outcome)
            why = unset or self.repeated(outcome.error)
            if why:
                return dataclasses.replace(verdict, verdict="unverified", fix=None, rationale=f"unverified: {why}"), (
                    unset is not None)
            self.record(line, outcome.error)
        elif outcome.status == "ok":
            verdict = dataclasses.replace(verdict, rationale=verdict.rationale + self.replayed(line, text))
        return verdict, False
