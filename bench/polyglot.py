"""Retrieval bench on real code in a tree-sitter language (a script, not a test).

    python bench/polyglot.py --corpus DIR --lang ts [--queries 200] [--out FILE]
    python bench/polyglot.py --lang python [--corpus DIR]   # reference: the stdlib (or DIR)

The stdlib bench's method (``retrieval.py``) on someone else's code: the first
sentences of function and method doc comments (JSDoc/TSDoc, Javadoc, KDoc, C# XML,
Go, rustdoc; the description before the first block tag, else ``@summary`` /
``@description``; a comment of other tags only, like ``@deprecated Use X``, makes no
query, and of overloads the first one with a description counts) are the queries, and
every doc comment is blanked out of the indexed copy with line numbers kept, so a query
can only find its function through the code.
Reported per mode (bm25, dense, hybrid) and for the keyword baseline: MRR@10, hit@10,
the mean span in lines of the chunk that was the hit, query latency p50/p95; and the
cold index time (a second build in the same process, so the model's loading is not
counted per chunk), chunks per second and time per chunk. Timings are noisy on 2 shared
cores: compare ratios within one run (``--lang python`` gives the reference).

Corpora live outside the repository (``/tmp`` or ``~/.cache``), for example:

    npm pack rxjs@7.8.1 --pack-destination /tmp/corpora     # ships its TypeScript in src/
    tar xzf /tmp/corpora/rxjs-7.8.1.tgz -C /tmp/corpora      # -> /tmp/corpora/package/src
    npm pack date-fns@4.4.0 --pack-destination /tmp/corpora  # .d.ts with TSDoc (and .d.cts copies: keep one)
    mkdir /tmp/corpora/date-fns && tar xzf /tmp/corpora/date-fns-4.4.0.tgz -C /tmp/corpora/date-fns
    (cd /tmp/corpora/date-fns/package && find . -name '*.d.ts' | cpio -pdm /tmp/corpora/date-fns-4.4.0)
    mvn dependency:get -Dartifact=org.apache.commons:commons-lang3:3.17.0:jar:sources
    unzip ~/.m2/repository/org/apache/commons/commons-lang3/3.17.0/commons-lang3-3.17.0-sources.jar \\
        -d /tmp/corpora/commons-lang3
    # without Maven Central: a JDK's own library sources
    unzip "$JAVA_HOME/lib/src.zip" 'java.base/java/util/*' -d /tmp/corpora/jdk
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
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
_QUERY_KINDS = frozenset({"function", "method"})  # as the stdlib bench: functions and methods
_COMMENT_LINE = re.compile(r"^\s*(?:/\*\*?|\*|///?|//!|\*/)")
_INLINE_TAG = re.compile(r"\{@\w+\s+([^}]*)\}")  # {@link Foo} / {@code x} -> their text
_HTML = re.compile(r"</?[A-Za-z][^>]*>")


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


def make_treesitter_corpus(source: Path, dest: Path, language: str) -> list[Query]:
    """Copy ``source``'s non-test files of ``language`` to ``dest`` with doc comments blanked;
    the queries their function and method doc comments make."""
    if dest.exists():
        shutil.rmtree(dest)
    queries: dict[tuple[str, str], Query] = {}
    for path in sorted(source.rglob("*")):
        rel = path.relative_to(source).as_posix()
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
        for doc in docs:
            for i in range(doc.start - 1, min(doc.end, len(lines))):
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


def run(corpus: Path | None, language: str, n_queries: int, work: Path) -> dict[str, object]:
    dest = work / "corpus"
    if language == "python":
        queries = make_corpus(dest, blank_docstrings=True, source=corpus)
    else:
        assert corpus is not None
        queries = make_treesitter_corpus(corpus, dest, language)
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
        "language": language, "corpus": str(corpus) if corpus else "stdlib", "files": files,
        "chunks": len(chunks), "code_chunks": sum(c.kind == "code" for c in chunks),
        "queries_available": len(queries), "queries": len(chosen),
        "first_index_s": first, "cold_index_s": cold, "chunks_per_s": len(chunks) / cold, "ms_per_chunk": 1000 * cold / max(1, len(chunks)),
        "modes": modes,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, help="source folder (required except for --lang python)")
    ap.add_argument("--lang", required=True, choices=sorted(LANGS))
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--out", type=Path, help="JSON report (default bench/results/polyglot-LANG.json)")
    args = ap.parse_args()
    language = LANGS[args.lang]
    if language != "python" and (args.corpus is None or not args.corpus.is_dir()):
        ap.error("--corpus DIR is required (see the module docstring for how to fetch one)")
    with tempfile.TemporaryDirectory(prefix="caas-polyglot-") as tmp:
        report = run(args.corpus.resolve() if args.corpus else None, language, args.queries, Path(tmp))
    out = args.out or Path(__file__).parent / "results" / f"polyglot-{language}.json"
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
