"""The sandbox a doc's code runs in: bubblewrap when installed, rlimits in a subprocess otherwise.

Documentation is untrusted input. With ``bwrap`` the child sees the whole filesystem
read-only (the project included), a private ``/tmp``, a writable temporary working
directory that is also its ``HOME``, no network and its own PID namespace. rlimits bound
CPU, address space and file size; a root caller's child drops to ``nobody`` so that the
process limit (which the kernel never applies to uid 0) bounds fork bombs.
"""

from __future__ import annotations

import functools
import os
import shutil
import stat
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

NOBODY = 65534
NO_BWRAP_WARNING = (
    "doc code runs with rlimits only (no network, filesystem or PID isolation; it can write wherever this user can)"
)


@dataclass(frozen=True, slots=True)
class Limits:
    block_seconds: float = 10.0
    doc_seconds: float = 60.0
    memory_bytes: int = 2 << 30  # address space
    processes: int = 64  # processes the child may add
    file_bytes: int = 64 << 20


@dataclass(frozen=True, slots=True)
class Launch:
    argv: tuple[str, ...]
    env: dict[str, str]
    workdir: Path
    isolated: bool  # True under bubblewrap
    drop_uid: bool  # the child switches to ``nobody`` before running doc code
    nproc: int | None  # RLIMIT_NPROC for the child, None when it would not bound anything
    warning: str | None


@functools.lru_cache(maxsize=1)
def _bwrap_probe() -> tuple[str | None, str | None]:
    """``(path, None)`` when bwrap runs here with the namespaces we ask for, else ``(None, why not)``:
    an installed bwrap can still be refused (no user namespaces, AppArmor)."""
    path = shutil.which("bwrap")
    if path is None:
        return None, "bwrap not found"
    probe = [path, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-net", "--unshare-pid",
             "--die-with-parent", "--", "/bin/sh", "-c", "exit 0"]
    try:
        done = subprocess.run(probe, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"bwrap cannot run here ({exc})"
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[0]
        return None, f"bwrap cannot run here ({first})"
    return path, None


def bwrap_path() -> str | None:
    """bwrap when it is installed and works here."""
    return _bwrap_probe()[0]


def _hidden_ancestor(path: Path) -> Path | None:
    """The top-most ancestor of ``path`` that other users cannot traverse, if any."""
    for parent in reversed(path.parents):
        try:
            if not os.stat(parent).st_mode & stat.S_IXOTH:
                return parent
        except OSError:
            return None
    return None


def _python_prefixes(python: str) -> list[Path]:
    exe = Path(python)
    out = [Path(os.path.realpath(exe)).parent.parent]
    cfg = exe.parent.parent / "pyvenv.cfg"
    if cfg.is_file():
        out.append(exe.parent.parent)
        for line in cfg.read_text(encoding="utf-8", errors="replace").splitlines():
            key, _, value = line.partition("=")
            if key.strip() == "home" and value.strip():
                out.append(Path(os.path.realpath(value.strip())).parent)
    return out


def _user_processes(uid: int) -> int:
    count = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if os.stat(entry.path).st_uid == uid:
                    count += 1
            except OSError:
                continue
    return count


def launch(python: str, child: Path, root: Path, workdir: Path, limits: Limits, *,
           use_bwrap: bool | None = None) -> Launch:
    """How to start the session child for one doc; ``use_bwrap=False`` forces the fallback."""
    bwrap = bwrap_path() if use_bwrap is not False else None
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(workdir), "TMPDIR": str(workdir),
        "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "MPLBACKEND": "Agg",
    }  # no DISPLAY, no credentials: nothing of the caller's environment leaks into doc code
    cmd = [python, "-I", "-B", str(child)]
    is_root = os.getuid() == 0
    needed = [root.resolve(), child.parent.resolve(), *_python_prefixes(python)]
    if bwrap is None:
        # Dropping to nobody only works if nobody can still reach the interpreter.
        drop = is_root and all(_hidden_ancestor(p) is None for p in needed)
        nproc = limits.processes if drop else (None if is_root else _user_processes(os.getuid()) + limits.processes)
        why = "bwrap not used" if use_bwrap is False else (_bwrap_probe()[1] or "bwrap not found")
        warning = f"{why}: {NO_BWRAP_WARNING}" + ("" if nproc else "; the process count is not limited either (root)")
        return Launch(tuple(cmd), env, workdir, False, drop, nproc, warning)
    argv = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--perms", "1777", "--tmpfs", "/tmp"]
    # Covered by an empty tmpfs, with only what is needed mounted back: directories other users
    # cannot enter (e.g. /root holding the interpreter) and the caller's home (keys, tokens),
    # which doc code could otherwise print into a CI log.
    hidden = {a for p in needed if (a := _hidden_ancestor(p)) is not None}
    home = Path.home().resolve()
    if home != Path("/") and home.is_dir() and not any(home.is_relative_to(h) for h in hidden):
        hidden.add(home)
    hidden = {h for h in hidden if not any(h != o and h.is_relative_to(o) for o in hidden)}
    masked = [Path("/tmp"), *sorted(hidden)]
    for top in sorted(hidden):
        argv += ["--perms", "0755", "--tmpfs", str(top)]
    made: set[Path] = set()
    for p in sorted(set(needed)):
        base = next((m for m in masked if p.is_relative_to(m) and p != m), None)
        if base is None:
            continue
        # bwrap would create the mount point's parents 0700: nobody could not reach the mount
        for parent in reversed(p.parents):
            if parent.is_relative_to(base) and parent != base and parent not in made:
                argv += ["--perms", "0755", "--dir", str(parent)]
                made.add(parent)
        argv += ["--ro-bind", str(p), str(p)]
    argv += ["--bind", str(workdir), str(workdir), "--chdir", str(workdir),
             "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent"]
    if is_root:  # the child needs them to drop to nobody; bwrap drops every other capability
        argv += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    nproc = limits.processes if is_root else _user_processes(os.getuid()) + limits.processes
    for key, value in env.items():
        argv += ["--setenv", key, value]
    argv += ["--", *cmd]
    return Launch(tuple(argv), env, workdir, True, is_root, nproc, None)


def prepare_workdir(workdir: Path, run: Launch) -> None:
    if run.drop_uid:
        os.chown(workdir, NOBODY, NOBODY)


def rlimits(limits: Limits) -> Callable[[], None]:
    """A ``preexec_fn`` setting the child's CPU, memory and file-size limits (hard and soft)."""
    import resource  # POSIX only: imported when a doc runs, so importing the package works anywhere

    cpu = int(limits.doc_seconds) + 5

    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
        resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_bytes, limits.file_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply
