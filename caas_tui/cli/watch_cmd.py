"""``caas-tui watch``: keep the index fresh while you edit, one log line per refresh."""

from __future__ import annotations

import argparse
import asyncio
import json
import signal

from caas_tui.cli.common import add_root, notify, open_engine
from caas_tui.live.watcher import RefreshEvent, watch_project
from caas_tui.retrieve.engine import Engine


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("watch", help="watch the project: re-index files on save, flag stale verdicts")
    add_root(p)
    p.add_argument("--json", action="store_true", help="print one JSON object per refresh (JSON Lines)")


def _json(event: RefreshEvent) -> str:
    s = event.stats
    return json.dumps(
        {
            "added": s.added,
            "changed": s.changed,
            "removed": s.removed,
            "rebuilt": s.rebuilt,
            "seconds": round(event.seconds, 3),
            "stale_verdicts": [v.to_json() for v in event.stale_verdicts],
            "error": event.error,
            "messages": list(event.messages),
        }
    )


async def _watch(engine: Engine, as_json: bool) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    # Ctrl-C/SIGTERM only ask the watcher to stop: a refresh under way finishes first,
    # so the index is never left half-written by an interrupt.
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)

    def ready() -> None:
        notify(f"watching {engine.root} (Ctrl-C to stop)")

    async for event in watch_project(engine, stop, notify=notify, on_ready=ready):
        for message in event.messages:
            notify(message)
        print(_json(event) if as_json else event.summary(), flush=True)
    notify("stopped watching")
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        engine = open_engine(args)  # builds, repairs (an interrupted build) or refreshes the index
    except KeyboardInterrupt:
        notify("interrupted before watching started")
        return 0
    try:
        return asyncio.run(_watch(engine, args.json))
    finally:
        engine.close()
