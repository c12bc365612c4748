"""Options and helpers shared by the headless commands."""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from caas_tui.config import LEXICAL_BACKENDS

if TYPE_CHECKING:
    import logging

    from rich.console import Console
    from rich.progress import TaskID

    from caas_tui.index.refreshstats import Progress as ProgressFn
    from caas_tui.retrieve.engine import Engine



@functools.cache
def _stderr() -> Console:
    # rich is imported on first use: a `--json` run that prints no notice never loads it
    from rich.console import Console

    return Console(stderr=True, highlight=False)

PROGRESS_LINE_S = 5.0


def add_root(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", type=Path, default=Path("."), metavar="DIR", help="project root (default: .)")
    parser.add_argument("--index-dir", type=Path, default=None, metavar="DIR", help="index location (default: DIR/.caas)")
    parser.add_argument("--model", default=None, metavar="PATH_OR_HUB_ID", help="model2vec model for the dense channel")
    parser.add_argument("--lexical", default=None, choices=LEXICAL_BACKENDS,
                        help="lexical backend (default: [index] lexical in caas.toml, else whoosh); a change rebuilds")


def notify(message: str) -> None:
    _stderr().print(f"caas-tui: {message}", markup=False, soft_wrap=True)


@functools.cache
def _notice_handler() -> logging.Handler:
    import logging  # here, not at the top: a one-shot search or review without --rerank never logs

    class Notices(logging.Handler):
        """Log records as ``caas-tui: message`` lines on whatever ``sys.stderr`` is at the time."""

        def emit(self, record: logging.LogRecord) -> None:
            try:
                notify(record.getMessage())
            except Exception:  # noqa: BLE001 - a notice must never break the command
                self.handleError(record)

    return Notices(logging.INFO)


def announce_model_preparation() -> None:
    """Show, on stderr, the one-time notices of model preparation (the ONNX export of the
    re-ranking model takes a few seconds once); the TUI never calls this: stderr is its screen."""
    import logging

    logger = logging.getLogger("caas_tui.index.encoders.onnx_int8")
    if _notice_handler() not in logger.handlers:
        logger.addHandler(_notice_handler())
        logger.setLevel(logging.INFO)


@contextmanager
def progress_bar(enabled: bool | None = None) -> Iterator[ProgressFn | None]:
    """A Rich progress bar on an interactive stderr, nothing otherwise (CI logs stay clean)."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        if sys.stderr.isatty():
            yield None
            return
        # Not a terminal (CI, a pipe): a plain line every few seconds, so a long build is
        # visibly alive; fast commands print nothing.
        last = [time.monotonic()]

        def line(stage: str, done: int, total: int) -> None:
            if time.monotonic() - last[0] >= PROGRESS_LINE_S:
                last[0] = time.monotonic()
                notify(f"{stage} {done}/{total}")

        yield line
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description:>10}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=_stderr(), transient=True) as bar:
        tasks: dict[str, TaskID] = {}

        def update(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=done, total=total)

        yield update


def open_engine(args: argparse.Namespace, *, refresh: bool = True) -> Engine:
    from caas_tui.retrieve.engine import Engine  # the index stack: only for commands that open it

    with progress_bar() as update:
        return Engine.open(
            args.root,
            progress=update,
            notify=notify,
            refresh=refresh,
            index_dir=args.index_dir,
            model=args.model,
            lexical=getattr(args, "lexical", None),
        )
