"""The session child's record of what a block looks for and does not find, and its replay of the
doc's setup (``docsetup``): loaded by path by ``child.py``, standard library only, like it.
"""

import os
import sys

_WATCH_MAX = 64
_WRITES = os.O_WRONLY | os.O_RDWR | os.O_CREAT
WATCHING = [False]  # on while a block runs: the child's own reads are not the block's
_SEEN = {"env": [], "opened": []}  # type: dict[str, list[list[object]]]


_STACK_DEPTH = 24
_HERE = os.path.dirname(os.path.abspath(__file__))
# the lookup's own plumbing, met by every lookup: not a call that links one to a failure
_PLUMBING = ("<frozen os>", "<frozen _collections_abc>", os.__file__, getattr(sys.modules.get("_collections_abc"),
                                                                                "__file__", ""))


def _note(kind, item, frame):
    """Record ``item`` with the calls it was made under: not the block's own lines, not the session
    child's (every block runs under them), not the mapping's plumbing; so the parent can tell whether
    the failing call chain is the one that met it."""
    seen = _SEEN[kind]
    if not WATCHING[0] or len(seen) >= _WATCH_MAX:
        return
    stack = []  # type: list[list[str]]
    while frame is not None and len(stack) < _STACK_DEPTH:
        code = frame.f_code
        name = code.co_filename
        if not name.startswith("<block") and name not in _PLUMBING and os.path.dirname(name) != _HERE:
            stack.append([code.co_filename, getattr(code, "co_qualname", code.co_name)])
        frame = frame.f_back
    seen.append([item, stack])


def watch():
    """Record what a block looks up and does not find: an environment variable (``os.environ[...]``,
    ``.get``, ``in`` and ``os.getenv`` all go through ``__getitem__``) and a file it opens to read, so
    the parent can tell a raise that follows the doc's unreplayed setup from a defect."""
    base = type(os.environ)

    class _Watched(base):  # type: ignore[valid-type,misc]  # os._Environ, whatever this Python calls it
        def __getitem__(self, key):
            try:
                return base.__getitem__(self, key)
            except KeyError:
                if isinstance(key, str):
                    _note("env", key, sys._getframe(1))
                raise

    try:
        os.environ.__class__ = _Watched
    except TypeError as exc:  # another Python's environ: the run goes on without the record
        sys.stderr.write(f"cannot watch os.environ: {exc!r}\n")

    def hook(event, args):
        if event != "open" or not WATCHING[0] or not isinstance(args[0], (str, bytes)):
            return
        mode, flags = args[1], args[2] if len(args) > 2 else 0
        reads = not any(c in mode for c in "wax+") if isinstance(mode, str) else not (flags or 0) & _WRITES
        if reads:
            try:
                _note("opened", os.path.abspath(os.fsdecode(args[0])), sys._getframe(1))
            except (OSError, ValueError, TypeError):  # a path the hook cannot resolve: not recorded
                return

    sys.addaudithook(hook)


def replay(steps, workdir):
    """The doc's own setup shown before this block: its exports and the files it shows by name,
    written inside the working directory only."""
    for kind, name, value in steps:
        try:
            if kind == "env":
                os.environ[name] = value
            elif kind == "unset":
                os.environ.pop(name, None)
            elif kind == "file":
                path = os.path.realpath(os.path.join(workdir, name))
                if not path.startswith(workdir + os.sep):
                    sys.stderr.write(f"not written outside the working directory: {name}\n")
                    continue
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(value)
        except (OSError, ValueError) as exc:  # the block then runs without it, as the parent is told by its raise
            sys.stderr.write(f"cannot replay {kind} {name}: {exc!r}\n")


def watched_missing():
    WATCHING[0] = False
    env, opened = list(_SEEN["env"]), [p for p in _SEEN["opened"] if not os.path.exists(str(p[0]))]
    _SEEN.update(env=[], opened=[])
    return env, opened
