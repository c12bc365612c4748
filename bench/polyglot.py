"""Retrieval bench on real code in a tree-sitter language (a script, not a test).

    python bench/polyglot.py --fetch commons-lang3 --queries 1000   # a named corpus (below), fetched once
    python bench/polyglot.py --corpus DIR --lang ts [--queries 200] [--out FILE]
    python bench/polyglot.py --fetch rxjs --copies 4      # ~1,000 files: time per chunk at scale
    python bench/polyglot.py --lang python [--corpus DIR]   # reference: the stdlib (or DIR)

The stdlib bench's method (``retrieval.py``) on someone else's code: the first
sentences of function and method doc comments (JSDoc/TSDoc, Javadoc, KDoc, C# XML,
Go, rustdoc; the description before the first block tag, else ``@summary`` /
``@description``; a comment of other tags only, like ``@deprecated Use X``, makes no
query, and of overloads the first one with a description counts) are the queries, and
every doc comment is blanked out of the indexed copy with line numbers kept (in Java,
Kotlin, TS and JS also a ``/** */`` no symbol owns: fields, constants, package-info), so
a query can only find its function through the code.
Reported per mode (bm25, dense, hybrid) and for the keyword baseline: MRR@10, hit@10,
the mean span in lines of the chunk that was the hit, query latency p50/p95; and the
cold index time (a second build in the same process, so the model's loading is not
counted per chunk), chunks per second and time per chunk. Timings are noisy on 2 shared
cores: compare ratios within one run (``--lang python`` gives the reference).

Corpora live outside the repository. ``--fetch NAME`` fetches one of the named corpora
below into ``~/.cache/caas-tui-bench/polyglot/`` (once; ``--cache DIR`` for elsewhere)
and benches the folders a sources jar or package holds; the same by hand:

    # Java and Kotlin from Debian source packages (Maven Central is unreachable on this kind of
    # machine). The .orig tarball is the upstream release tag, not repacked (no +ds), and the
    # folders benched are the ones the release's sources jar holds (src/main/java for commons-lang3).
    # Needs a deb-src line for bookworm in /etc/apt/sources.list.d/ and `apt-get update`.
    cd ~/.cache/caas-tui-bench/polyglot
    apt-get source --download-only libcommons-lang3-java   # -> libcommons-lang3-java_3.12.0.orig.tar.xz
    tar xJf libcommons-lang3-java_3.12.0.orig.tar.xz       # bench commons-lang-rel-commons-lang-3.12.0/src/main/java
    apt-get source --download-only guava-libraries         # -> guava-libraries_31.1.orig.tar.xz: guava-31.1/guava/src
    apt-get source --download-only kotlinx-coroutines      # -> kotlinx-coroutines_1.0.1.orig.tar.xz (its .debian
        # tarball may 404: only the .orig is needed): kotlinx-coroutines-1.0.1/{common/kotlinx-coroutines-core-common,
        # core/kotlinx-coroutines-core}/src, the sources of the kotlinx-coroutines-core jar
    # TypeScript from npm
    npm pack rxjs@7.8.1 --pack-destination .               # ships its TypeScript in package/src
    npm pack date-fns@4.4.0 --pack-destination .           # .d.ts with TSDoc (and .d.cts copies: keep the .d.ts)
    # a JDK's own library sources
    unzip "$JAVA_HOME/lib/src.zip" 'java.base/java/util/*' -d /tmp/corpora/jdk
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from retrieval import evaluate  # noqa: E402
from stdlib_corpus import Query, first_sentence, make_corpus, sample  # noqa: E402

from caas_tui.ingest.treesitter import outline  # noqa: E402
from caas_tui.models import SourceFile  # noqa: E402
from caas_tui.retrieve.engine import Engine  # noqa: E402
from caas_tui.sources.entries import SKIP_DIRS, kind_of, language_of  # noqa: E402

LANGS = {
    "ts": "typescript", "typescript": "typescript", "js": "javascript", "javascript": "javascript",
    "java": "java", "kt": "kotlin", "kotlin": "kotlin", "cs": "csharp", "csharp": "csharp",
    "go": "go", "rs": "rust", "rust": "rust", "py": "python", "python": "python",
}
_JSDOC_LANGUAGES = frozenset({"typescript", "javascript", "java", "kotlin"})
_QUERY_KINDS = frozenset({"function", "method"})  # as the stdlib bench: functions and methods
_COMMENT_LINE = re.compile(r"^\s*(?:/\*\*?|\*|///?|//!|\*/)")
# A /** */ comment opening its line documents something even where no symbol chunk owns it
# (fields, constants, package-info.java): blanked too, as every docstring is in the stdlib bench.
_DOC_BLOCK = re.compile(r"^[ \t]*/\*\*(?!/).*?\*/", re.M | re.S)
_INLINE_TAG = re.compile(r"\{@\w+\s+([^}]*)\}")  # {@link Foo} / {@code x} -> their text
_HTML = re.compile(r"</?[A-Za-z][^>]*>")


@dataclass(frozen=True)
class Named:
    """A corpus fetched by package name: ``fetch`` run in the cache folder leaves ``archive``;
    ``include`` are the folders inside it a sources jar holds (merged, paths relative to each),
    ``suffix`` keeps only files whose name ends so."""

    language: str
    fetch: tuple[str, ...]
    archive: str
    include: tuple[str, ...]
    suffix: str = ""


CORPORA = {
    "commons-lang3": Named("java", ("apt-get", "source", "--download-only", "libcommons-lang3-java"),
                           "libcommons-lang3-java_3.12.0.orig.tar.xz",
                           ("commons-lang-rel-commons-lang-3.12.0/src/main/java",)),
    "guava": Named("java", ("apt-get", "source", "--download-only", "guava-libraries"),
                   "guava-libraries_31.1.orig.tar.xz", ("guava-31.1/guava/src",)),
    "kotlinx-coroutines": Named("kotlin", ("apt-get", "source", "--download-only", "kotlinx-coroutines"),
                                "kotlinx-coroutines_1.0.1.orig.tar.xz",
                                ("kotlinx-coroutines-1.0.1/common/kotlinx-coroutines-core-common/src",
                                 "kotlinx-coroutines-1.0.1/core/kotlinx-coroutines-core/src")),
    "rxjs": Named("typescript", ("npm", "pack", "rxjs@7.8.1", "--pack-destination", "."), "rxjs-7.8.1.tgz",
                  ("rxjs-7.8.1/package/src",)),
    "date-fns": Named("typescript", ("npm", "pack", "date-fns@4.4.0", "--pack-destination", "."),
                      "date-fns-4.4.0.tgz", ("date-fns-4.4.0/package",), ".d.ts"),
}


def fetch(name: str, cache: Path) -> tuple[list[Path], str]:
    """The source folders of corpus ``name``, fetched and unpacked into ``cache`` if missing."""
    spec = CORPORA[name]
    cache.mkdir(parents=True, exist_ok=True)
    archive = cache / spec.archive
    if not archive.exists():
        # apt-get source leaves a .debian tarball that may 404 while the .orig came: judge by the archive
        subprocess.run(spec.fetch, cwd=cache, check=False)
        if not archive.exists():
            raise SystemExit(f"{' '.join(spec.fetch)} did not leave {spec.archive} in {cache}: "
                             "the registry now serves another version (or, for apt, no deb-src line)")
    roots = [cache / inc for inc in spec.include]
    if not all(r.is_dir() for r in roots):
        into = cache / archive.name.split(".tgz")[0] if archive.suffix == ".tgz" else cache
        with tarfile.open(archive) as tar:
            tar.extractall(into, filter="data")
    return roots, spec.suffix


_BLOCK_TAG = re.compile(r"^\s*@(\w+)", re.M)
_DESCRIPTION_TAGS = ("summary", "description")  # JSDoc's own tags for the description


def _sentence(doc: str) -> str:
    """The first sentence of the doc comment's description: the text before its first block
    tag, else the text of ``@summary`` / ``@description``. A comment made of other tags only
    (``@deprecated Use X``, ``@param marbles ...``) describes no behaviour: no query."""
    text = _INLINE_TAG.sub(lambda m: m.group(1).split("|")[0].strip(), doc)
    text = _HTML.sub("", text).strip()
    tags = list(_BLOCK_TAG.finditer(text))
    para = text[: tags[0].start()].strip() if tags else text
    for wanted in _DESCRIPTION_TAGS if not para else ():
        tag = next((t for t in tags if t.group(1) == wanted), None)
        if tag is not None:
            after = next((t.start() for t in tags if t.start() > tag.start()), len(text))
            para = text[tag.end() : after].strip()
            break
    return first_sentence(para.split("\n\n")[0])


def _files(sources: list[Path], suffix: str, copies: int = 1) -> list[tuple[Path, str]]:
    """(path, path relative to its source folder): the folders merged as in a sources jar;
    with ``copies`` > 1 that many copies side by side (``copy0/`` ...), for timing at scale."""
    found: dict[str, Path] = {}
    for source in sources:
        for path in sorted(source.rglob("*" + suffix)):
            found.setdefault(path.relative_to(source).as_posix(), path)
    prefixes = [f"copy{i}/" for i in range(copies)] if copies > 1 else [""]
    return sorted(((p, pre + rel) for pre in prefixes for rel, p in found.items()), key=lambda t: t[1])


def make_treesitter_corpus(
    sources: Path | list[Path], dest: Path, language: str, suffix: str = "", copies: int = 1
) -> list[Query]:
    """Copy the non-test files of ``language`` in ``sources`` to ``dest`` with doc comments
    blanked; the queries their function and method doc comments make."""
    if dest.exists():
        shutil.rmtree(dest)
    queries: dict[tuple[str, str], Query] = {}
    for path, rel in _files(sources if isinstance(sources, list) else [sources], suffix, copies):
        if not path.is_file() or language_of(rel) != language or kind_of(rel, language, ()) != "code":
            continue
        if any(p in SKIP_DIRS for p in rel.split("/")[:-1]):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        found = outline(SourceFile(rel, "code", language, text, 0.0, "", len(text)))
        if found is None:
            target.write_text(text, encoding="utf-8")
            continue
        lines = text.split("\n")
        docs = [d.doc for d in found.walk() if d.doc is not None]
        if found.module_doc is not None:
            docs.append(found.module_doc)
        spans = [(doc.start, doc.end) for doc in docs]
        if language in _JSDOC_LANGUAGES:
            spans += [(text.count("\n", 0, m.start()) + 1, text.count("\n", 0, m.end()) + 1)
                      for m in _DOC_BLOCK.finditer(text)]
        for start, end in spans:
            for i in range(start - 1, min(end, len(lines))):
                if _COMMENT_LINE.match(lines[i]):
                    lines[i] = ""  # the line count stays: every span is still where it was
        for d in found.walk():
            if d.doc is None or d.kind not in _QUERY_KINDS or d.name.startswith(("_", "#")) or d.is_test:
                continue
            sentence = _sentence(d.doc.text)
            if len(sentence.split()) >= 4:
                queries.setdefault((rel, d.symbol), Query(sentence, rel, d.symbol, d.start))  # overloads: once
        target.write_text("\n".join(lines), encoding="utf-8")
    return list(queries.values())


def run(corpus: list[Path] | None, language: str, n_queries: int, work: Path, suffix: str = "",
        name: str = "", copies: int = 1) -> dict[str, object]:
    dest = work / "corpus"
    if language == "python":
        queries = make_corpus(dest, blank_docstrings=True, source=corpus[0] if corpus else None)
    else:
        assert corpus
        queries = make_treesitter_corpus(corpus, dest, language, suffix, copies)
    chosen = sample(queries, n_queries)
    t0 = time.perf_counter()
    Engine.open(dest, index_dir=work / "first-index").close()
    first = time.perf_counter() - t0
    # Timed again in the same process: the first build also pays for imports and for
    # loading the model, a fixed cost that would swamp the per-chunk time of a small corpus.
    t0 = time.perf_counter()
    engine = Engine.open(dest, index_dir=work / "index")
    cold = time.perf_counter() - t0
    try:
        chunks = engine.chunks()
        files = len(engine.store.manifest.files) if engine.store.manifest else 0
        modes = evaluate(engine, chosen)
    finally:
        engine.close()
    return {
        "language": language, "name": name or (corpus[0].name if corpus else "stdlib"),
        "corpus": [str(c) for c in corpus] if corpus else "stdlib", "files": files,
        "chunks": len(chunks), "code_chunks": sum(c.kind == "code" for c in chunks),
        "queries_available": len(queries), "queries": len(chosen),
        "first_index_s": first, "cold_index_s": cold, "chunks_per_s": len(chunks) / cold, "ms_per_chunk": 1000 * cold / max(1, len(chunks)),
        "modes": modes,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, help="source folder (required except for --lang python)")
    ap.add_argument("--fetch", choices=sorted(CORPORA), help="a named corpus, fetched once into --cache")
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "caas-tui-bench" / "polyglot")
    ap.add_argument("--lang", choices=sorted(LANGS), help="required with --corpus (or for the stdlib: python)")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--copies", type=int, default=1, help="index N copies side by side (time per chunk at scale)")
    ap.add_argument("--out", type=Path, help="JSON report (default bench/results/polyglot-LANG.json)")
    args = ap.parse_args()
    suffix = ""
    if args.fetch:
        roots, suffix = fetch(args.fetch, args.cache.expanduser())
        language = CORPORA[args.fetch].language
    else:
        if args.lang is None:
            ap.error("--lang is required without --fetch")
        language = LANGS[args.lang]
        if language != "python" and (args.corpus is None or not args.corpus.is_dir()):
            ap.error("--corpus DIR or --fetch NAME is required (see the module docstring)")
        roots = [args.corpus.resolve()] if args.corpus else []
    with tempfile.TemporaryDirectory(prefix="caas-polyglot-") as tmp:
        report = run(roots or None, language, args.queries, Path(tmp), suffix, args.fetch or "", args.copies)
    report["copies"] = args.copies
    stem = f"polyglot-{args.fetch or language}" + (f"-x{args.copies}" if args.copies > 1 else "")
    out = args.out or Path(__file__).parent / "results" / f"{stem}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2))
    modes: dict[str, dict[str, float]] = report["modes"]  # type: ignore[assignment]
    print(f"{language}: {report['files']} files, {report['chunks']} chunks, {report['queries']} queries "
          f"(of {report['queries_available']}); first index {report['first_index_s']:.1f} s, "
          f"cold index {report['cold_index_s']:.1f} s, "
          f"{report['chunks_per_s']:.0f} chunks/s ({report['ms_per_chunk']:.2f} ms/chunk)")
    print("| mode | MRR@10 | hit@10 | mean hit span | p50 ms | p95 ms |")
    print("|---|---|---|---|---|---|")
    for name in ("keyword", "bm25", "dense", "hybrid"):
        r = modes[name]
        print(f"| {name} | {r['mrr@10']:.3f} | {r['hit@10']:.3f} | {r['mean_hit_span']:.1f} | "
              f"{r['p50_ms']:.1f} | {r['p95_ms']:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
