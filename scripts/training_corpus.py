"""Training corpus for the static model: code, docstrings and docs of installed packages.

Pure Python (no torch): extraction with docstrings blanked exactly like the
benchmark, stdlib decontamination, deduplication and a seeded per-category
selection. Used by ``train_static_model.py`` (steps 1-3 of its docstring) and by
``pair_finetune.py`` (docstring -> code pairs come from the same items).
"""

from __future__ import annotations

import ast
import hashlib
import random
import re
import sys
import sysconfig
import warnings
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:  # caas_tui.ingest (pure stdlib) for chunking
    sys.path.insert(0, str(REPO_ROOT))

from caas_tui.ingest import chunk_file
from caas_tui.models import SourceFile

DEFAULT_SITE = Path("/work/venv/lib/python3.11/site-packages")
CATEGORIES = ("code", "sentence", "paragraph", "prose")
DEFAULT_MIX = {"code": 30000, "sentence": 24000, "paragraph": 6000, "prose": 4000}
SKIP_DIRS = {"__pycache__", "test", "tests", "testing", "_tests", "node_modules", "caas_tui", "sample_project",
             "_distutils", "_distutils_hack", "model"}  # forks of stdlib modules; model folders (vocab.txt)
SKIP_FILES = {"typing_extensions.py", "vocab.txt", "merges.txt"}  # a stdlib backport; tokenizer data
DOC_SUFFIXES = {".md": "markdown", ".markdown": "markdown", ".rst": "rst", ".txt": "text"}
SKIP_DOC_NAMES = re.compile(r"^(LICEN[CS]E|COPYING|NOTICE|AUTHORS|RECORD|WHEEL|INSTALLER|REQUESTED|"
                            r"top_level|entry_points|dependency_links|requires|SOURCES|namespace_packages)",
                            re.IGNORECASE)
MAX_FILE_BYTES = 1_000_000
MIN_CODE_CHARS = 60
MIN_SENTENCE_WORDS = 4
EMBED_CHARS = 4000  # caas_tui.index.store._EMBED_CHARS


@dataclass(frozen=True)
class Item:
    """One candidate training text."""

    category: str  # code | sentence | paragraph | prose
    text: str
    package: str  # top-level package (for the per-package cap)
    source: str  # path:symbol, for reports


# -- corpus extraction (pure) --------------------------------------------------------
def first_sentence(doc: str) -> str:
    """Same rule as the benchmark's queries (``bench/stdlib_corpus.py``)."""
    para = doc.strip().split("\n\n")[0]
    para = " ".join(para.split())
    match = re.match(r"(.+?[.!?])(\s|$)", para)
    return (match.group(1) if match else para)[:200]


def first_paragraph(doc: str, limit: int = 1000) -> str:
    return " ".join(doc.strip().split("\n\n")[0].split())[:limit]


def normalise(text: str) -> str:
    return " ".join(text.lower().split())


def _parse(text: str) -> ast.Module | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _defs(tree: ast.AST, prefix: str) -> Iterator[tuple[ast.AST, str]]:
    """Module, classes and functions at any depth (also under ``if``/``try``), with qualified names."""
    yield tree, prefix
    stack: list[tuple[ast.AST, str]] = [(tree, prefix)]
    while stack:
        node, qual = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                child_qual = f"{qual}.{child.name}" if qual else child.name
                yield child, child_qual
                stack.append((child, child_qual))
            elif isinstance(child, ast.stmt):
                stack.append((child, qual))


def blank_docstrings(text: str, module: str) -> tuple[str, list[tuple[str, str, bool]]]:
    """Replace every docstring with ``""`` (line numbers kept), like the benchmark.

    Returns the blanked source and ``(qualname, docstring, is_function)`` for each
    removed docstring. Unparseable source is returned unchanged with no docstrings.
    """
    tree = _parse(text)
    if tree is None:
        return text, []
    lines = text.split("\n")
    docs: list[tuple[str, str, bool]] = []
    for node, qual in _defs(tree, module):
        body = getattr(node, "body", None)
        if not body or not isinstance(body[0], ast.Expr) or not isinstance(body[0].value, ast.Constant):
            continue
        if not isinstance(body[0].value.value, str):
            continue
        first, last = body[0].lineno, body[0].end_lineno or body[0].lineno
        if first - 1 >= len(lines):
            continue
        indent = re.match(r"\s*", lines[first - 1]).group(0)  # type: ignore[union-attr]
        lines[first - 1] = indent + '""'
        for i in range(first, min(last, len(lines))):
            lines[i] = ""
        docs.append((qual, body[0].value.value, isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))))
    return "\n".join(lines), docs


def _module_name(rel: str) -> str:
    parts = rel[: -len(".py")].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def body_fingerprint(code: str) -> str:
    """Whitespace-insensitive hash of a code chunk's text (for the stdlib overlap check)."""
    return hashlib.sha1("".join(code.split()).encode()).hexdigest()


def _source_file(rel: str, text: str, language: str, kind: str) -> SourceFile:
    return SourceFile(path=rel, kind=kind, language=language, text=text, mtime=0.0,
                      sha256=hashlib.sha256(text.encode()).hexdigest(), size=len(text))


def embed_text(chunk: Any) -> str:
    """What the index embeds for a chunk (``caas_tui.index.refresh.embed_text``)."""
    return (chunk.context_header() + "\n" + chunk.text)[:EMBED_CHARS]


def python_items(rel: str, text: str, package: str, stdlib: StdlibFingerprints | None = None,
                 stats: Counter[str] | None = None) -> list[Item]:
    """Code chunks (docstrings blanked) and docstring texts of one Python file."""
    stats = stats if stats is not None else Counter()
    blanked, docs = blank_docstrings(text, _module_name(rel))
    contaminated: set[str] = set()
    items: list[Item] = []
    for qual, doc, _is_func in docs:
        sentence = first_sentence(doc)
        if stdlib is not None and normalise(sentence) in stdlib.sentences:
            contaminated.add(qual)
            stats["dropped_stdlib_docstring"] += 1
            continue
        if len(sentence.split()) >= MIN_SENTENCE_WORDS:
            items.append(Item("sentence", sentence, package, f"{rel}:{qual}"))
        para = first_paragraph(doc)
        if para and normalise(para) != normalise(sentence) and len(para.split()) >= MIN_SENTENCE_WORDS:
            items.append(Item("paragraph", para, package, f"{rel}:{qual}"))
    for chunk in chunk_file(_source_file(rel, blanked, "python", "code")):
        if chunk.kind != "code" or len(chunk.text.strip()) < MIN_CODE_CHARS:
            continue
        if chunk.symbol in contaminated:
            stats["dropped_stdlib_code"] += 1
            continue
        if stdlib is not None and body_fingerprint(chunk.text) in stdlib.bodies:
            stats["dropped_stdlib_code"] += 1
            continue
        items.append(Item("code", embed_text(chunk), package, f"{rel}:{chunk.symbol}"))
    return items


def prose_items(rel: str, text: str, language: str, package: str) -> list[Item]:
    out = []
    for chunk in chunk_file(_source_file(rel, text, language, "doc")):
        body = chunk.text.strip()
        if len(body.split()) >= 8:
            out.append(Item("prose", embed_text(chunk), package, f"{rel}:{chunk.symbol}"))
    return out


def _metadata_description(text: str) -> tuple[str, str] | None:
    """The long description of a ``METADATA`` file and its language, if any."""
    head, sep, body = text.partition("\n\n")
    if not sep or len(body.split()) < 20:
        return None
    content_type = re.search(r"^Description-Content-Type:\s*(\S+)", head, re.MULTILINE | re.IGNORECASE)
    language = "rst"
    if content_type and "markdown" in content_type.group(1).lower():
        language = "markdown"
    elif content_type and "plain" in content_type.group(1).lower():
        language = "text"
    return body, language


def iter_files(roots: Iterable[Path]) -> Iterator[tuple[Path, str, str]]:
    """``(path, rel, package)`` for every candidate file under ``roots``, sorted."""
    for root in roots:
        root = root.resolve()
        for path in sorted(root.rglob("*")):
            if not path.is_file():
                continue
            rel_parts = path.relative_to(root).parts
            if any(part in SKIP_DIRS for part in rel_parts[:-1]):
                continue
            name = path.name
            if name in SKIP_FILES or name.startswith(("test_", "conftest")) or name.endswith("_test.py"):
                continue
            top = rel_parts[0]
            if top.endswith((".dist-info", ".egg-info")):
                if name != "METADATA":
                    continue
                package = top.split("-")[0].lower()
            else:
                package = top.removesuffix(".py")
            if path.suffix == ".py" or path.suffix in DOC_SUFFIXES or name == "METADATA":
                if path.suffix in DOC_SUFFIXES and SKIP_DOC_NAMES.match(name):
                    continue
                yield path, "/".join(rel_parts), package


@dataclass
class StdlibFingerprints:
    sentences: set[str]
    bodies: set[str]


def stdlib_fingerprints(stdlib_root: Path | None = None) -> StdlibFingerprints:
    """First sentences of every stdlib docstring and hashes of every stdlib code chunk."""
    root = stdlib_root or Path(sysconfig.get_paths()["stdlib"])
    sentences: set[str] = set()
    bodies: set[str] = set()
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if "site-packages" in rel.parts or "dist-packages" in rel.parts:
            continue
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        blanked, docs = blank_docstrings(text, _module_name(rel.as_posix()))
        for _qual, doc, _is_func in docs:
            sentences.add(normalise(first_sentence(doc)))
        for chunk in chunk_file(_source_file(rel.as_posix(), blanked, "python", "code")):
            if chunk.kind == "code" and len(chunk.text.strip()) >= MIN_CODE_CHARS:
                bodies.add(body_fingerprint(chunk.text))
    sentences.discard("")
    return StdlibFingerprints(sentences, bodies)


def extract_corpus(roots: Iterable[Path], stdlib: StdlibFingerprints | None,
                   stats: Counter[str] | None = None) -> list[Item]:
    """Every candidate text under ``roots``, decontaminated and deduplicated, in file order."""
    stats = stats if stats is not None else Counter()
    seen: set[tuple[str, str]] = set()
    out: list[Item] = []
    for path, rel, package in iter_files(roots):
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                stats["skipped_large"] += 1
                continue
            raw = path.read_bytes()
        except OSError:
            continue
        if b"\0" in raw:
            continue
        text = raw.decode("utf-8", errors="replace")
        if path.suffix == ".py":
            items = python_items(rel, text, package, stdlib, stats)
            stats["py_files"] += 1
        elif path.name == "METADATA":
            found = _metadata_description(text)
            items = prose_items(rel + ".md" if found and found[1] == "markdown" else rel, found[0], found[1],
                                package) if found else []
            stats["metadata_files"] += bool(found)
        else:
            items = prose_items(rel, text, DOC_SUFFIXES[path.suffix], package)
            stats["doc_files"] += 1
        for item in items:
            key = (item.category, normalise(item.text.split("\n", 1)[-1] if item.category in ("code", "prose")
                                            else item.text))
            if key in seen:
                stats[f"dropped_duplicate_{item.category}"] += 1
                continue
            seen.add(key)
            out.append(item)
    return out


def select_texts(items: list[Item], mix: dict[str, int], *, seed: int = 0, package_cap: float = 0.15) -> list[Item]:
    """A seeded sample of ``mix[category]`` items per category, shuffled together.

    No top-level package gets more than ``package_cap`` of a category's quota
    (numpy alone would otherwise fill half of it), unless there is not enough
    other material to fill the quota.
    """
    rng = random.Random(seed)
    chosen: list[Item] = []
    for category in CATEGORIES:
        want = mix.get(category, 0)
        pool = [it for it in items if it.category == category]
        if want <= 0 or not pool:
            continue
        rng.shuffle(pool)
        cap = max(1, int(want * package_cap))
        per_package: Counter[str] = Counter()
        taken: list[Item] = []
        overflow: list[Item] = []
        for item in pool:
            if len(taken) >= want:
                break
            if per_package[item.package] < cap:
                per_package[item.package] += 1
                taken.append(item)
            else:
                overflow.append(item)
        taken.extend(overflow[: max(0, want - len(taken))])
        chosen.extend(taken)
    rng.shuffle(chosen)
    return chosen


def corpus_report(items: list[Item], chosen: list[Item], stats: Counter[str]) -> dict[str, Any]:
    by_cat = Counter(it.category for it in items)
    chosen_cat = Counter(it.category for it in chosen)
    packages = Counter(it.package for it in chosen)
    return {
        "candidates": dict(by_cat),
        "selected": dict(chosen_cat),
        "selected_total": len(chosen),
        "selected_chars": sum(len(it.text) for it in chosen),
        "packages": len(packages),
        "top_packages": packages.most_common(10),
        "stats": dict(sorted(stats.items())),
    }


def texts_digest(texts: list[str]) -> str:
    digest = hashlib.sha256()
    for text in texts:
        digest.update(hashlib.sha256(text.encode()).digest())
    return digest.hexdigest()


