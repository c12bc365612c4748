"""Run one doc's blocks in a sandboxed child and read back one outcome per block.

The child (``child.py``) reports a ``start`` and a ``done`` JSON line per block; the
parent enforces the per-block and per-doc time limits and, on a timeout, kills the
child's whole process group.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from caas_tui.review.execute.blocks import RunBlock
from caas_tui.review.execute.sandbox import Launch, Limits, bwrap_path, launch, prepare_workdir, rlimits
from caas_tui.review.execute.stated import StatedGot

CHILD = Path(__file__).with_name("child.py")
Status = Literal["ok", "exception", "timeout", "not-run", "crashed"]
_STDERR_CHARS = 4000


@dataclass(frozen=True, slots=True)
class Frame:
    file: str  # absolute path, or ``<block N>`` / ``<block N:L>`` for the doc's own code
    line: int
    qualname: str


@dataclass(frozen=True, slots=True)
class RaisedError:
    type: str
    module: str
    bases: tuple[str, ...]  # the class names of its MRO
    message: str
    text: str  # the last line of the traceback, as Python prints it
    frames: tuple[Frame, ...]
    name: str | None = None  # ImportError/NameError/AttributeError name
    errno: int | None = None
    filename: str | None = None
    owner: str | None = None  # AttributeError: the class or module lacking the attribute
    causes: tuple[tuple[tuple[str, ...], int | None], ...] = ()  # (MRO names, errno) of what it was raised from

    def is_a(self, *names: str) -> bool:
        return any(n in self.bases for n in names)


@dataclass(frozen=True, slots=True)
class Lookup:
    """Something a block looked for and did not find, and the calls (file, qualname) it was under."""

    name: str
    stack: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class ExampleOutcome:
    offset: int  # 0-based line of the prompt within the block
    want: str
    got: str
    ok: bool | None  # None: raised before output could be compared
    raised_as_shown: bool = False  # ok False, but it raised the class the doc's traceback shows (other wording)


@dataclass(frozen=True, slots=True)
class ProbeGot:
    """What one probe's fork saw: a raised error, or the value (str, repr, type name)."""

    status: Literal["raised", "value", "timeout", "crashed"]
    error: RaisedError | None = None
    value_str: str = ""
    value_repr: str = ""
    value_type: str = ""
    is_none: bool = False
    printed: str = ""
    want_repr: str | None = None  # the stated value evaluated too, when it is inline code that runs
    want_equal: bool | None = None  # ... and equal to the value, of the same type (a type: an instance of it)
    want_type: bool = False  # the stated value is a type (``returns `Money```)
    want_error: str = ""  # the stated value is code that failed to evaluate here
    hash_equal: bool | None = None  # ``equal`` / ``distinct``: the two hash alike (None: unhashable)
    resolved: tuple[str, ...] = ()  # free names taken from the project's packages (``moneta.Money``)
    note: str = ""
    varies: bool = False  # a second run from the same state gave another value


@dataclass(frozen=True, slots=True)
class BlockOutcome:
    index: int
    status: Status
    output: str = ""
    error: RaisedError | None = None
    examples: tuple[ExampleOutcome, ...] = ()
    note: str = ""
    output_chars: int = 0  # length of everything printed; ``output`` may hold only the start
    stated: tuple[StatedGot, ...] = ()  # what ran for each stated output reached, in order
    probes: tuple[ProbeGot, ...] = ()  # a probe block's results, parallel to its probes
    env_missing: tuple[Lookup, ...] = ()  # environment variables the block looked up and did not find
    files_missing: tuple[Lookup, ...] = ()  # files it opened to read that are not there (absolute paths)


@dataclass(frozen=True, slots=True)
class SessionResult:
    outcomes: tuple[BlockOutcome, ...]  # parallel to the blocks given
    isolated: bool
    warning: str | None
    stderr: str
    seconds: float


def _error(d: dict[str, Any]) -> RaisedError:
    frames = tuple(Frame(str(f["file"]), int(f["line"] or 0), str(f.get("qualname") or f["name"])) for f in d["frames"])
    return RaisedError(str(d["type"]), str(d["module"]), tuple(d["mro"]), str(d["message"]), str(d["text"]).strip(),
                       frames, d.get("name"), d.get("errno"), d.get("filename"), d.get("owner"),
                       tuple((tuple(c.get("mro") or ()), c.get("errno")) for c in d.get("causes") or ()))


def _outcome(d: dict[str, Any]) -> BlockOutcome:
    status = d.get("status")
    if status not in ("ok", "exception"):
        return BlockOutcome(int(d["index"]), "crashed", note=str(d.get("message", "bad report")))
    examples = tuple(ExampleOutcome(int(e["line"]), e["want"], e["got"], e["ok"],
                                    bool(e.get("raised_as_shown"))) for e in d.get("examples", ()))
    error = _error(d["exception"]) if status == "exception" else None
    output = d.get("output", "")
    stated = tuple(StatedGot(int(e["check"]), str(e["printed"]), bool(e.get("value")), str(e.get("str", "")),
                             str(e.get("repr", "")), bool(e.get("none"))) for e in d.get("stated", ()))
    probes = tuple(_probe(p) for p in d.get("probes", ()))
    return BlockOutcome(int(d["index"]), status, output, error, examples,
                        output_chars=max(int(d.get("output_chars") or 0), len(output)), stated=stated, probes=probes,
                        env_missing=_lookups(d.get("env_missing")), files_missing=_lookups(d.get("files_missing")))


def _lookups(items: Any) -> tuple[Lookup, ...]:
    return tuple(Lookup(str(name), tuple((str(f), str(q)) for f, q in stack)) for name, stack in items or ())


def _probe(d: dict[str, Any]) -> ProbeGot:
    status = d.get("status")
    if status not in ("raised", "value", "timeout"):  # ``crashed``: also a derived probe's base call raising
        return ProbeGot("crashed", note=str(d.get("note") or "bad probe report"))
    if status == "timeout":
        return ProbeGot("timeout", note=str(d.get("note") or "timed out"))
    error = _error(d["exception"]) if status == "raised" else None
    want_equal, hash_equal = d.get("want_equal"), d.get("hash_equal")
    return ProbeGot(status, error, value_str=str(d.get("str", "")), value_repr=str(d.get("repr", "")),
                    value_type=str(d.get("type", "")), is_none=bool(d.get("none")), printed=str(d.get("printed", "")),
                    want_repr=str(d["want_repr"]) if d.get("want_repr") is not None else None,
                    want_equal=bool(want_equal) if want_equal is not None else None,
                    want_type=bool(d.get("want_type")), want_error=str(d.get("want_error") or ""),
                    hash_equal=bool(hash_equal) if hash_equal is not None else None,
                    resolved=tuple(str(n) for n in d.get("resolved", ())), varies=bool(d.get("varies")))


def project_packages(root: Path) -> list[str]:
    """The importable top-level packages of a project (``src/`` layout too), for names a probe
    uses without the doc importing them."""
    out = []
    for base in (root, root / "src"):
        if base.is_dir():
            out += sorted(p.name for p in base.iterdir() if (p / "__init__.py").is_file() and p.name.isidentifier()
                          and p.name not in ("tests", "test", "docs", "examples", "benchmarks"))
    return out


def _drain(stream: Any, sink: list[bytes]) -> None:
    size = 0
    for chunk in iter(lambda: stream.read(4096), b""):
        if size < _STDERR_CHARS:
            sink.append(chunk)
            size += len(chunk)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def run_session(root: Path, python: str, blocks: Sequence[RunBlock], limits: Limits | None = None, *,
                use_bwrap: bool | None = None, module: str | None = None,
                setup: Mapping[int, Mapping[str, object]] | None = None) -> SessionResult:
    """Run the runnable ``blocks`` (not ``skip``) of one doc in order in one namespace; ``module``
    (a docstring's module) is imported into it first, and ``setup`` (by block index: the doc's
    environment and files, ``docsetup.attach``) is replayed just before its block."""
    limits = limits or Limits()
    started = time.monotonic()
    runnable = [(i, b) for i, b in enumerate(blocks) if b.mode != "skip"]
    results: dict[int, BlockOutcome] = {}
    if not runnable:  # nothing to run: no process, no sandbox
        skipped = tuple(BlockOutcome(i, "not-run", note=b.reason) for i, b in enumerate(blocks))
        return SessionResult(skipped, use_bwrap is not False and bwrap_path() is not None, None, "", 0.0)
    workdir = Path(tempfile.mkdtemp(prefix="caas-exec-"))
    run: Launch = launch(python, CHILD, root, workdir, limits, use_bwrap=use_bwrap)
    err: list[bytes] = []
    proc: subprocess.Popen[bytes] | None = None
    try:
        prepare_workdir(workdir, run)
        top = root.resolve()
        paths = [str(top)] + ([str(top / "src")] if (top / "src").is_dir() else [])  # a src/ layout imports too
        requests = [{**b.request(i), **(setup or {}).get(i, {})} for i, b in runnable]
        request = {"paths": paths, "blocks": requests, "packages": project_packages(top),
                   "nproc": run.nproc, "drop_uid": run.drop_uid, "module": module}
        proc = subprocess.Popen(run.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                cwd=workdir, env=run.env, start_new_session=True, preexec_fn=rlimits(limits))
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        drain = threading.Thread(target=_drain, args=(proc.stderr, err), daemon=True)
        drain.start()
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.write(json.dumps(request).encode())
            proc.stdin.close()
        current, note = _read(proc, results, limits, started)
        if note:
            _kill(proc)
            if current is not None:
                results[current] = BlockOutcome(current, "timeout", note=note)
        else:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=5)
            _kill(proc)  # also whatever the doc's code left running in the group
            if current is not None:  # the child died inside a block (os._exit, a signal, a crash)
                code = proc.returncode
                how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
                results[current] = BlockOutcome(current, "crashed", note=f"the interpreter died running it ({how})")
        drain.join(timeout=2)
    finally:
        if proc is not None and proc.returncode is None:
            _kill(proc)
        shutil.rmtree(workdir, ignore_errors=True)
    stderr = b"".join(err).decode("utf-8", "replace")[:_STDERR_CHARS]
    outcomes = []
    for i, block in enumerate(blocks):
        if i in results:
            outcomes.append(results[i])
        elif block.mode == "skip":
            outcomes.append(BlockOutcome(i, "not-run", note=block.reason))
        else:
            outcomes.append(BlockOutcome(i, "not-run", note="not run: the session ended before this block"
                                         + (f" ({stderr.strip().splitlines()[-1]})" if stderr.strip() else "")))
    return SessionResult(tuple(outcomes), run.isolated, run.warning, stderr, time.monotonic() - started)


def _read(proc: subprocess.Popen[bytes], results: dict[int, BlockOutcome], limits: Limits,
          started: float) -> tuple[int | None, str]:
    """Collect ``done`` reports; on a time limit, the running block and why it was stopped."""
    assert proc.stdout is not None
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    buf = b""
    current: int | None = None
    block_started = time.monotonic()
    fd = proc.stdout.fileno()
    try:
        while True:
            now = time.monotonic()
            doc_left = limits.doc_seconds - (now - started)
            block_left = limits.block_seconds - (now - block_started) if current is not None else doc_left
            if doc_left <= 0:
                return current, f"timed out: the doc took over {limits.doc_seconds:g} s"
            if block_left <= 0:
                return current, f"timed out after {limits.block_seconds:g} s"
            if not sel.select(timeout=min(doc_left, block_left)):
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                return current, ""
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                if event.get("event") == "start":
                    current, block_started = int(event["index"]), time.monotonic()
                elif event.get("event") == "done":
                    results[int(event["index"])] = _outcome(event)
                    current = None
                elif event.get("event") == "end":
                    return None, ""
    finally:
        sel.close()
