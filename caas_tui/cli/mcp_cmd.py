"""``caas-tui mcp``: serve the index to coding agents over MCP (stdio).

stdout carries the protocol and nothing else: logs go to stderr through ``logging``.
"""

from __future__ import annotations

import argparse
import logging
import sys

from caas_tui.cli.common import add_root
from caas_tui.errors import ConfigError
from caas_tui.mcp_server.budget import (
    DEFAULT_OUTPUT_CHARS,
    DEFAULT_SNIPPET_CHARS,
    MIN_OUTPUT_CHARS,
    MIN_SNIPPET_CHARS,
    Limits,
)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("mcp", help="serve the index as MCP tools over stdio (for Claude Code and other agents)")
    add_root(p)
    p.add_argument("--max-output-chars", type=int, default=DEFAULT_OUTPUT_CHARS, metavar="N",
                   help=f"output budget of one tool answer, in characters (default {DEFAULT_OUTPUT_CHARS})")
    p.add_argument("--snippet-chars", type=int, default=DEFAULT_SNIPPET_CHARS, metavar="N",
                   help=f"snippet size of one search hit (default {DEFAULT_SNIPPET_CHARS})")
    p.add_argument("--log-level", default="INFO", choices=("DEBUG", "INFO", "WARNING", "ERROR"),
                   help="stderr log level (default INFO)")


def run(args: argparse.Namespace) -> int:
    if args.max_output_chars < MIN_OUTPUT_CHARS:
        raise ConfigError(f"--max-output-chars must be at least {MIN_OUTPUT_CHARS}")
    if args.snippet_chars < MIN_SNIPPET_CHARS:
        raise ConfigError(f"--snippet-chars must be at least {MIN_SNIPPET_CHARS}")
    logging.basicConfig(
        stream=sys.stderr, level=getattr(logging, args.log_level),
        format="caas-tui mcp %(levelname)s %(name)s: %(message)s",
    )
    # Imported here: the MCP SDK loads only for this command.
    from caas_tui.mcp_server.server import serve

    limits = Limits(output_chars=args.max_output_chars, snippet_chars=args.snippet_chars)
    serve(args.root, index_dir=args.index_dir, model=args.model, limits=limits)
    return 0
