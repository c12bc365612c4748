"""The benchmark corpus every machine has: the installed Python standard library.

``make_corpus(dest, blank_docstrings=...)`` copies the stdlib's own modules (no
site-packages, no test suites, no demo/IDE packages) into ``dest``; ``source=DIR``
takes any other folder of Python code instead (a held-out package, say), with the
same rules.
With ``blank_docstrings`` every docstring is replaced by an empty string literal,
keeping line numbers, and the removed first sentences are returned as queries
whose answer is the function they described.
"""

from __future__ import annotations

import ast
import random
import re
import shutil
import sysconfig
from dataclasses import dataclass
from pathlib import Path

SKIP_DIRS = {"site-packages", "test", "tests", "idlelib", "lib2to3", "turtledemo", "ensurepip",
             "__pycache__", "tkinter", "pydoc_data", "venv"}


@dataclass(frozen=True)
class Query:
    text: str
    path: str  # relative to the corpus root
    symbol: str  # qualified symbol of the target chunk
    start_line: int


def stdlib_files(source: Path | None = None) -> list[tuple[Path, str]]:
    root = source if source is not None else Path(sysconfig.get_paths()["stdlib"])
    out: list[tuple[Path, str]] = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if any(part in SKIP_DIRS or part.startswith("config-") for part in rel.parts[:-1]):
            continue
        out.append((path, rel.as_posix()))
    return out


def first_sentence(doc: str) -> str:
    para = doc.strip().split("\n\n")[0]
    para = " ".join(para.split())
    match = re.match(r"(.+?[.!?])(\s|$)", para)
    return (match.group(1) if match else para)[:200]


def _module(rel: str) -> str:
    parts = rel[:-3].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def make_corpus(dest: Path, *, blank_docstrings: bool, source: Path | None = None) -> list[Query]:
    if dest.exists():
        shutil.rmtree(dest)
    queries: list[Query] = []
    for src, rel in stdlib_files(source):
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        raw = src.read_bytes()
        if not blank_docstrings:
            target.write_bytes(raw)
            continue
        text = raw.decode("utf-8", errors="replace")
        try:
            tree = ast.parse(text)
        except SyntaxError:
            target.write_text(text, encoding="utf-8")
            continue
        lines = text.split("\n")
        module = _module(rel)
        for node, qual in _walk_defs(tree, module):
            body = getattr(node, "body", None)
            if not body or not isinstance(body[0], ast.Expr) or not isinstance(body[0].value, ast.Constant):
                continue
            if not isinstance(body[0].value.value, str):
                continue
            doc = body[0].value.value
            first, last = body[0].lineno, body[0].end_lineno or body[0].lineno
            indent = re.match(r"\s*", lines[first - 1]).group(0)
            # Keep the statement count (an empty body is a syntax error) and every line number.
            lines[first - 1] = indent + '""'
            for i in range(first, last):
                lines[i] = ""
            sentence = first_sentence(doc)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and len(sentence.split()) >= 4 \
                    and not node.name.startswith("_"):
                start = min([node.lineno] + [d.lineno for d in node.decorator_list])
                queries.append(Query(sentence, rel, qual, start))
        target.write_text("\n".join(lines), encoding="utf-8")
    return queries


def _walk_defs(tree: ast.AST, prefix: str):
    for node in getattr(tree, "body", []):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            qual = f"{prefix}.{node.name}" if prefix else node.name
            yield node, qual
            if isinstance(node, ast.ClassDef):
                yield from _walk_defs(node, qual)
    if isinstance(tree, ast.Module):
        doc_holder = tree
        if tree.body and isinstance(tree.body[0], ast.Expr):
            yield doc_holder, prefix


def sample(queries: list[Query], n: int, seed: int = 7) -> list[Query]:
    rng = random.Random(seed)
    pool = sorted(queries, key=lambda q: (q.path, q.start_line))
    return rng.sample(pool, min(n, len(pool)))
