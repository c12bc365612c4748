"""Real documentation drift: an older release's guides over a newer release's code (a script).

    python bench/drift.py [--packages attrs,click,marshmallow] [--cache DIR] [--flags 30] [--json]

For each package, the sdists of an older and a newer release are downloaded with pip
into a cache outside the repository (default ``~/.cache/caas-tui-bench/drift``). griffe
(``griffe.load`` + ``griffe.find_breaking_changes``) lists the breaking API changes
between them: the ground truth. A project is built from the newer release's code and
the older release's guides (``docs/*.md|rst``, minus changelogs, licences and the like)
and the static reviewer reviews every guide. A claim *mentions* a change when it names
the changed object (see ``mentions``); we count those claims and how many the reviewer
flags (contradicted or incomplete).

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
import logging
import re
import shutil
import subprocess
import sys
import tarfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from caas_tui.models import Claim, Verdict
from caas_tui.retrieve.engine import Engine
from caas_tui.review import StaticReviewer, review_doc

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "results"
CACHE = Path.home() / ".cache" / "caas-tui-bench" / "drift"
FLAGS = ("contradicted", "incomplete")
DOC_SUFFIXES = (".md", ".rst")
# Pages about the project rather than its API (any path part naming history: ``versionhistory.rst``,
# ``change_log/release-2.1.md``): history is true by construction, the rest has no API claims.
SKIP_DOCS = re.compile(
    r"(?:^|/)(?:[^/]*(?:change_?log|changes|history|release[-_]?notes?|whats_?new)[^/]*|news(?:\.\w+)?)(?:/|$)"
    r"|(?:^|/)(?:license|authors|contributing|code_of_conduct|kudos|whos_using|donate|ecosystem|upgrading"
    r"|migration)[^/]*$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Package:
    dist: str
    imports: tuple[str, ...]  # top-level import packages compared by griffe
    old: str
    new: str
    why: str


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
    archive = next(p for p in sdists.iterdir() if p.name.lower().startswith(f"{dist}-{version}".lower())
                   and p.name.endswith((".tar.gz", ".zip")))
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


def package_dir(sdist: Path, name: str) -> Path:
    for cand in (sdist / "src" / name, sdist / name):
        if (cand / "__init__.py").is_file():
            return cand
    raise FileNotFoundError(f"{sdist}: no package {name}")


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


# -- ground truth ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Change:
    kind: str  # griffe's BreakageKind value
    path: str  # the changed object (a function for parameter changes)
    key: str  # the name a doc uses for it: ``Class.method``, ``func`` or ``Class``
    param: str | None  # the parameter, for parameter changes
    text: str  # griffe's one-line explanation, without colours


def breaking_changes(old_sdist: Path, new_sdist: Path, pkg: Package) -> tuple[list[Change], dict[str, Any]]:
    """griffe's breaking changes from the old to the new release, and the new release's modules."""
    import griffe

    logging.getLogger("griffe").setLevel(logging.CRITICAL)
    out: list[Change] = []
    olds, news = _griffe_modules(old_sdist, pkg), _griffe_modules(new_sdist, pkg)
    for name in pkg.imports:
        old, new = olds[name], news[name]
        for b in griffe.find_breaking_changes(old, new):
            kind = b.kind.value
            if _not_an_api_change(kind, b.obj.name, b.old_value, b.new_value):
                continue
            param: str | None
            if kind == "Base class was removed":
                # only a claim naming a removed base is about it: ``Schema`` is still ``Schema``
                param = ",".join(str(x).rsplit(".", 1)[-1] for x in b.old_value or [])
            elif "arameter" in kind:
                param = getattr(b.old_value, "name", None) or getattr(b.new_value, "name", None)
            else:
                param = None
            out.append(Change(kind, b.obj.path, doc_key(b.obj.path, name), param,
                              re.sub(r"\x1b\[[0-9;]*m", "", b.explain()).split(": ", 1)[-1]))
    return out, news


def _not_an_api_change(kind: str, name: str, old: Any, new: Any) -> bool:
    """griffe findings that no documentation reader can observe."""
    if name.startswith("__") and name.endswith("__") and name not in ("__init__", "__call__"):
        return True  # ``__doc__``, ``__all__``, ``__version__`` bookkeeping
    if kind == "Base class was removed" and [str(x) for x in (old or [])] == ["object"]:
        return True  # py2-era ``class X(object)`` -> ``class X:`` is the same class
    # an annotation that moved to a stub or was dropped is not a new return type
    return kind == "Return types are incompatible" and new is None


def _griffe_modules(sdist: Path, pkg: Package) -> dict[str, Any]:
    """All of ``pkg``'s top-level packages in one loader: ``attrs`` re-exports ``attr``."""
    import griffe

    loader = griffe.GriffeLoader(search_paths=[str(package_dir(sdist, n).parent) for n in pkg.imports],
                                 allow_inspection=False)
    modules = {name: loader.load(name) for name in pkg.imports}
    loader.resolve_aliases(implicit=False, external=False)
    return modules


def doc_key(path: str, top: str) -> str:
    """The part of a dotted path a guide writes: drop the module path, keep ``Class.attr``."""
    parts = path.split(".")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    tail = [p for p in parts[1:] if p[:1].isupper()]
    if tail:
        start = parts.index(tail[0])
        return ".".join(parts[start:])
    return parts[-1] if len(parts) > 1 else top


def mentions(claim: Claim, change: Change, foreign: frozenset[str] = frozenset(),
             exists: Callable[[str], bool] = lambda _: False) -> bool:
    """True when ``claim`` names the changed object (and the parameter, for parameter changes).

    A ``Class.attr`` key matches a symbol that is it or ends in ``.Class.attr``, or the same
    words in the text. A module-level ``name`` matches only a symbol: ``name`` itself or
    ``name`` qualified by its module path (``jinja2.ext.autoescape``, ``ext.autoescape``),
    so ``Environment.autoescape`` is not the removed ``jinja2.ext.autoescape`` extension,
    or the bare word in a code span; not when the doc imports that name from another
    package, and a removed object not when the name as written still resolves (it moved).
    For a parameter change (and a removed base class) the parameter (base) must also be
    written as code: one of the claim's symbols, or a word in one of its code spans.
    """
    key, path = change.key, change.path
    if "." in key:  # ``Class.attr``: any qualification of it
        named = any(sym in (key, path) or sym.endswith("." + key) for sym in claim.symbols)
        named = named or re.search(rf"(?<![\w]){re.escape(key)}(?!\w)", claim.text) is not None
    else:  # a module-level name: bare, or qualified by (a suffix of) its own module path
        modules = path.split(".")[:-1]
        prefixes = {".".join(modules[i:]) for i in range(len(modules))} | {modules[0]}
        removed = change.kind == "Public object was removed"

        def names_it(sym: str) -> bool:
            if sym == key:  # bare: not when the doc imports that name from elsewhere or it is still exported
                return key not in foreign and not (removed and exists(f"{modules[0]}.{key}"))
            qualified = sym.rsplit(".", 1)[0] in prefixes and sym.endswith("." + key)
            return qualified and not (removed and exists(sym))  # moved, still importable as written

        named = any(names_it(sym) for sym in claim.symbols) or any(
            re.search(rf"(?<![\w.]){re.escape(key)}(?!\w)", span) for span in claim.code_spans
        ) and names_it(key)
    if not named:
        return False
    if change.param is None:
        return True
    # a parameter change concerns a claim that writes the parameter, not one whose prose uses the word;
    # a parameter that only moved or became keyword-only still works when passed by keyword
    by_keyword_ok = change.kind in ("Positional parameter was moved", "Parameter kind was changed")
    tail = r"(?!\w)(?!\s*=[^=])" if by_keyword_ok else r"(?!\w)"
    return any(
        p in claim.symbols and not by_keyword_ok
        or any(re.search(rf"(?<![\w.]){re.escape(p)}{tail}", span) for span in claim.code_spans)
        for p in change.param.split(",")
    )


IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import\s+([^\n#]+)|import\s+([\w., ]+))", re.MULTILINE)


def foreign_names(pairs: Sequence[tuple[Claim, Verdict]], tops: Sequence[str]) -> dict[str, frozenset[str]]:
    """Per doc, the bare names its code imports from other packages (``from pprint import pprint``)."""
    out: dict[str, set[str]] = {}
    for claim, _ in pairs:
        for m in IMPORT.finditer(claim.text):
            module = m.group(1) or ""
            if module.split(".")[0] in tops:
                continue
            names = m.group(2) if m.group(1) else m.group(3)
            for part in re.split(r"[,()\s]+", names or ""):
                word = part.split(" as ")[0].strip().split(".")[-1]
                if word.isidentifier():
                    out.setdefault(claim.doc_path, set()).add(word)
    return {doc: frozenset(names) for doc, names in out.items()}


def resolver(modules: dict[str, Any]) -> Callable[[str], bool]:
    """Whether a dotted name as a doc writes it still resolves in the newer release."""
    def exists(dotted: str) -> bool:
        top, _, rest = dotted.partition(".")
        if top not in modules:
            return False
        try:
            obj = modules[top][rest] if rest else modules[top]
            return obj is not None
        except Exception:  # griffe raises KeyError or alias-resolution errors: either way, not there
            return False
    return exists


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


CHECK = re.compile(r"<!-- check: (true|false) positive\W+(.*?) -->")


def flag_id(f: dict[str, Any]) -> str:
    return f"{f['package']} {f['doc']}:{f['line']}"


def previous_checks(path: Path) -> dict[str, tuple[str, str]]:
    """Hand-check verdicts already in ``drift_flags.md``, by flag id (survive re-runs)."""
    if not path.is_file():
        return {}
    checks: dict[str, tuple[str, str]] = {}
    current: str | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^## \d+\. `(.+)`$", line)
        if m:
            current = m.group(1)
        c = CHECK.search(line)
        if c and current:
            checks[current] = (c.group(1), c.group(2))
    return checks


def write_flags(path: Path, flags: Sequence[dict[str, Any]]) -> tuple[int, int, int]:
    """Write the flags for hand-checking; returns (true, false, unchecked) counts."""
    checks = previous_checks(path)
    out = ["# Static reviewer flags on current releases' own guides (hand-checked)", "",
           "Each flag: the claim, the label, the rationale and evidence, then a hand check",
           "(`true positive` = the doc really disagrees with the code; `false positive` = it does not).",
           "Checks are kept across re-runs by flag id; new flags start unchecked.", ""]
    tally: Counter[str] = Counter()
    for i, f in enumerate(flags, 1):
        fid = flag_id(f)
        out += [f"## {i}. `{fid}`", "", f"- label: **{f['label']}**", f"- rationale: {f['rationale']}",
                f"- evidence: {', '.join(f['evidence']) or '-'}", "", "```text", f["text"].strip()[:800], "```", ""]
        if fid in checks:
            verdict, reason = checks[fid]
            tally[verdict] += 1
            out += [f"<!-- check: {verdict} positive — {reason} -->", f"**hand check: {verdict} positive** — {reason}", ""]
        else:
            tally["unchecked"] += 1
            out += ["**hand check: unchecked**", ""]
    out += ["## Summary", "", f"- true positives: {tally['true']}", f"- false positives (wrong flags): {tally['false']}",
            f"- unchecked: {tally['unchecked']}", ""]
    path.write_text("\n".join(out), encoding="utf-8")
    return tally["true"], tally["false"], tally["unchecked"]


def table(rows: Iterable[dict[str, Any]]) -> str:
    out = ["| package | old docs -> new code | breaking changes | claims | claims mentioning a change | "
           "flagged | labels of those claims |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        rate = "-" if r["mention_flagged_rate"] is None else f"{100 * r['mention_flagged_rate']:.0f}%"
        labels = ", ".join(f"{k} {v}" for k, v in sorted(r["mention_labels"].items()))
        out.append(f"| {r['package']} | {r['old']} -> {r['new']} | {r['breaking_changes']} | {r['claims']} | "
                   f"{r['mention_claims']} | {r['mention_flagged']}/{r['mention_claims']} ({rate}) | {labels} |")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--packages", default=",".join(PACKAGES), help=f"comma-separated, from {', '.join(PACKAGES)}")
    ap.add_argument("--cache", type=Path, default=CACHE, help=f"download and build directory (default: {CACHE})")
    ap.add_argument("--flags", type=int, default=30, help="flags on current docs to write for hand-checking")
    ap.add_argument("--current", default=",".join(CURRENT_ONLY),
                    help=f"extra packages whose current guides are reviewed for flags (from {', '.join(CURRENT_ONLY)}; "
                         "'' for none)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON instead of a table")
    args = ap.parse_args(argv)
    names = [n.strip() for n in args.packages.split(",") if n.strip()]
    extra = [n.strip() for n in args.current.split(",") if n.strip()]
    unknown = [n for n in names if n not in PACKAGES] + [n for n in extra if n not in CURRENT_ONLY]
    if unknown:
        ap.error(f"unknown package(s) {', '.join(unknown)}; known: {', '.join([*PACKAGES, *CURRENT_ONLY])}")
    cache = args.cache.expanduser().resolve()
    if cache.is_relative_to(REPO):
        ap.error("the cache must be outside the repository")
    rows, flag_groups, timings = [], [], {}
    for name in names:
        pkg = PACKAGES[name]
        t0 = time.perf_counter()
        old, new = fetch(pkg.dist, pkg.old, cache), fetch(pkg.dist, pkg.new, cache)
        changes, new_modules = breaking_changes(old, new, pkg)
        drift_root = build_project(cache / "projects" / f"{pkg.dist}-{pkg.old}-docs-on-{pkg.new}", new, old, pkg)
        rows.append(drift_row(pkg, review_project(drift_root, cache / "index" / drift_root.name), changes, new_modules))
        cur_root = build_project(cache / "projects" / f"{pkg.dist}-{pkg.new}", new, new, pkg)
        flag_groups.append(current_flags(pkg, review_project(cur_root, cache / "index" / cur_root.name)))
        timings[name] = round(time.perf_counter() - t0, 1)
    for name in extra:
        pkg = CURRENT_ONLY[name]
        t0 = time.perf_counter()
        new = fetch(pkg.dist, pkg.new, cache)
        cur_root = build_project(cache / "projects" / f"{pkg.dist}-{pkg.new}", new, new, pkg)
        flag_groups.append(current_flags(pkg, review_project(cur_root, cache / "index" / cur_root.name)))
        timings[name] = round(time.perf_counter() - t0, 1)
    flags = spread(flag_groups, args.flags)
    RESULTS.mkdir(parents=True, exist_ok=True)
    true_pos, false_pos, unchecked = write_flags(RESULTS / "drift_flags.md", flags)
    payload = {
        "packages": rows, "seconds": timings,
        "current_docs": {"flags_total": {n: len(g) for n, g in zip([*names, *extra], flag_groups, strict=True)},
                         "hand_checked": len(flags), "true_positives": true_pos, "false_positives": false_pos,
                         "unchecked": unchecked, "flags": flags},
    }
    (RESULTS / "drift.json").write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    if args.json:
        print(json.dumps(payload, indent=2))
    else:
        print(table(rows))
        print(f"\ncurrent releases' own guides: {sum(len(g) for g in flag_groups)} flags; "
              f"{len(flags)} written to {(RESULTS / 'drift_flags.md').relative_to(REPO)} "
              f"(hand check: {true_pos} true, {false_pos} false, {unchecked} unchecked)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
