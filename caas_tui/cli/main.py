"""Command-line entry point: ``caas-tui [DIR]`` opens the app; subcommands run headless.

Errors at this boundary: a ``CaasError`` becomes one line on stderr and exit code 2;
anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from caas_tui import __version__
from caas_tui.errors import CaasError

# name -> (module under caas_tui.cli exposing add_parser(subparsers) and run(args) -> int,
# its one-line help for the command list). Only the module of the command being run is
# imported: an agent calling the CLI once per question pays for that command alone
# (tests/test_startup_imports.py). The help lines must match the modules' own (same test).
COMMANDS: dict[str, tuple[str, str]] = {
    "index": ("caas_tui.cli.index_cmd", "build or refresh the index (only changed files are redone)"),
    "search": ("caas_tui.cli.search_cmd", "search the index (builds it first if there is none)"),
    "review": ("caas_tui.cli.review_cmd",
               "check docs against the code (verdicts are stored for the app and export)"),
    "export": ("caas_tui.cli.export_cmd", "write accepted fixes as a unified diff (or apply them)"),
    "status": ("caas_tui.cli.status_cmd",
               "what changed since the last index: stale verdicts, drifting docs (read-only)"),
    "watch": ("caas_tui.cli.watch_cmd", "watch the project: re-index files on save, flag stale verdicts"),
    "chain": ("caas_tui.cli.chain_cmd",
              "show what a symbol calls, is called by, tests and docs around it (a symbol name or a search query)"),
    "mcp": ("caas_tui.cli.mcp_cmd",
            "serve the index as MCP tools over stdio (for Claude Code and other agents)"),
    "app": ("caas_tui.cli.app_cmd", "open the review app (the default: `caas-tui [DIR]`)"),
}


def load_command(name: str) -> ModuleType:
    return importlib.import_module(COMMANDS[name][0])


def build_parser(command: str | None) -> argparse.ArgumentParser:
    """The parser for one command (its module's options), or the command list when ``None``."""
    parser = argparse.ArgumentParser(
        prog="caas-tui",
        description="Find out whether documentation is true. Without a command, opens the review app on DIR.",
    )
    parser.add_argument("--version", action="version", version=f"caas-tui {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    if command is None:
        for name, (_, help_line) in COMMANDS.items():
            sub.add_parser(name, help=help_line)
    else:
        load_command(command).add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. ``argv`` None means this is the program itself (the console script,
    ``python -m caas_tui``), not a caller in a process of its own (tests, an embedding tool).

    The program then spares the cycle collector work that frees nothing. Importing a command
    (numpy, Whoosh, the engine) makes ~10^5 objects that live as long as the process, and the
    collector walked them pass after pass, and once more at exit, where the OS frees
    everything anyway: ``gc.freeze()`` after the imports and before exit takes them out of
    its walks. Measured on a one-shot ``search --json`` of the sample: 7% of its instructions.
    """
    if argv is None:
        try:
            return _main(sys.argv[1:], settle_imports=True)
        finally:
            gc.freeze()
    return _main(list(argv))


def _main(args_list: list[str], *, settle_imports: bool = False) -> int:
    # `caas-tui [DIR] [options]` is the app; anything else names a command.
    if not args_list or args_list[0] not in COMMANDS and args_list[0] not in ("-h", "--help", "--version"):
        args_list = ["app", *args_list]
    command = args_list[0] if args_list[0] in COMMANDS else None
    if settle_imports and command is not None:  # the command list alone imports nothing worth it
        # gc itself, not ingest.gcpause's helper: importing that package loads caas_tui.models
        # (dataclasses, inspect) before the pause, and the collector walked it all twice
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            parser = build_parser(command)  # imports the command's module
        finally:
            gc.freeze()
            if was_enabled:
                gc.enable()
    else:
        parser = build_parser(command)
    args = parser.parse_args(args_list)
    if not args.command:
        parser.print_help()
        return 0
    module = load_command(args.command)
    try:
        return int(module.run(args) or 0)
    except CaasError as exc:
        print(f"caas-tui: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("caas-tui: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
