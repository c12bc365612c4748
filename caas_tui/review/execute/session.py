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
from collections.abc import Sequence
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

    def is_a(self, *names: str) -> bool:
        return any(n in self.bases for n in names)


@dataclass(frozen=True, slots=True)
class ExampleOutcome:
    offset: int  # 0-based line of the prompt within the block
    want: str
    got: str
    ok: bool | None  # None: raised before output could be compared


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
                       frames, d.get("name"), d.get("errno"), d.get("filename"), d.get("owner"))


def _outcome(d: dict[str, Any]) -> BlockOutcome:
    status = d.get("status")
    if status not in ("ok", "exception"):
        return BlockOutcome(int(d["index"]), "crashed", note=str(d.get("message", "bad report")))
    examples = tuple(ExampleOutcome(int(e["line"]), e["want"], e["got"], e["ok"]) for e in d.get("examples", ()))
    error = _error(d["exception"]) if status == "exception" else None
    output = d.get("output", "")
    stated = tuple(StatedGot(int(e["check"]), str(e["printed"]), bool(e.get("value")), str(e.get("str", "")),
                             str(e.get("repr", "")), bool(e.get("none"))) for e in d.get("stated", ()))
    return BlockOutcome(int(d["index"]), status, output, error, examples,
                        output_chars=max(int(d.get("output_chars") or 0), len(output)), stated=stated)


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
                use_bwrap: bool | None = None, module: str | None = None) -> SessionResult:
    """Run the runnable ``blocks`` (not ``skip``) of one doc in order in one namespace; ``module``
    (a docstring's module) is imported into it first."""
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
        request = {"paths": paths, "blocks": [b.request(i) for i, b in runnable],
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
