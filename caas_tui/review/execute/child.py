"""The session child: runs one doc's blocks in order in ONE namespace, as a reader's REPL would.

Started by file path with the project's own interpreter, so it imports nothing but the
standard library (caas_tui need not be installed there). Reads one JSON request on stdin;
writes one JSON line per block on the original stdout, which is kept for the protocol:
fd 1 is pointed at stderr so that output written by the doc's code (or its children)
can never corrupt the protocol.
"""

import ast
import contextlib
import doctest
import importlib
import inspect
import io
import json
import os
import resource
import sys
import traceback
import warnings
from contextlib import redirect_stderr, redirect_stdout

NOBODY = 65534
OUTPUT_CHARS = 4000


def _drop_privileges(drop_uid, nproc):
    # RLIMIT_NPROC is not enforced for uid 0: a fork bomb is only bounded for another user.
    if drop_uid and os.getuid() == 0:
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)
    if nproc:
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))


def _frames(exc):
    out = []
    for frame, lineno in traceback.walk_tb(exc.__traceback__):
        code = frame.f_code
        out.append({"file": code.co_filename, "line": lineno, "name": code.co_name,
                    "qualname": getattr(code, "co_qualname", code.co_name)})
    return out


def _exception(exc):
    return {
        "type": type(exc).__name__,
        "module": type(exc).__module__,
        "mro": [c.__name__ for c in type(exc).__mro__],
        "message": str(exc)[:1000],
        "name": getattr(exc, "name", None) if isinstance(exc, (ImportError, NameError, AttributeError)) else None,
        "errno": getattr(exc, "errno", None) if isinstance(exc, OSError) else None,
        "filename": getattr(exc, "filename", None) if isinstance(exc, OSError) else None,
        "frames": _frames(exc),
        "text": "".join(traceback.format_exception_only(type(exc), exc))[-1000:],
        "owner": _owner(exc),
        "causes": _causes(exc),
    }


def _causes(exc):
    """The MRO names of the exceptions ``exc`` was raised from or while handling (a library's
    ``ConnectError`` wrapping the socket's ``OSError``), innermost last."""
    out: list = []
    seen = {id(exc)}
    cur = exc.__cause__ or exc.__context__
    while cur is not None and id(cur) not in seen and len(out) < 8:
        seen.add(id(cur))
        out.append({"mro": [c.__name__ for c in type(cur).__mro__],
                    "errno": getattr(cur, "errno", None) if isinstance(cur, OSError) else None})
        cur = cur.__cause__ or cur.__context__
    return out


def _owner(exc):
    """For ``AttributeError``: the dotted name of the class (or module) that lacks the attribute."""
    obj = getattr(exc, "obj", None) if isinstance(exc, AttributeError) else None
    if obj is None:
        return None
    if inspect.ismodule(obj):
        return obj.__name__
    cls = obj if inspect.isclass(obj) else type(obj)
    return f"{cls.__module__}.{cls.__qualname__}"


class _Terminal(io.TextIOBase):
    """The one ``sys.stdout``/``sys.stderr`` of the session, as a reader's terminal is: what a block
    keeps a reference to (a logging handler, a logger made with ``file=sys.stdout``) still writes
    where the block running now is captured, not into an earlier block's buffer."""

    def __init__(self):
        super().__init__()
        self.buf = io.StringIO()

    def writable(self):
        return True

    def write(self, s):
        return self.buf.write(s)

    encoding = "utf-8"  # what code asking a terminal for its encoding expects


_TERMINAL = _Terminal()


@contextlib.contextmanager
def _captured():
    """Capture what the code prints into a fresh buffer of the session's one terminal."""
    _TERMINAL.buf = buf = io.StringIO()
    with redirect_stdout(_TERMINAL), redirect_stderr(_TERMINAL):
        yield buf


def _run(code, ns, filename, mode):
    buf = io.StringIO()
    error = None
    try:
        # top-level ``await`` runs as in ``python -m asyncio``: on one loop kept for the session
        compiled = compile(code, filename, mode, flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        with _captured() as buf, _warnings_aside(mode):
            if compiled.co_flags & inspect.CO_COROUTINE:
                _loop().run_until_complete(eval(compiled, ns))
            else:
                exec(compiled, ns)
    except BaseException as exc:  # the doc's code may raise anything, SystemExit included
        if isinstance(exc, KeyboardInterrupt):
            raise
        error = exc
    return buf.getvalue(), error


@contextlib.contextmanager
def _warnings_aside(mode):
    """A doctest example's output is what it prints: a warning goes to the terminal's stderr, which
    doctest does not compare, so it is shown apart (on the real stderr) rather than as output."""
    if mode != "single":
        yield
        return
    shown = warnings.showwarning
    warnings.showwarning = lambda message, category, filename, lineno, file=None, line=None: shown(
        message, category, filename, lineno, sys.__stderr__, line)
    try:
        yield
    finally:
        warnings.showwarning = shown


_LOOP: list = []  # the one event loop of the session, made on first use


def _loop():
    if not _LOOP:
        import asyncio

        _LOOP.append(asyncio.new_event_loop())
        asyncio.set_event_loop(_LOOP[0])
    return _LOOP[0]


_NO_VALUE = object()


def _eval(code, ns, filename):
    """A bare expression's printed output and value (``_NO_VALUE`` when it raised)."""
    buf = io.StringIO()
    try:
        compiled = compile(code, filename, "eval", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        with _captured() as buf:
            if compiled.co_flags & inspect.CO_COROUTINE:
                value = _loop().run_until_complete(eval(compiled, ns))
            else:
                value = eval(compiled, ns)
    except BaseException as exc:  # the doc's code may raise anything, SystemExit included
        if isinstance(exc, KeyboardInterrupt):
            raise
        return buf.getvalue(), exc, _NO_VALUE
    return buf.getvalue(), None, value


def _shown(fn, value):
    try:
        return fn(value)[:OUTPUT_CHARS]
    except Exception as exc:  # a broken __str__/__repr__ is the doc's business, not the protocol's
        return f"<{fn.__name__} failed: {exc!r}>"


def _stated_block(block, ns):
    """A plain block cut into pieces; each checked piece reports what it printed (or, for an
    ``# Output:`` block, everything printed since the previous check) and a bare expression its value."""
    checks: list = []
    output: list = []
    since: list = []
    for piece in block["pieces"]:
        name = "<block {}:{}>".format(block["index"], piece["line"])
        value = _NO_VALUE
        if piece.get("eval"):
            got, error, value = _eval(piece["source"], ns, name)
        elif piece["source"].strip():
            got, error = _run(piece["source"], ns, name, "exec")
        else:
            got, error = "", None
        output.append(got)
        since.append(got)
        if error is not None and set(piece.get("raises") or ()) & {c.__name__ for c in type(error).__mro__}:
            # the raise the comment states: recorded, and the block goes on as a reader's session would
            checks.append({"check": piece["check"], "printed": got[:OUTPUT_CHARS], "value": True, "str": _shown(str, error),
                           "repr": "".join(traceback.format_exception_only(type(error), error)).strip()[-1000:]})
            since = []
            continue
        if error is not None:
            return {"status": "exception", "exception": _exception(error), "output": "".join(output), "stated": checks}
        if piece.get("check") is None:
            continue
        entry = {"check": piece["check"], "printed": ("".join(since) if piece.get("since") else got)[:OUTPUT_CHARS]}
        if value is not _NO_VALUE:
            entry.update(value=True, str=_shown(str, value), repr=_shown(repr, value), none=value is None)
        checks.append(entry)
        since = []
    return {"status": "ok", "output": "".join(output), "stated": checks}


def _shows_raise(checker, want, error, flags):
    """Whether an example's expected output shows the exception it raised: doctest's ``Traceback`` form, or
    its last line alone as docs shorten it (``KeyError: 'nope'``); None when it shows no exception."""
    lines = want.strip().splitlines() or [""]
    shown = "".join(traceback.format_exception_only(type(error), error)).strip().splitlines()[-1]
    name = lines[-1].split(":")[0].rsplit(".", 1)[-1]
    mro = {c.__name__ for c in type(error).__mro__} - {"object"}
    if not lines[0].startswith("Traceback (") and (len(lines) != 1 or name not in mro):
        return None
    shown_name = shown.split(":")[0].rsplit(".", 1)[-1]
    if flags & doctest.IGNORE_EXCEPTION_DETAIL:  # as doctest reads it: the class name without its module
        return True if name == shown_name else "class" if name in mro else False
    # docs shorten ``pkg.errors.Invalid: msg`` to ``Invalid: msg``, as the REPL shows builtins
    bare = shown_name + shown[len(shown.split(":")[0]):]
    if any(checker.check_output(lines[-1] + "\n", s + "\n", flags) for s in (shown, bare)):
        return True
    # the class (or a base of it: a doc may name ``ValueError`` for its subclass), another message
    return "class" if name in mro else False


def _doctest_block(block, ns):
    checker = doctest.OutputChecker()
    examples = []
    for ex in block["examples"]:
        flags = ex.get("flags", doctest.ELLIPSIS)
        got, error = _run(ex["source"], ns, "<block {}:{}>".format(block["index"], ex["line"]), "single")
        want = ex["want"]
        if error is not None:
            text = "".join(traceback.format_exception_only(type(error), error))
            ok = _shows_raise(checker, want, error, flags)
            if ok is not None:
                examples.append({"line": ex["line"], "want": want, "got": got + text, "ok": ok is True,
                                 "raised_as_shown": ok == "class"})
                continue
            examples.append({"line": ex["line"], "want": want, "got": got, "ok": None})
            return {"status": "exception", "exception": _exception(error), "examples": examples, "output": got}
        ok = checker.check_output(want, got, flags)
        examples.append({"line": ex["line"], "want": want, "got": got, "ok": ok})
    output = "".join(e["got"] for e in examples)
    return {"status": "ok", "examples": examples, "output": output}


_PROBES: list = []  # ``childprobe`` once loaded


def _probes():
    """``childprobe.py``, beside this file, loaded by path (this directory is not on ``sys.path``)."""
    if not _PROBES:
        import importlib.util

        spec = importlib.util.spec_from_file_location("caas_childprobe", os.path.join(os.path.dirname(
            os.path.abspath(__file__)), "childprobe.py"))
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.configure(_exception, _shown, OUTPUT_CHARS)
        _PROBES.append(module)
    return _PROBES[0]


def _env():
    """``childenv.py``, beside this file, loaded by path like ``childprobe.py``."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("caas_childenv", os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "childenv.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    request = json.loads(sys.stdin.read())
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    _drop_privileges(request.get("drop_uid"), request.get("nproc"))
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    sys.path[:0] = request["paths"]
    # the blocks' namespace is a module registered as __main__: pickle and get_type_hints find what they define
    sys.modules["_caas_child"] = sys.modules["__main__"]  # this script's module stays alive, globals and all
    sys.modules["__main__"] = main_module = type(sys)("__main__")
    ns = vars(main_module)
    ns["__builtins__"] = __builtins__
    if request.get("module"):
        # a docstring's examples see their module's globals, as doctest gives them
        try:
            ns.update(vars(importlib.import_module(request["module"])))
            ns["__name__"] = "__main__"
        except Exception as exc:  # the blocks then fail with NameError and say so
            sys.stderr.write("cannot import {}: {!r}\n".format(request["module"], exc))
    workdir = os.path.realpath(os.getcwd())
    env = _env()
    env.watch()
    for block in request["blocks"]:
        proto.write(json.dumps({"event": "start", "index": block["index"]}) + "\n")
        env.replay(block.get("steps") or (), workdir)
        env.WATCHING[0] = True
        if block["mode"] == "doctest":
            result = _doctest_block(block, ns)
        elif block["mode"] == "probe":
            result = _probes().probe_block(block, ns, request.get("packages") or [])
        elif block.get("pieces"):
            result = _stated_block(block, ns)
        else:
            output, error = _run(block["source"], ns, "<block {}>".format(block["index"]), "exec")
            result = {"status": "ok", "output": output}
            if error is not None:
                result = {"status": "exception", "exception": _exception(error), "output": output}
        result["env_missing"], result["files_missing"] = env.watched_missing()
        full = result.get("output", "")
        result["output"], result["output_chars"] = full[:OUTPUT_CHARS], len(full)
        result.update(event="done", index=block["index"])
        try:
            proto.write(json.dumps(result, default=str) + "\n")
        except (TypeError, ValueError) as exc:
            proto.write(json.dumps({"event": "done", "index": block["index"], "status": "internal",
                                    "message": str(exc)}) + "\n")
        sys.stdout.flush()
    proto.write(json.dumps({"event": "end"}) + "\n")
    proto.flush()
    os._exit(0)  # don't wait for threads the doc started


if __name__ == "__main__":
    main()
