"""``ExecuteReviewer``: a doc's code blocks are run, and each outcome becomes a verdict.

A traceback through the project's own code is evidence a reader can open, and so are the
project definitions an example with stale printed output calls; failures the
environment causes (a third-party module not installed, no display, no network, a data
file the doc says to download, the sandbox refusing) are ``unverified``, never a defect.
"""

from __future__ import annotations

import ast
import dataclasses
import errno
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

from caas_tui.models import Claim, EvidenceSpan, Fix, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review.base import ReviewProgress
from caas_tui.review.execute.blocks import Example, RunBlock, plan_doc
from caas_tui.review.execute.derived import derived_plan
from caas_tui.review.execute.docsetup import attach, doc_setup
from caas_tui.review.execute.intent import (
    block_line,
    intended,
    provided_by_reader,
    refused_inside,
    refused_stated_raise,
    set_outside_python,
)
from caas_tui.review.execute.outcome import encode_outcome
from caas_tui.review.execute.probejudge import CALL_REJECTED, probe_verdict
from caas_tui.review.execute.probes import ProbePlan
from caas_tui.review.execute.pythons import pick_python
from caas_tui.review.execute.rootcause import RootCauses
from caas_tui.review.execute.runenv import left_unset, optional_missing, reads_any, sandbox_lacks, stdlib_lacks
from caas_tui.review.execute.runoutput import sort_examples, worded_rationale
from caas_tui.review.execute.sandbox import Limits
from caas_tui.review.execute.session import BlockOutcome, ExampleOutcome, Frame, RaisedError, run_session
from caas_tui.review.execute.stated import judge, unchecked_comments
from caas_tui.review.execute.statedfix import stated_verdict
from caas_tui.review.textutil import counted, read_text, span_sha256, split_lines

REVIEWER = "execute"
_BLOCK_FILE = re.compile(r"^<block (\d+)(?::(\d+))?>$")
_ENV_SKIP_DIRS = (".venv", "venv", "site-packages", "dist-packages")
_SANDBOX_ERRNOS = {errno.EROFS, errno.EACCES, errno.EPERM, errno.ENETUNREACH, errno.EAGAIN, errno.ECONNREFUSED,
                   errno.EHOSTUNREACH, errno.ENOSPC, errno.EFBIG}
_NO_DISPLAY = re.compile(r"no display|\$DISPLAY|cannot open display|couldn't connect to display", re.IGNORECASE)
_DOWNLOAD = re.compile(r"\bdownload", re.IGNORECASE)
_PRINTED = "called by the example whose output differs"
_MAX_EVIDENCE = 4


def called_names(source: str) -> list[str]:
    """Dotted names an example calls, in source order: ``w.count()`` -> ``w.count``, and
    ``World().count()`` -> ``World.count`` (the method, not also the class)."""
    try:
        tree = compile(source, "<example>", "exec", flags=ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    except (SyntaxError, ValueError):
        return []
    out: list[tuple[int, int, str]] = []
    chained: set[int] = set()  # calls inside a longer chain (ast.walk reaches the outer call first)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and id(node) not in chained:
            parts: list[str] = []
            func = node.func
            while isinstance(func, ast.Attribute | ast.Call):
                if isinstance(func, ast.Call):
                    chained.add(id(func))
                    func = func.func
                    continue
                parts.append(func.attr)
                func = func.value
            if isinstance(func, ast.Name):
                out.append((node.lineno, node.col_offset, ".".join([func.id, *reversed(parts)])))
    return list(dict.fromkeys(name for *_, name in sorted(out)))


def module_name(doc_path: str) -> str | None:
    """The importable module a ``.py`` doc is, None for other docs."""
    if not doc_path.endswith(".py"):
        return None
    parts = doc_path.removesuffix(".py").split("/")
    if parts[0] == "src":
        parts = parts[1:]
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts) or None


class ExecuteReviewer:
    """``Reviewer`` implementation: one sandboxed session per doc."""

    name = REVIEWER
    doc_context = True  # a block runs after every block before it: they bind the names it uses

    def __init__(self, python: str | None = None, limits: Limits | None = None, *,
                 use_bwrap: bool | None = None) -> None:
        self.python = python
        self.limits = limits or Limits()
        self.use_bwrap = use_bwrap
        self.notes: list[str] = []  # the interpreter line and sandbox warnings, each once
        self._told = 0

    def _note(self, line: str | None) -> None:
        if line and line not in self.notes:
            self.notes.append(line)

    def take_notes(self) -> list[str]:
        """Notes not handed out yet (a front end prints each once per run)."""
        fresh, self._told = self.notes[self._told:], len(self.notes)
        return fresh

    def review(self, claims: Sequence[Claim], engine: Engine, *, progress: ReviewProgress | None = None) -> list[Verdict]:
        root = engine.root.resolve()
        choice = pick_python(root, self.python)
        self._note(choice.line)
        by_doc: dict[str, list[Claim]] = defaultdict(list)
        for c in claims:
            by_doc[c.doc_path].append(c)
        judged: dict[str, Verdict] = {}
        done = 0
        for doc, doc_claims in by_doc.items():
            plan = plan_doc(doc_claims, self._deriver(root, doc))
            doc_text = read_text(root / doc) if (root / doc).is_file() else ""
            setup = doc_setup(doc, doc_text)  # what a reader following the doc set up before each block
            result = run_session(root, choice.path, plan, self.limits, use_bwrap=self.use_bwrap,
                                 module=module_name(doc), setup=attach(plan, setup))
            self._note(result.warning)
            judge = _Judge(root, doc_text, engine, RootCauses(doc_text, setup, str(root)))
            for block, outcome in zip(plan, result.outcomes, strict=True):
                judged[block.claim.id] = judge.verdict(block, outcome)
            done += len(doc_claims)
            if progress is not None:
                progress(done, len(claims), doc)
        return [judged.get(c.id) or Verdict(c.id, "unverified", REVIEWER, "not a code block") for c in claims]


    @staticmethod
    def _deriver(root: Path, doc: str) -> Callable[[Claim], ProbePlan | None] | None:
        """A docstring doc's ``Raises`` fields may get probes built from the project's own calls."""
        if module_name(doc) is None or not (root / doc).is_file():
            return None
        source = read_text(root / doc)

        def derive(claim: Claim) -> ProbePlan | None:
            return derived_plan(claim, root, source)
        return derive


class _Judge:
    def __init__(self, root: Path, doc_text: str, engine: Engine, causes: RootCauses) -> None:
        self.root = root
        self.causes = causes
        self.engine = engine
        self.doc_text = doc_text
        self.doc_lines = split_lines(doc_text)
        self.earlier: list[str] = []  # the doc's blocks judged so far, in order
        self.says_download = bool(_DOWNLOAD.search(doc_text))
        self.failed_before = False
        self.lost = ""  # why an earlier block stopped short in the sandbox and not in a reader's session
        self._env_stop = False  # the block being judged raised for the environment's reason
        self.lost_names: frozenset[str] = frozenset()  # ... and the names it left half set up

    def verdict(self, block: RunBlock, outcome: BlockOutcome) -> Verdict:
        if block.mode == "probe":  # isolated in a fork: it neither fails nor changes what later blocks see
            return probe_verdict(REVIEWER, block, outcome, self)
        verdict = self._verdict(block, outcome)
        verdict, env_stop = self.causes.settle(block.claim.start_line, block.claim.text, outcome, verdict)
        self._env_stop = self._env_stop or env_stop
        if (verdict.verdict == "contradicted" and self.lost and (outcome.error is None or refused_inside(outcome.error))
                and reads_any(block.claim.text, self.lost_names)):
            # what this block uses may be what the stopped block never set up: fallout, not a finding
            verdict = dataclasses.replace(verdict, verdict="unverified", fix=None, rationale=(
                f"unverified: {verdict.rationale}; but an earlier block stopped short in the sandbox ({self.lost}), "
                "so what it sets up may be missing"))
        if outcome.status == "timeout" or (verdict.verdict == "unverified" and self._env_stop):
            self.lost = outcome.note or verdict.rationale.removeprefix("unverified: ")[:120]
            self.lost_names = left_unset(block.claim.text, block_line(outcome.error) if outcome.error else None)
        self._env_stop = False
        self.earlier.append(block.claim.text)
        if verdict.verdict == "contradicted" or outcome.status in ("exception", "timeout"):
            self.failed_before = True
        return dataclasses.replace(verdict, checks=encode_outcome(outcome, self._project_frames(outcome)))

    def _verdict(self, block: RunBlock, outcome: BlockOutcome) -> Verdict:
        cid = block.claim.id
        if outcome.status == "not-run":
            return Verdict(cid, "unverified", REVIEWER, outcome.note or "not run")
        if outcome.status in ("timeout", "crashed"):
            return Verdict(cid, "unverified", REVIEWER, f"unverified: {outcome.note}")
        if outcome.error is not None:
            meant = intended(block, outcome, self.doc_lines, self.earlier)
            # a reader's session goes on where this one stopped: what the block sets up is missing after it
            self._env_stop = provided_by_reader(outcome.error, block.claim.text, self.earlier, self.doc_lines) is not None
            return Verdict(block.claim.id, meant[0], REVIEWER, meant[1]) if meant else self._raised(block, outcome.error)
        differ = sort_examples(outcome.examples)
        if differ.stale:
            return self._stale_output(block, differ.stale)
        if differ.worded:
            return Verdict(cid, "unverified", REVIEWER, worded_rationale(differ.worded))
        if differ.described:
            return Verdict(cid, "unverified", REVIEWER, "unverified: the doc describes what an example prints in a "
                           f"comment ({differ.described[0].want.strip()!r}) rather than showing it")
        if outcome.examples:
            aside = (f" once the {counted(len(differ.run_specific), 'value')} each run prints anew (an address, "
                     "the time, the session's module name, column padding) are set aside") if differ.run_specific else ""
            return Verdict(cid, "consistent", REVIEWER, f"ran; {counted(len(outcome.examples), 'printed output')} "
                           + ("matches" if len(outcome.examples) == 1 else "match") + aside)
        if block.stated:
            refused = refused_stated_raise(block, outcome)
            if refused:  # the stated TypeError is the signature refusing the doc's call: a stale example
                return Verdict(cid, "contradicted", REVIEWER, f"running it raises {refused[1]}",
                               tuple(self._definition(refused[0], "the signature the call does not fit")))
            judged = judge(block.stated, outcome.stated)
            wrong = [j.stated.source for j in judged if j.status == "mismatch"]
            evidence = self._called_by(block.claim, [n for src in wrong for n in called_names(src)])
            verdict = stated_verdict(REVIEWER, block.claim, judged, self.doc_lines, evidence,
                                     unchecked_comments(block.claim.text, block.stated))
            # a fix rewrites a stated value; a stated raise that did not happen has no value to write
            raise_wrong = any(j.status == "mismatch" and j.stated.kind == "raises" for j in judged)
            return dataclasses.replace(verdict, fix=None) if raise_wrong else verdict
        return Verdict(cid, "unverified", REVIEWER, "ran without error")

    def raised_evidence(self, err: RaisedError) -> list[EvidenceSpan]:
        """A probe's traceback through the project, else the definition its call did not fit."""
        return self._evidence([f for f in err.frames if self._project_path(f) is not None]) or self._callee(err)

    def called_evidence(self, claim: Claim, sources: list[str]) -> list[EvidenceSpan]:
        return self._called_by(claim, [n for src in sources for n in called_names(src)])

    def environment(self, err: RaisedError) -> str | None:
        return self._environment(err)

    def _environment(self, err: RaisedError) -> str | None:
        """Why ``err`` is the environment's doing rather than the doc's, if it is."""
        outside = set_outside_python(err, self.doc_text) or sandbox_lacks(err) or stdlib_lacks(err)
        if outside:
            return outside
        if err.is_a("ModuleNotFoundError") and err.name:
            top = err.name.split(".")[0]
            if not ((self.root / top).is_dir() or (self.root / f"{top}.py").is_file()
                    or (self.root / "src" / top).is_dir()):
                return f"third-party module {err.name!r} is not installed in the chosen Python"
            return None
        if err.is_a("MemoryError"):
            return f"the sandbox's memory limit stopped it ({err.text})"
        if err.is_a("TclError") or _NO_DISPLAY.search(err.message):
            return f"no display in the sandbox ({err.text})"
        if err.is_a("gaierror", "ConnectionError", "TimeoutError", "URLError") or (
                err.is_a("OSError") and err.errno in _SANDBOX_ERRNOS):
            return f"the sandbox refused it ({err.text})"
        for bases, code in err.causes:  # a library's own error raised from the socket's (``ConnectError``)
            if {"gaierror", "ConnectionError", "URLError"} & set(bases) or ("OSError" in bases and code in _SANDBOX_ERRNOS):
                return f"the sandbox refused the network call under it ({err.text})"
        if err.is_a("FileNotFoundError"):
            if self.says_download:
                return f"a data file the doc says to download is missing ({err.text})"
            missing = Path(err.filename) if err.filename else None
            if missing is None or not missing.is_absolute() or not missing.is_relative_to(self.root):
                # blocks run in an empty temporary directory: files a reader would have there are not
                return f"a file it reads is missing in the empty working directory ({err.text})"
        if err.is_a("EOFError") and err.frames and err.frames[-1].file.startswith("<block"):
            return f"it waits for keyboard input; stdin is closed ({err.text})"  # ``input()``
        if err.is_a("SystemExit", "KeyboardInterrupt"):
            return f"the block exited ({err.text})"
        return None

    def _raised(self, block: RunBlock, err: RaisedError) -> Verdict:
        cid = block.claim.id
        env = self._environment(err) or optional_missing(err, block.claim.text, self.earlier, self.root)
        if env:
            self._env_stop = True
            return Verdict(cid, "unverified", REVIEWER, f"unverified: {env}")
        if err.is_a("NameError"):  # not an API of the project: a fragment, or fallout of an earlier failure
            why = "an earlier block that failed" if self.failed_before else "no earlier block"
            return Verdict(cid, "unverified", REVIEWER, f"unverified: uses a name {why} defines ({err.text})")
        frames = [f for f in err.frames if self._project_path(f) is not None]
        evidence = self._evidence(frames) or self._callee(err)
        where = f" in {evidence[-1].path}:{evidence[-1].start_line}" if evidence else ""
        line = self._doc_line(block, err.frames)
        at = f" (doc line {line})" if line else ""
        return Verdict(cid, "contradicted", REVIEWER, f"running it raises {err.text}{where}{at}", tuple(evidence))

    def _project_path(self, frame: Frame) -> str | None:
        path = Path(frame.file)
        if not path.is_absolute() or not path.is_relative_to(self.root):
            return None
        rel = path.relative_to(self.root)
        if any(part in _ENV_SKIP_DIRS for part in rel.parts):
            return None
        return rel.as_posix()

    def _evidence(self, frames: Sequence[Frame]) -> list[EvidenceSpan]:
        """The call that led into the project first, the raising line last (at most four frames)."""
        picked = list(frames) if len(frames) <= 4 else [*frames[:2], *frames[-2:]]
        out = []
        for f in picked:
            rel = self._project_path(f)
            assert rel is not None
            lines = split_lines(read_text(self.root / rel))
            module = rel.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
            symbol = module if f.qualname == "<module>" else f"{module}.{f.qualname}"
            role = "raised here" if f is picked[-1] else "called from here"
            out.append(EvidenceSpan(rel, f.line, f.line, symbol, span_sha256(lines, f.line, f.line), role))
        return out

    def _callee(self, err: RaisedError) -> list[EvidenceSpan]:
        """Raised before any project line ran: the definition the doc's call does not fit
        (``TypeError`` from a signature), or the class lacking an attribute (``AttributeError``)."""
        m = CALL_REJECTED.match(err.message) if err.is_a("TypeError") else None
        if m is not None:
            return self._definition(m.group(1), "the signature the call does not fit")
        if err.is_a("AttributeError") and err.owner and err.name:
            return self._definition(err.owner, f"defines no {err.name!r}")
        return []

    def _definition(self, name: str, note: str) -> list[EvidenceSpan]:
        defs = [c for c in self.engine.find_symbol(name, kinds=("code",))
                if c.symbol and (c.symbol == name or c.symbol.endswith("." + name)) and c.kind == "code"]
        if len(defs) != 1:
            return []
        d = defs[0]
        lines = split_lines(read_text(self.root / d.path))
        return [EvidenceSpan(d.path, d.start_line, d.end_line, d.symbol, span_sha256(lines, d.start_line, d.end_line),
                             note)]

    def _doc_line(self, block: RunBlock, frames: Sequence[Frame]) -> int | None:
        for f in reversed(frames):
            m = _BLOCK_FILE.match(f.file)
            if m:
                offset = int(m.group(2) or 0)
                return block.claim.start_line + offset + f.line - 1
        return None

    def _project_frames(self, outcome: BlockOutcome) -> tuple[str, ...]:
        if outcome.error is None:
            return ()
        return tuple(f"{p}:{f.line} {f.qualname}" for f in outcome.error.frames if (p := self._project_path(f)))

    def _stale_output(self, block: RunBlock, stale: Sequence[ExampleOutcome]) -> Verdict:
        """One fix for the block: every stale expected output replaced by what the code printed."""
        claim = block.claim
        first = stale[0]
        rationale = (f"printed output differs: the doc shows {first.want.strip()!r}, "
                     f"running it prints {first.got.strip()!r}")
        if len(stale) > 1:
            rationale += f" (and {len(stale) - 1} more output{'s' if len(stale) > 2 else ''})"
        by_offset = {e.offset: e for e in block.examples}
        evidence = tuple(self._printed_by(claim, [ex for s in stale if (ex := by_offset.get(s.offset))]))
        edits = sorted(e for s in stale if (ex := by_offset.get(s.offset)) and (e := self._output_edit(claim, ex, s.got)))
        if not edits or edits[-1][1] > len(self.doc_lines):
            return Verdict(claim.id, "contradicted", REVIEWER, rationale, evidence)
        start, end = edits[0][0], max(e[1] for e in edits)
        out: list[str] = []
        at = start
        for s_line, e_line, new in edits:
            out += self.doc_lines[at - 1 : s_line - 1]
            out += new
            at = e_line + 1
        out += self.doc_lines[at - 1 : end]
        return Verdict(claim.id, "contradicted", REVIEWER, rationale, evidence, fix=Fix(start, end, "\n".join(out)))

    def _printed_by(self, claim: Claim, examples: Sequence[Example]) -> list[EvidenceSpan]:
        """The project definitions the stale examples call (what printed the other output),
        else a docstring's own function: a reader opens them, and a change to them makes the
        verdict stale."""
        return self._called_by(claim, [n for ex in examples for n in called_names(ex.source)])

    def _called_by(self, claim: Claim, names: list[str]) -> list[EvidenceSpan]:
        out: list[EvidenceSpan] = []
        if not names and module_name(claim.doc_path) and claim.section:
            names = [claim.section]
        for name in dict.fromkeys(names):
            head, _, rest = name.partition(".")
            # ``w.count()``: a variable's method, known here by its own name only
            found = self._definition(name, _PRINTED) or (self._definition(rest, _PRINTED) if rest and head.islower()
                                                         else [])
            out += [e for e in found if e not in out]
        return out[:_MAX_EVIDENCE]

    def _output_edit(self, claim: Claim, example: Example, got: str) -> tuple[int, int, list[str]] | None:
        """Doc lines ``start..end`` and what replaces them so the example expects ``got``."""
        block_lines = claim.text.split("\n")
        if example.want_lines:
            start = claim.start_line + example.want_offset
            end = start + example.want_lines - 1
            template = block_lines[example.want_offset]
        else:  # expected nothing: keep the prompt's last line and add the output after it
            start = end = claim.start_line + example.want_offset - 1
            template = block_lines[example.want_offset - 1]
        if not 0 < start <= len(self.doc_lines):
            return None
        doc_line = self.doc_lines[start - 1]
        prefix = doc_line[: len(doc_line) - len(template)] if doc_line.endswith(template) else ""
        indent = template[: len(template) - len(template.lstrip())] if example.want_lines else ""
        # doctest reads an empty line as the end of the output: it must be spelled <BLANKLINE>
        new = [prefix + indent + (line if line.strip() else "<BLANKLINE>") for line in got.rstrip("\n").split("\n")]
        return (start, end, new) if example.want_lines else (start, end, [doc_line, *new])
