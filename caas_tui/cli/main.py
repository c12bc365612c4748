"""Command-line entry point: ``caas-tui [DIR]`` opens the app; subcommands run headless.

Errors at this boundary: a ``CaasError`` becomes one line on stderr and exit code 2;
anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from caas_tui import __version__
from caas_tui.errors import CaasError

# name -> module under caas_tui.cli exposing add_parser(subparsers) and run(args) -> int
COMMANDS: dict[str, str] = {
    "index": "caas_tui.cli.index_cmd",
    "search": "caas_tui.cli.search_cmd",
    "review": "caas_tui.cli.review_cmd",
    "export": "caas_tui.cli.export_cmd",
    "status": "caas_tui.cli.status_cmd",
    "watch": "caas_tui.cli.watch_cmd",
    "chain": "caas_tui.cli.chain_cmd",
    "mcp": "caas_tui.cli.mcp_cmd",
    "app": "caas_tui.cli.app_cmd",
}


def _available() -> dict[str, ModuleType]:
    mods: dict[str, ModuleType] = {}
    for name, module in COMMANDS.items():
        try:
            mods[name] = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:  # a real missing dependency inside the command: surface it
                raise
    return mods


def build_parser(mods: dict[str, ModuleType]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="caas-tui",
        description="Find out whether documentation is true. Without a command, opens the review app on DIR.",
    )
    parser.add_argument("--version", action="version", version=f"caas-tui {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for mod in mods.values():
        mod.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    mods = _available()
    # `caas-tui [DIR] [options]` is the app; anything else names a command.
    if "app" in mods and (not args_list or args_list[0] not in mods and args_list[0] not in ("-h", "--help", "--version")):
        args_list = ["app", *args_list]
    parser = build_parser(mods)
    args = parser.parse_args(args_list)
    if not args.command:
        parser.print_help()
        return 0
    try:
        return int(mods[args.command].run(args) or 0)
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
