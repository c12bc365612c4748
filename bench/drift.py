"""Real documentation drift: an older release's guides over a newer release's code (a script).

    python bench/drift.py [--sets dev,dev2,dev3,heldout] [--packages attrs,click] [--cache DIR] [--flags 30] [--json]

Four drift sets, reported apart: ``dev`` (attrs, click, jinja2, marshmallow: the checks were
designed on their misses), ``dev2`` (anyio, tornado, markdown, structlog: a second development
set added in the third session, measured before any check changed for it, so its first numbers
say how the dev checks carry over), ``dev3`` (packaging, flask-sqlalchemy, sqlalchemy-utils,
falcon, cachetools: added in the fifth session the same way) and ``heldout`` (werkzeug, flask, urllib3, itsdangerous,
wtforms: measured once before the drift checks changed, never used to design them).

For each package, the sdists of an older and a newer release are downloaded with pip
into a cache outside the repository (default ``~/.cache/caas-tui-bench/drift``). griffe
(``griffe.load`` + ``griffe.find_breaking_changes``) lists the breaking API changes
between them: the ground truth. A project is built from the newer release's code and
the older release's guides (``docs/*.md|rst``, minus changelogs, licences and the like)
and the static reviewer reviews every guide. A claim *mentions* a change when it names
the changed object (see ``mentions``); we count those claims and how many the reviewer
flags (contradicted or incomplete). A default change counts only for a claim that states a
default; a bare module-level name only where code uses it as a name (not ``name=``, ``def name``
or a template tag); a member griffe calls removed that the newer class still inherits is no
change (griffe skips namespace subpackages, so they are marked for its load).

Docstrings: the older release's docstrings are not reviewed. The static reviewer judges
a docstring against the object that owns it in the same file, so an old docstring only
has a meaning on top of the old code, where it is (by construction) consistent; the old
guides are the part of "old docs" that can drift from new code without a rewrite of the
code files. Each package's guides are reviewed as they shipped.

The newer release's own guides are reviewed too; its first ``--flags`` flags (spread over
the packages) are written to ``bench/results/drift_flags.md`` for hand-checking, keeping
verdicts already written there (``<!-- check: true|false ... -->`` lines) when the same flag
comes back. Results go to ``bench/results/drift.json``.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tarfile
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from drift_flags import flag_id, previous_checks, write_flags
from drift_truth import Change, Package, breaking_changes, foreign_names, mentions, package_dir, resolver

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review import StaticReviewer, review_doc

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "results"
CACHE = Path.home() / ".cache" / "caas-tui-bench" / "drift"
FLAGS = ("contradicted", "incomplete")
DOC_SUFFIXES = (".md", ".rst")
# Pages about the project rather than its API (any path part naming history: ``versionhistory.rst``,
# ``change_log/release-2.1.md``): history is true by construction (``releases/v2.2.0.rst`` too), the rest has no API claims.
SKIP_DOCS = re.compile(
    r"(?:^|/)(?:[^/]*(?:change_?log|changes|history|release[-_]?notes?|whats_?new)[^/]*|news(?:\.\w+)?|releases)(?:/|$)"
    r"|(?:^|/)(?:license|authors|contributing|code_of_conduct|kudos|whos_using|donate|ecosystem|upgrading"
    r"|migration)[^/]*$",
    re.IGNORECASE,
)


PACKAGES: dict[str, Package] = {
    p.dist: p
    for p in (
        Package("attrs", ("attr", "attrs"), "22.2.0", "25.3.0",
                "Markdown guides + api.rst; 23.x-25.x removed/renamed helpers and changed defaults"),
        Package("click", ("click",), "7.1.2", "8.1.7",
                "reST guides; 8.0 dropped Python 2 helpers, renamed completion and changed signatures"),
        Package("jinja2", ("jinja2",), "2.11.3", "3.1.4",
                "reST guides and API page; 3.0 removed the context/eval/environment function decorators, Markup"),
        Package("marshmallow", ("marshmallow",), "3.13.0", "4.0.0",
                "reST guides; 4.0 removed context, fields.Field options and changed signatures"),
    )
}
# The held-out set: measured once before any check was changed for the drift work and never
# used to design checks (its per-claim misses are not read); reported apart from ``PACKAGES``.
HELDOUT: dict[str, Package] = {
    p.dist: p
    for p in (
        Package("werkzeug", ("werkzeug",), "2.0.3", "3.0.4",
                "reST guides; 2.1-3.0 removed the url_* helpers, BaseRequest/BaseResponse and many arguments"),
        Package("flask", ("flask",), "2.0.3", "3.0.3",
                "reST guides; 2.2-3.0 removed json arguments, send_file arguments, before_first_request"),
        Package("urllib3", ("urllib3",), "1.26.18", "2.2.3",
                "reST guides; 2.0 removed Python 2 shims, renamed Retry options, changed HTTPResponse"),
        Package("itsdangerous", ("itsdangerous",), "1.1.0", "2.2.0",
                "reST guides; 2.0 removed the JWS serializers and changed signer arguments"),
        Package("wtforms", ("wtforms",), "2.3.3", "3.1.2",
                "reST guides; 3.0 removed widgets/fields options, renamed validators"),
    )
}
# The second development set: other release lines, other doc styles (reST API pages, Markdown).
DEV2: dict[str, Package] = {
    p.dist: p
    for p in (
        Package("anyio", ("anyio",), "2.2.0", "4.6.2",
                "reST guides; 3.0 moved the thread/worker helpers into submodules, 4.0 removed the old names"),
        Package("tornado", ("tornado",), "5.1.1", "6.4.1",
                "reST guides and API pages; 6.0 removed callback arguments, stack_context and Python 2 helpers"),
        Package("markdown", ("markdown",), "3.2.2", "3.7",
                "Markdown guides; 3.3-3.7 removed util helpers and deprecated extension/processor APIs"),
        Package("structlog", ("structlog",), "20.1.0", "24.4.0",
                "reST guides; 21-24 removed the threadlocal and Twisted-era helpers, renamed processors"),
    )
}
# The third development set (fifth session): measured before any check changed for it.
DEV3: dict[str, Package] = {
    p.dist: p
    for p in (
        Package("packaging", ("packaging",), "21.3", "24.1",
                "reST API pages; 22.0 removed LegacyVersion, LegacySpecifier and the legacy parsing helpers"),
        Package("flask-sqlalchemy", ("flask_sqlalchemy",), "2.5.1", "3.1.1",
                "reST guides and API page; 3.0 removed the model/session helpers and moved classes into submodules"),
        Package("sqlalchemy-utils", ("sqlalchemy_utils",), "0.36.8", "0.41.2",
                "reST pages of autodoc directives; 0.37-0.41 removed types and helpers, changed signatures"),
        Package("falcon", ("falcon",), "2.0.0", "3.1.3",
                "large reST guide and API set; 3.0 removed the old hook/router/stream names and moved arguments"),
        Package("cachetools", ("cachetools",), "4.2.4", "5.5.0",
                "one reST page; 5.0 removed the deprecated submodules and function aliases"),
    )
}
DRIFT_SETS = {"dev": PACKAGES, "dev2": DEV2, "dev3": DEV3, "heldout": HELDOUT}
# More current releases whose own guides are reviewed for the hand-checked flags only
# (the drift packages raise too few flags on their own docs to fill 30).
CURRENT_ONLY: dict[str, Package] = {
    p.dist: p
    for p in (
        Package("flask", ("flask",), "", "3.0.3", "large reST guide set"),
        Package("werkzeug", ("werkzeug",), "", "3.0.4", "reST guides with many API roles"),
        Package("itsdangerous", ("itsdangerous",), "", "2.2.0", "short reST guides"),
        Package("structlog", ("structlog",), "", "24.4.0", "Markdown guides"),
        Package("cattrs", ("cattrs", "cattr"), "", "24.1.2", "Markdown guides"),
        Package("anyio", ("anyio",), "", "4.6.2", "reST guides"),
        Package("markdown", ("markdown",), "", "3.7", "Markdown guides"),
        Package("starlette", ("starlette",), "", "0.41.2", "Markdown guides"),
        Package("urllib3", ("urllib3",), "", "2.2.3", "reST guides"),
        Package("trio", ("trio",), "", "0.27.0", "reST guides"),
        Package("jsonschema", ("jsonschema",), "", "4.23.0", "reST guides"),
        Package("babel", ("babel",), "", "2.16.0", "reST guides"),
        Package("wtforms", ("wtforms",), "", "3.1.2", "reST guides"),
        Package("pluggy", ("pluggy",), "", "1.5.0", "one reST guide"),
        Package("more-itertools", ("more_itertools",), "", "10.5.0", "reST API pages"),
        Package("tornado", ("tornado",), "", "6.4.1", "reST guides and API pages"),
        Package("webargs", ("webargs",), "", "8.6.0", "reST guides"),
        Package("apispec", ("apispec",), "", "6.7.1", "reST guides"),
        Package("arrow", ("arrow",), "", "1.3.0", "reST guide"),
        Package("apscheduler", ("apscheduler",), "", "3.10.4", "reST guides"),
        Package("h11", ("h11",), "", "0.14.0", "reST guides"),
        Package("pyramid", ("pyramid",), "", "2.0.2", "large reST narrative docs"),
    )
}


# -- fetching -------------------------------------------------------------------
def fetch(dist: str, version: str, cache: Path) -> Path:
    """The unpacked sdist of ``dist==version`` (downloaded once into ``cache``)."""
    dest = cache / "src" / f"{dist}-{version}"
    if (dest / ".complete").is_file():
        return dest
    sdists = cache / "sdists"
    sdists.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
         f"{dist}=={version}", "-d", str(sdists)],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    # newer sdists spell the name normalised (``flask_sqlalchemy-3.1.1``), older ones as published
    stem = re.sub(r"[-_.]+", "_", dist).lower() + f"-{version}"
    archive = next(p for p in sdists.iterdir() if re.sub(r"[-_.]+", "_", p.name.split(f"-{version}")[0]).lower()
                   + f"-{version}" == stem and p.name.endswith((".tar.gz", ".zip")))
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    with tarfile.open(archive) as tar:
        tar.extractall(dest, filter="data")
    (top,) = [p for p in dest.iterdir() if p.is_dir()]
    for item in top.iterdir():
        item.rename(dest / item.name)
    top.rmdir()
    (dest / ".complete").write_text("", encoding="utf-8")
    return dest


def guide_docs(sdist: Path) -> list[Path]:
    docs = sdist / "docs"
    return sorted(
        p for p in docs.rglob("*") if p.suffix in DOC_SUFFIXES and p.is_file()
        and not SKIP_DOCS.search(p.relative_to(docs).as_posix()) and "_build" not in p.parts
    )


def build_project(dest: Path, code_from: Path, docs_from: Path, pkg: Package) -> Path:
    """``dest`` = ``code_from``'s packages under ``src/`` + ``docs_from``'s guides under ``docs/``."""
    if dest.exists():
        shutil.rmtree(dest)
    for name in pkg.imports:
        shutil.copytree(package_dir(code_from, name), dest / "src" / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for doc in guide_docs(docs_from):
        target = dest / "docs" / doc.relative_to(docs_from / "docs")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(doc, target)
    (dest / "caas.toml").write_text('[index]\nupstream = []\n', encoding="utf-8")
    return dest


# -- reviewing ------------------------------------------------------------------
def review_project(root: Path, index_dir: Path) -> list[tuple[Claim, Verdict]]:
    if index_dir.exists():
        shutil.rmtree(index_dir)
    engine = Engine.open(root, index_dir=index_dir)
    try:
        reviewer = StaticReviewer()
        docs = sorted(p.relative_to(root).as_posix() for p in (root / "docs").rglob("*") if p.suffix in DOC_SUFFIXES)
        return [pair for doc in docs for pair in review_doc(engine, doc, reviewer).pairs()]
    finally:
        engine.close()


def drift_row(pkg: Package, pairs: Sequence[tuple[Claim, Verdict]], changes: Sequence[Change],
              new_modules: dict[str, Any]) -> dict[str, Any]:
    hits: list[dict[str, Any]] = []
    foreign = foreign_names(pairs, pkg.imports)
    exists = resolver(new_modules)
    for claim, verdict in pairs:
        matched = [c for c in changes if mentions(claim, c, foreign.get(claim.doc_path, frozenset()), exists)]
        if matched:
            hits.append({
                "doc": claim.doc_path, "line": claim.start_line, "text": claim.text[:200], "label": verdict.verdict,
                "rationale": verdict.rationale[:300], "changes": sorted({f"{c.path}: {c.text}" for c in matched}),
                "kinds": sorted({c.kind for c in matched}),
            })
    labels = Counter(h["label"] for h in hits)
    by_kind: dict[str, dict[str, int]] = {}
    for h in hits:
        for kind in h["kinds"]:
            row = by_kind.setdefault(kind, {"claims": 0, "flagged": 0})
            row["claims"] += 1
            row["flagged"] += h["label"] in FLAGS
    flagged = sum(labels[x] for x in FLAGS)
    all_flags = sum(v.verdict in FLAGS for _, v in pairs)
    return {
        "package": pkg.dist, "old": pkg.old, "new": pkg.new, "why": pkg.why,
        "breaking_changes": len(changes), "change_kinds": dict(Counter(c.kind for c in changes)),
        "changed_objects_mentioned": len({c.path for c in changes for h in hits if f"{c.path}: {c.text}" in h["changes"]}),
        "claims": len(pairs), "mention_claims": len(hits), "mention_flagged": flagged,
        "mention_flagged_rate": round(flagged / len(hits), 4) if hits else None,
        "mention_labels": dict(labels), "by_kind": by_kind,
        "flags_total": all_flags, "flags_off_mentions": all_flags - flagged,
        "mentions": hits,
    }


def current_flags(pkg: Package, pairs: Sequence[tuple[Claim, Verdict]]) -> list[dict[str, Any]]:
    return [
        {"package": f"{pkg.dist} {pkg.new}", "doc": c.doc_path, "line": c.start_line, "text": c.text,
         "label": v.verdict, "rationale": v.rationale,
         "evidence": [f"{e.path}:{e.start_line}-{e.end_line}" + (f" ({e.symbol})" if e.symbol else "") for e in v.evidence]}
        for c, v in pairs if v.verdict in FLAGS
    ]


def spread(groups: Sequence[Sequence[dict[str, Any]]], n: int) -> list[dict[str, Any]]:
    """Up to ``n`` items taken round-robin from ``groups`` (each in document order)."""
    out: list[dict[str, Any]] = []
    iters = [iter(g) for g in groups]
    while len(out) < n and iters:
        for it in list(iters):
            item = next(it, None)
            if item is None:
                iters.remove(it)
            elif len(out) < n:
                out.append(item)
    return out


def table(rows: Iterable[dict[str, Any]]) -> str:
    out = ["| set | package | old docs -> new code | breaking changes | claims | claims mentioning a change | "
           "flagged | labels of those claims |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        rate = "-" if r["mention_flagged_rate"] is None else f"{100 * r['mention_flagged_rate']:.0f}%"
        labels = ", ".join(f"{k} {v}" for k, v in sorted(r["mention_labels"].items()))
        out.append(f"| {r['set']} | {r['package']} | {r['old']} -> {r['new']} | {r['breaking_changes']} | {r['claims']} | "
                   f"{r['mention_claims']} | {r['mention_flagged']}/{r['mention_claims']} ({rate}) | {labels} |")
    return "\n".join(out)


def totals(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for r in rows:
        t = out.setdefault(r["set"], {"mention_claims": 0, "mention_flagged": 0, "mention_consistent": 0})
        t["mention_claims"] += r["mention_claims"]
        t["mention_flagged"] += r["mention_flagged"]
        t["mention_consistent"] += r["mention_labels"].get("consistent", 0)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    known = {**PACKAGES, **DEV2, **DEV3, **HELDOUT}
    ap.add_argument("--sets", default="dev,dev2,dev3,heldout", help="drift sets to run: dev, dev2, dev3, heldout (comma-separated)")
    ap.add_argument("--packages", default="", help=f"comma-separated subset of {', '.join(known)} (default: the sets')")
    ap.add_argument("--cache", type=Path, default=CACHE, help=f"download and build directory (default: {CACHE})")
    ap.add_argument("--flags", type=int, default=30, help="flags on current docs to write for hand-checking")
    ap.add_argument("--current", default=",".join(CURRENT_ONLY),
                    help=f"extra packages whose current guides are reviewed for flags (from {', '.join(CURRENT_ONLY)}; "
                         "'' for none)")
    ap.add_argument("--out", type=Path, default=RESULTS / "drift.json", help="results file (JSON)")
    ap.add_argument("--no-flags-file", action="store_true", help="do not rewrite bench/results/drift_flags.md")
    ap.add_argument("--json", action="store_true", help="print the results as JSON instead of a table")
    args = ap.parse_args(argv)
    sets = [n.strip() for n in args.sets.split(",") if n.strip()]
    if any(n not in DRIFT_SETS for n in sets):
        ap.error(f"unknown set in {args.sets!r}; known: {', '.join(DRIFT_SETS)}")
    chosen = [n.strip() for n in args.packages.split(",") if n.strip()]
    names = [(set_name, n) for set_name in sets for n in DRIFT_SETS[set_name] if not chosen or n in chosen]
    extra = [n.strip() for n in args.current.split(",") if n.strip()]
    unknown = [n for n in chosen if n not in known] + [n for n in extra if n not in CURRENT_ONLY]
    if unknown:
        ap.error(f"unknown package(s) {', '.join(unknown)}; known: {', '.join([*known, *CURRENT_ONLY])}")
    cache = args.cache.expanduser().resolve()
    if cache.is_relative_to(REPO):
        ap.error("the cache must be outside the repository")
    rows, flag_groups, flag_names, timings = [], [], [], {}
    for set_name, name in names:
        pkg = DRIFT_SETS[set_name][name]
        t0 = time.perf_counter()
        old, new = fetch(pkg.dist, pkg.old, cache), fetch(pkg.dist, pkg.new, cache)
        changes, new_modules = breaking_changes(old, new, pkg)
        drift_root = build_project(cache / "projects" / f"{pkg.dist}-{pkg.old}-docs-on-{pkg.new}", new, old, pkg)
        row = drift_row(pkg, review_project(drift_root, cache / "index" / drift_root.name), changes, new_modules)
        rows.append({"set": set_name, **row})
        if set_name in ("dev", "dev3"):  # the dev2 and held-out packages' current docs are among CURRENT_ONLY
            cur_root = build_project(cache / "projects" / f"{pkg.dist}-{pkg.new}", new, new, pkg)
            flag_groups.append(current_flags(pkg, review_project(cur_root, cache / "index" / cur_root.name)))
            flag_names.append(name)
        timings[name] = round(time.perf_counter() - t0, 1)
    for name in extra:
        pkg = CURRENT_ONLY[name]
        t0 = time.perf_counter()
        new = fetch(pkg.dist, pkg.new, cache)
        cur_root = build_project(cache / "projects" / f"{pkg.dist}-{pkg.new}", new, new, pkg)
        flag_groups.append(current_flags(pkg, review_project(cur_root, cache / "index" / cur_root.name)))
        flag_names.append(name)
        timings[f"{name} (current)"] = round(time.perf_counter() - t0, 1)
    flags = spread(flag_groups, args.flags)
    RESULTS.mkdir(parents=True, exist_ok=True)
    if args.no_flags_file:
        checks = previous_checks(RESULTS / "drift_flags.md")
        tally = Counter(checks[flag_id(f)][0] if flag_id(f) in checks else "unchecked" for f in flags)
        true_pos, false_pos, unchecked = tally["true"], tally["false"], tally["unchecked"]
    else:
        true_pos, false_pos, unchecked = write_flags(RESULTS / "drift_flags.md", flags)
    payload = {
        "packages": rows, "totals": totals(rows), "seconds": timings,
        "current_docs": {"flags_total": {n: len(g) for n, g in zip(flag_names, flag_groups, strict=True)},
                         "hand_checked": len(flags), "true_positives": true_pos, "false_positives": false_pos,
                         "unchecked": unchecked, "flags": flags},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(payload, indent=2))
    else:
        print(table(rows))
        for set_name, t in payload["totals"].items():
            print(f"{set_name}: {t['mention_flagged']}/{t['mention_claims']} changed-API mentions flagged, "
                  f"{t['mention_consistent']} labelled consistent")
        print(f"\ncurrent releases' own guides: {sum(len(g) for g in flag_groups)} flags; "
              f"{len(flags)} taken for hand-checking (hand check: {true_pos} true, {false_pos} false, "
              f"{unchecked} unchecked)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
