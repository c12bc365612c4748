"""The session child's probes (``child.py`` loads this file by path): one prose claim's stated call,
evaluated in a fork of the session with a copy of its working directory, so nothing it does reaches a
later block; the result goes back over a pipe. Standard library only, like ``child.py``.
"""

import importlib
import inspect
import io
import json
import os
import select
import signal
import sys
import time
import traceback
from contextlib import redirect_stderr, redirect_stdout, suppress
from typing import Any

_exception: Any = None  # ``child.py``'s error report and value text, set by ``configure``
_shown: Any = None
OUTPUT_CHARS = 4000


def configure(exception, shown, output_chars):
    global _exception, _shown, OUTPUT_CHARS
    _exception, _shown, OUTPUT_CHARS = exception, shown, output_chars


PROBE_FILE = "<probe>"
_MAX_RESOLVED = 5


_MAX_MODULES = 200


def _resolve(name, packages):
    """A free name a probe uses, taken from the project when its modules hold exactly one class or
    function of that name (a reader of the docs has imported it, ``Decimal`` included): the top-level
    packages first, then their submodules (imported in the probe's fork only); None when none or
    several do. A lower-case placeholder (``key``, ``client``) matches no class or function."""
    for deep in (False, True):
        found: dict = {}
        for pkg in packages:
            for module in _modules(pkg, deep):
                obj = getattr(module, name, None)
                if inspect.isclass(obj) or inspect.isroutine(obj):  # one object imported by many modules is one
                    found.setdefault(id(obj), (getattr(obj, "__module__", None) or module.__name__, obj))
        if len(found) == 1:
            return next(iter(found.values()))
        if found:
            return None
    return None


def _modules(pkg, deep):
    try:
        top = importlib.import_module(pkg)
    except Exception:  # a package that does not import leaves the name free
        return []
    if not deep:
        return [top]
    import pkgutil

    out: list = []
    for info in pkgutil.walk_packages(getattr(top, "__path__", []), pkg + "."):
        if len(out) >= _MAX_MODULES or any(part in ("tests", "test") for part in info.name.split(".")):
            continue
        try:
            out.append(importlib.import_module(info.name))
        except Exception:  # a submodule that needs what is not installed is simply not a source
            continue
    return out


def _probe_eval(source, ns, packages, resolved, printed=None):
    """Evaluate ``source``, binding free project names on the way (in this fork's namespace only)."""
    while True:
        buf = io.StringIO()
        try:
            with redirect_stdout(buf), redirect_stderr(buf):
                value = eval(compile(source, PROBE_FILE, "eval"), ns)
            if printed is not None:
                printed.append(buf.getvalue())
            return value, None
        except NameError as exc:
            hit = _resolve(exc.name, packages) if exc.name and len(resolved) < _MAX_RESOLVED else None
            if hit is None or exc.name in ns:
                return None, exc
            ns[exc.name] = hit[1]
            resolved.append(f"{hit[0]}.{exc.name}")
        except BaseException as exc:  # the probed call may raise anything, SystemExit included
            return None, exc


def _probe_result(probe, ns, packages):
    resolved: list = []
    printed: list = []
    if probe.get("base"):  # a derived probe: the call it was built from must work here first
        _, base_error = _probe_eval(probe["base"], ns, packages, resolved)
        if base_error is not None:
            return {"status": "crashed", "note": "the call it was built from raises here: "
                    + "".join(traceback.format_exception_only(type(base_error), base_error)).strip()[-300:]}
    value, error = _probe_eval(probe["source"], ns, packages, resolved, printed)
    out: dict = {"resolved": resolved, "printed": "".join(printed)[:OUTPUT_CHARS]}
    if error is None and probe["kind"] in ("equal", "distinct"):
        other, error = _probe_eval(probe["other"], ns, packages, resolved)
        if error is None:
            out["hash_equal"] = _same_hash(value, other)
            try:
                value = bool(value == other)
            except Exception as exc:  # an ``__eq__`` that raises is the project's answer
                error = exc
    if error is not None:
        out.update(status="raised", exception=_exception(error))
        return out
    out.update(status="value", str=_shown(str, value), repr=_shown(repr, value), none=value is None,
               type=type(value).__name__)
    if probe.get("want_code"):
        want, want_error = _probe_eval(probe["want"], ns, packages, [])
        if want_error is not None:
            out["want_error"] = "".join(traceback.format_exception_only(type(want_error), want_error)).strip()[-300:]
            return out
        out["want_repr"] = _shown(repr, want)
        kind = getattr(want, "__origin__", want)  # ``list[Money]`` states the type ``list``
        if inspect.isclass(kind):  # ``returns `Money```: a type, met by any instance of it
            out["want_type"] = True
            out["want_equal"] = isinstance(value, kind)
            return out
        try:
            out["want_equal"] = bool(type(want) is type(value) and want == value)
        except Exception:  # a comparison that raises decides nothing
            out["want_equal"] = None
    return out


def _same_hash(a, b):
    """Whether two values would be one key of a dict or set (None: one is unhashable)."""
    try:
        return hash(a) == hash(b)
    except TypeError:
        return None


_MAX_COPIED = 500  # files of the working directory a probe gets a copy of


def _scratch():
    """A copy of the session's working directory (the files earlier blocks wrote) for one probe, so
    what the probe writes there never reaches a later block; None when it is too big to copy."""
    import shutil
    import tempfile

    here = os.getcwd()
    count = sum(len(files) for _, _, files in os.walk(here))
    if count > _MAX_COPIED:
        return None
    copy = tempfile.mkdtemp(prefix="caas-probe-")
    shutil.copytree(here, copy, dirs_exist_ok=True, symlinks=True)
    return copy


def _run_probe(probe, ns, packages, seconds):
    """One probe in a fork: whatever it does to the namespace or the process dies with the fork, and
    it works in a copy of the working directory, so later blocks see what they would have seen without it."""
    try:
        scratch = _scratch()
    except OSError as exc:
        return {"status": "crashed", "note": f"cannot copy the working directory for a probe: {exc}"}
    if scratch is None:
        return {"status": "crashed", "note": "the working directory is too big to copy for an isolated probe"}
    try:
        return _forked(probe, ns, packages, seconds, scratch)
    finally:
        import shutil

        shutil.rmtree(scratch, ignore_errors=True)


def _forked(probe, ns, packages, seconds, scratch):
    read_fd, write_fd = os.pipe()
    try:
        pid = os.fork()
    except OSError as exc:
        os.close(read_fd)
        os.close(write_fd)
        return {"status": "crashed", "note": f"cannot fork a probe: {exc}"}
    if pid == 0:
        os.close(read_fd)
        os.chdir(scratch)
        if "random" in sys.modules:  # a fork copies the seed: each run draws as a fresh interpreter would
            sys.modules["random"].seed()
        try:
            signal.setitimer(signal.ITIMER_REAL, seconds)  # SIGALRM's default action ends the fork
            data = json.dumps(_probe_result(probe, dict(ns), packages), default=str).encode()
        except BaseException as exc:  # reported, never raised into the session
            data = json.dumps({"status": "crashed", "note": f"the probe failed to report: {exc!r}"}).encode()
        signal.setitimer(signal.ITIMER_REAL, 0)
        while data:
            data = data[os.write(write_fd, data):]
        os._exit(0)
    os.close(write_fd)
    chunks = []
    deadline = time.monotonic() + seconds + 1.0
    timed_out = False
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = True
            break
        ready, _, _ = select.select([read_fd], [], [], left)
        if not ready:
            continue
        chunk = os.read(read_fd, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_fd)
    if timed_out:
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    if chunks:
        try:
            return json.loads(b"".join(chunks))
        except ValueError:
            pass
    if timed_out or (os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGALRM, signal.SIGKILL)):
        return {"status": "timeout", "note": f"timed out after {seconds:g} s"}
    return {"status": "crashed", "note": f"the probe's process died (status {status})"}


def probe_block(block, ns, packages):
    seconds = float(block.get("seconds") or 2.0)
    results = []
    for probe in block["probes"]:
        result = _run_probe(probe, ns, packages, seconds)
        if result.get("status") == "value" and probe["kind"] != "no-raise":
            # a second fork from the same state: a value that differs is random or a time, not an answer
            again = _run_probe(probe, ns, packages, seconds)
            result["varies"] = (again.get("str"), again.get("repr")) != (result.get("str"), result.get("repr"))
        results.append(result)
    return {"status": "ok", "output": "", "probes": results}
