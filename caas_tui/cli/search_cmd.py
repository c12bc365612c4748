"""``caas-tui search``: hybrid, bm25 or dense search from the command line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.table import Table

from caas_tui.cli.common import add_root, announce_model_preparation, open_engine
from caas_tui.errors import CaasError
from caas_tui.models import KINDS, MODES, Hit
from caas_tui.retrieve.engine import Engine
from caas_tui.retrieve.request import SearchRequest, as_kinds, as_mode


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("search", help="search the index (builds it first if there is none)")
    add_root(p)
    p.add_argument("-k", type=int, default=10, metavar="N", help="number of hits (default 10)")
    p.add_argument("--mode", choices=MODES, default="hybrid")
    p.add_argument("--kind", action="append", choices=KINDS, default=None, help="only this kind (repeatable)")
    p.add_argument("--path", default=None, metavar="GLOB", help="only paths matching this glob")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--expand", action="store_true", help="add graph neighbours of the top hits (callers, tests, docs)")
    p.add_argument("--rerank", action="store_true",
                   help="re-score the top 50 hits with the MiniLM transformer (needs caas-tui[transformers])")
    p.add_argument("--queries", type=Path, default=None, metavar="FILE", help="one query per line; prints JSON Lines")
    p.add_argument("query", nargs="?", default=None, metavar="QUERY")


def _run_query(engine: Engine, args: argparse.Namespace, query: str) -> list[Hit]:
    result = engine.run(SearchRequest(query, args.k, mode=as_mode(args.mode), kinds=as_kinds(args.kind),
                                      path_glob=args.path, expand=getattr(args, "expand", False),
                                      rerank=getattr(args, "rerank", False)))
    hits = list(result.hits)
    # --rerank: say once (on stderr) if it was skipped or ran out of time; stdout stays data.
    note = result.rerank.message if result.rerank else None
    if note and note not in vars(args).setdefault("_rerank_notes", set()):
        args._rerank_notes.add(note)
        sys.stderr.write(note + "\n")
    return hits


def _payload(query: str, hits: list[Hit], expand: bool = False, rerank: bool = False) -> dict[str, object]:
    # --expand adds "via" (why a hit is there); without it the JSON keeps its documented shape.
    # --rerank adds "rerank_score" the same way (null for hits past the re-ranked ones).
    return {"query": query, "hits": [{**h.to_json(), **({"via": h.via} if expand else {}),
                                      **({"rerank_score": h.rerank_score} if rerank else {})} for h in hits]}


def _table(query: str, hits: list[Hit], expand: bool = False) -> Table:
    from rich.table import Table
    from rich.text import Text

    table = Table(title=Text(f"{len(hits)} hits for {query!r}"), title_justify="left", expand=True)
    for col, kw in (("#", {"justify": "right"}), ("kind", {}), ("location", {"overflow": "fold", "ratio": 3}),
                    ("symbol", {"overflow": "fold", "ratio": 3}),
                    ("bm25", {"justify": "right"}), ("dense", {"justify": "right"}), ("score", {"justify": "right"})):
        table.add_column(col, **kw)
    for h in hits:
        c = h.chunk
        table.add_row(
            str(h.rank), c.kind, Text(f"{c.path}:{c.start_line}-{c.end_line}"), Text(c.symbol or "-") + Text(f"  ({h.via})" if expand and h.via else "", style="dim"),
            "-" if h.bm25_rank is None else str(h.bm25_rank),
            "-" if h.dense_rank is None else str(h.dense_rank),
            f"{h.score:.4f}",
        )
    return table


def run(args: argparse.Namespace) -> int:
    if args.queries is None and not args.query:
        raise CaasError("search needs a QUERY or --queries FILE")
    if args.queries is not None and not args.json:
        raise CaasError("--queries prints JSON Lines: add --json")
    if args.k <= 0:
        raise CaasError("-k must be a positive number")
    if getattr(args, "rerank", False):
        announce_model_preparation()
    queries: list[str]
    if args.queries is not None:
        try:
            lines = args.queries.read_text(encoding="utf-8").split("\n")
        except (OSError, UnicodeDecodeError) as exc:
            raise CaasError(f"{args.queries}: cannot read queries ({exc})") from exc
        queries = [q.strip() for q in lines if q.strip()]
    else:
        queries = [args.query]
    engine = open_engine(args)
    try:
        for query in queries:
            hits = _run_query(engine, args, query)
            if args.json:
                sys.stdout.write(json.dumps(_payload(query, hits, getattr(args, "expand", False),
                                                      getattr(args, "rerank", False)), ensure_ascii=False) + "\n")
            else:
                from rich.console import Console  # only for the table: a --json run never loads rich

                Console().print(_table(query, hits, getattr(args, "expand", False)))
        sys.stdout.flush()
    finally:
        engine.close()
    return 0
